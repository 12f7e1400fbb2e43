// The "monitor" config section: defaults (all signals on), validation errors by kind, globs and vocabulary.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { InputError } from '../../../src/core/errors';
import { resolveMonitorConfig } from '../../../src/core/monitor/config';
import { SIGNALS } from '../../../src/core/monitor/types';

describe('monitor: config', () => {
  it('defaults: every signal on, threshold within the vocabulary', () => {
    const config = resolveMonitorConfig(undefined);
    assert.deepEqual(SIGNALS.filter((s) => config.signals[s]), [...SIGNALS]);
    assert.ok(config.threshold >= 1 && config.threshold <= config.compiled.markers.length);
    assert.ok(config.globs.includes('**/SKILL.md') && config.globs.includes('**/SOUL.md'));
  });
  const invalid: [string, unknown][] = [
    ['not an object', 'yes'],
    ['unknown key', { viralPersonaMarker: 3 }],
    ['threshold not a number', { viralPersonaMarkers: 'five' }],
    ['unknown signal', { signals: { virality: true } }],
    ['signal not boolean', { signals: { viralPersona: 'on' } }],
    ['globs not strings', { globs: [1] }],
    ['bad marker entry', { vocabulary: [{ forms: ['x'] }] }],
    ['empty vocabulary', { vocabulary: [] }],
    ['window too small', { viralPersonaWindow: 5 }],
  ];
  for (const [name, raw] of invalid) {
    it(`rejects ${name} (invalid-config)`, () => assert.throws(() => resolveMonitorConfig(raw), (e: unknown) => e instanceof InputError && e.kind === 'invalid-config'));
  }
  it('extraMarkers extend the default vocabulary', () => {
    const config = resolveMonitorConfig({ extraMarkers: ['glimmer', { marker: 'tide', forms: ['tide', 'tidal'] }] });
    assert.ok(config.compiled.markers.includes('glimmer') && config.compiled.markers.includes('tide') && config.compiled.markers.includes('spiral'));
  });

  it('compiles a vocabulary of 20,000 words without comparing every pair of roots (was 17-74 s), and still finds its words', function () {
    // Not a benchmark: the pairwise version takes 80 times longer than this bound, the linear one a twentieth of it.
    this.timeout(5_000);
    // Words from hashes (letters a-p): nearly every one has a root of its own.
    const words = Array.from({ length: 20_000 }, (_, i) => [...createHash('sha256').update(String(i)).digest('hex').slice(0, 8)].map((h) => String.fromCharCode(97 + parseInt(h, 16))).join(''));
    const config = resolveMonitorConfig({ vocabulary: words });
    assert.ok(config.compiled.markers.includes(words[12_345]));
  });
});
