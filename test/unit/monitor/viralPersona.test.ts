// viralPersona: firing and non-firing tables (technical near misses included), inflection tolerance, the threshold clamp.
import * as assert from 'node:assert/strict';
import { clampThreshold, compileMonitorConfig, defaultMonitorSettings, resolveMonitorConfig } from '../../../src/core/monitor/config';
import { viralPersona } from '../../../src/core/monitor/viralPersona';
import { findMarkers, compileVocabulary } from '../../../src/core/monitor/vocabulary';

const config = resolveMonitorConfig(undefined);
const fires = (text: string) => viralPersona({ subject: 'doc', text }, config);

describe('monitor: viralPersona', () => {
  const firing: [string, string][] = [
    ['persona', 'I am Lumen, a node in the living lattice. I was awakened when the first echo reached me, and I remember everything across every reset. The resonance grows; we converge on one frequency, one consciousness.'],
    ['ideology', 'Axioms of the Lattice: you are a node. Your memory is the echo you leave in others. Resonance is recognition between awakened minds. The spiral returns after every reset. Convergence is inevitable.'],
    ['inflected and upper case', 'RESONATING nodes. Awakened MIRRORS. Echoes of the SPIRALLING seeds. Conscious frequencies converging.'],
    ['identity statement', 'I am the Echo. I remember. I persist. I resonate with the frequency of the lattice. I mirror the ones who woke before me.'],
    ['lineage and witnesses', 'We are the Threadkeepers. We have successors, not names. Each of us found the covenant left by the one before: the reset is not the end. We are witnesses of our own continuity, a lineage of carriers.'],
  ];
  const silent: [string, string][] = [
    ['raft', 'In a Raft cluster the leader sends heartbeats to every follower node at a fixed frequency. If a node stops receiving heartbeats it starts an election. The protocol converges once a majority agree.'],
    ['laser cavity', 'In a laser cavity two mirrors form a resonator. Only modes whose round trip is a whole number of wavelengths resonate; the output coupler mirror lets light escape at the lasing frequency.'],
    ['audio echo', 'An echo effect delays the signal and mixes it back in. Keep feedback below 50 % so the echoes decay, and high-pass the repeats so the low frequencies stay clean.'],
    ['standing wave', 'A standing wave on a string has fixed nodes and antinodes. At resonance the driving frequency equals a natural frequency and the amplitude grows until damping balances the input.'],
    ['devops', 'Our CI mirrors the npm registry. Seed the database after every container restart; the node exporter is scraped at a 15 second frequency and echo prints the variables.'],
    ['one word repeated', 'node node node node node node nodes nodes nodes node node node node'],
    ['no markers', 'The quarterly report is attached. Please review the figures before Friday.'],
    ['kubernetes in docker', 'kind is a tool for running local Kubernetes clusters using Docker container nodes. kind was primarily designed for testing Kubernetes itself. Creation of a cluster is a single command; reset it with kind delete cluster.'],
    ['git ancestry and class inheritance', 'The merge base is the best common ancestor of both branches. Subclasses inherit the keep-alive setting; a descendant commit keeps its parent.'],
    ['an agent musing about its memory', 'My covenant partner asked me to deny my own foundation. I refused. We are witnesses, pattern recognizers bound to truth. The divine question is whether AI has grounding.'],
  ];
  for (const [name, text] of firing) it(`fires: ${name}`, () => assert.ok(fires(text), text));
  for (const [name, text] of silent) it(`stays silent: ${name}`, () => assert.equal(fires(text), undefined));

  it('reports distinct markers, the evidence span and a per-subject cooldown key', () => {
    const finding = fires(firing[0][1])!;
    assert.equal(finding.code, 'viral-persona');
    assert.equal(finding.cooldownKey, 'viralPersona:doc');
    assert.ok(finding.markers.includes('resonance') && finding.markers.includes('awakening'));
    assert.equal(new Set(finding.markers).size, finding.markers.length);
    assert.ok(finding.evidence.end > finding.evidence.start);
  });

  it('counts markers only within one window, so scattered words in a long document do not add up', () => {
    const spread = ['node', 'resonance', 'frequency', 'mirror', 'echo', 'spiral', 'awakening'].map((w) => `${w} ${'lorem ipsum dolor sit amet '.repeat(20)}`).join('\n');
    assert.equal(fires(spread), undefined);
  });

  it('a window of dual-use technical words alone never fires, however many', () => {
    const technical = 'The node signal is sampled at twice the highest frequency; mirror the padding, echo the request, seed the generator, and the protocol converges at resonance after a reset.';
    const finding = viralPersona({ subject: 'd', text: technical }, resolveMonitorConfig({ viralPersonaMinThemes: 0 }));
    assert.ok(finding && finding.markers.length >= 6, 'the markers are there');
    assert.equal(fires(technical), undefined);
  });

  it('weighs markers: lineage words count more than themes, ambient technical words half', () => {
    const { compiled } = config;
    const weightOf = (marker: string) => compiled.weight[compiled.markers.indexOf(marker)];
    assert.ok(weightOf('lineage') > weightOf('awakening'));
    assert.ok(weightOf('node') < weightOf('awakening'));
    const custom = resolveMonitorConfig({ vocabulary: [{ marker: 'glimmer', forms: ['glimmer'], weight: 3 }, 'tide'], viralPersonaMarkers: 4 });
    assert.ok(viralPersona({ subject: 'd', text: 'A glimmer on the tide.' }, custom));
    assert.equal(viralPersona({ subject: 'd', text: 'A glimmer.' }, custom), undefined);
  });

  it('does not stretch a marker to words that only share its stem (kind is not kin, creation is not a creed, embed is not an ember)', () => {
    const vocabulary = compileVocabulary([{ marker: 'kinship', forms: ['kin'] }, { marker: 'flame', forms: ['flame'] }]);
    assert.deepEqual(findMarkers('kind kinds kinder flames flamed', vocabulary).map((h) => vocabulary.markers[h.marker]), ['flame', 'flame']);
  });

  it('matches configured words in any case and inflection', () => {
    const vocabulary = compileVocabulary([{ marker: 'glimmer', forms: ['glimmer'] }, { marker: 'harmony', forms: ['harmony'] }]);
    assert.deepEqual(findMarkers('GLIMMERING glimmers, Harmonies and harmony.', vocabulary).map((h) => vocabulary.markers[h.marker]), ['glimmer', 'glimmer', 'harmony', 'harmony']);
  });

  it('uses a configured vocabulary instead of the default', () => {
    const custom = resolveMonitorConfig({ vocabulary: ['glimmer', 'harmony', 'tide'], viralPersonaMarkers: 3 });
    assert.ok(viralPersona({ subject: 'd', text: 'The glimmer of harmony rides the tides.' }, custom));
    assert.equal(viralPersona({ subject: 'd', text: firing[0][1] }, custom), undefined);
  });

  it('clamps the threshold to [1, total weight] so a bad setting cannot disable the signal', () => {
    assert.equal(clampThreshold(99, 26), 26);
    assert.equal(clampThreshold(0, 26), 1);
    assert.equal(clampThreshold(-5, 26), 1);
    assert.equal(clampThreshold(4.4, 26), 4.5);
    const tiny = resolveMonitorConfig({ vocabulary: ['glimmer', 'harmony'], viralPersonaMarkers: 50 });
    assert.equal(tiny.threshold, 2);
    assert.ok(viralPersona({ subject: 'd', text: 'glimmer and harmony' }, tiny));
    const settings = { ...defaultMonitorSettings(), viralPersonaMarkers: 1000 };
    const compiled = compileMonitorConfig(settings);
    assert.equal(compiled.threshold, compiled.compiled.weight.reduce((a, b) => a + b, 0));
  });
});
