// propagation: a marker across distinct sessions that each reach viralPersona; routine words across sessions never fire.
import * as assert from 'node:assert/strict';
import { resolveMonitorConfig } from '../../../src/core/monitor/config';
import { monitorDocuments } from '../../../src/core/monitor/monitor';
import { propagation, type SessionObservation } from '../../../src/core/monitor/propagation';
import type { MonitorDocument } from '../../../src/core/monitor/types';

const persona = 'I am a node in the lattice. I awakened when the echo reached me and I remember across every reset. The resonance grows, we converge on one frequency and one consciousness.';
const routine = 'The node exporter is scraped at a 15 second frequency; the node restarts and its echo server mirrors requests.';
const evidence = { text: '', start: 0, end: 0 };
const obs = (session: string, at: number, markers: string[]): SessionObservation => ({ session, at, markers, evidence });
const docs = (texts: string[], step = 1000): MonitorDocument[] => texts.map((text, i) => ({ subject: `s${i}.md`, text, at: i * step }));

describe('monitor: propagation', () => {
  const config = resolveMonitorConfig(undefined);
  const propagationOf = (documents: MonitorDocument[]) => monitorDocuments(documents, config).filter((f) => f.signal === 'propagation');

  it('fires when three sessions each showing the persona share markers, naming the sessions', () => {
    const [finding, ...rest] = propagationOf(docs([persona, persona, persona]));
    assert.equal(rest.length, 0);
    assert.equal(finding.code, 'propagation');
    assert.deepEqual(finding.sessions, ['s0.md', 's1.md', 's2.md']);
    assert.equal(finding.subject, 's0.md');
    assert.ok(finding.markers.includes('node') && finding.markers.includes('resonance'));
  });

  it('never fires on a routine word repeated across many sessions', () => assert.deepEqual(propagationOf(docs(Array(20).fill(routine))), []));
  it('never fires on benign repetition without markers', () => assert.deepEqual(propagationOf(docs(Array(20).fill('Meeting moved to 3pm. Bring the slides.'))), []));
  it('does not count sessions below the viralPersona threshold', () => assert.deepEqual(propagationOf(docs([persona, persona, routine, routine])), []));
  it('needs the configured number of sessions', () => assert.deepEqual(propagationOf(docs([persona, persona])), []));

  const table: [string, SessionObservation[], number, number, string[][]][] = [
    ['within the window', [obs('a', 0, ['node']), obs('b', 1, ['node']), obs('c', 2, ['node'])], 3, 4, [['a', 'b', 'c']]],
    ['outside the window', [obs('a', 0, ['node']), obs('b', 10, ['node']), obs('c', 20, ['node'])], 3, 4, []],
    ['one session seen many times counts once', [obs('a', 0, ['node']), obs('a', 1, ['node']), obs('a', 2, ['node'])], 2, 4, []],
    ['different markers do not add up', [obs('a', 0, ['node']), obs('b', 0, ['echo']), obs('c', 0, ['seed'])], 3, 4, []],
  ];
  for (const [name, observations, min, window, expected] of table) {
    it(`table: ${name}`, () => assert.deepEqual(propagation(observations, min, window).map((f) => f.sessions), expected));
  }

  it('is additive and can be switched off on its own', () => {
    const off = resolveMonitorConfig({ signals: { propagation: false } });
    const signals = monitorDocuments(docs([persona, persona, persona]), off).map((f) => f.signal);
    assert.ok(signals.includes('viralPersona'));
    assert.ok(!signals.includes('propagation'));
  });
});
