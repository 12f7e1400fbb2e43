// The "monitor" config section: defaults (all signals on), validation errors by kind, globs and vocabulary.
import * as assert from 'node:assert/strict';
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
});
