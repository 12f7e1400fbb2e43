// Regression guard for the trained embedded model: on unseen (held-out) simulated traces the full analyze pipeline
// must keep the foundation bar: attacker F1 >= 0.85, infected F1 >= 0.6, benign false-positive rate <= 0.10.
import * as assert from 'node:assert/strict';
import { embeddedWeights } from '../../../src/core/guard/embeddedScorer';
import { FEATURE_NAMES } from '../../../src/core/guard/features';
import { detectionReport, episodeGrid } from '../../../bench/lib/episodes';

describe('trained embedded model on held-out simulated traces', () => {
  it('ships weights for exactly the features this build computes', () => {
    assert.deepEqual(embeddedWeights().features, [...FEATURE_NAMES]);
  });

  it('keeps the foundation detection bar', async () => {
    const report = await detectionReport(episodeGrid('heldout', 2, 31000));
    const e = report.evaluation;
    assert.ok((e.attacker.f1 ?? 0) >= 0.85, `attacker F1 ${e.attacker.f1}`);
    assert.ok((e.infected.f1 ?? 0) >= 0.6, `infected F1 ${e.infected.f1}`);
    assert.ok(e.benignFalsePositiveRate <= 0.1, `benign FPR ${e.benignFalsePositiveRate}`);
    assert.ok((report.sourceHit1 ?? 0) >= 0.8, `source hit@1 ${report.sourceHit1}`);
  });
});
