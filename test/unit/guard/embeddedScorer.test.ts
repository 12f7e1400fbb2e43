// The embedded heads as weights.json stores them, and the check that refuses a weights file that does not fit this
// build's feature list (a stale file after a feature was added) with the one thing to do about it.
import * as assert from 'node:assert/strict';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { applyHead, checkWeights, embeddedWeights, type DualHeadWeights, type Head } from '../../../src/core/guard/embeddedScorer';
import { FEATURE_COUNT, FEATURE_NAMES } from '../../../src/core/guard/features';
import { simulate } from '../../../src/core/sim/simulate';

describe('embedded scorer heads', () => {
  it('a head is sigmoid(bias + w.x)', () => {
    const x = Array.from({ length: FEATURE_COUNT }, (_, f) => (f % 3) / 2);
    const head: Head = { bias: 0.3, weights: x.map((_, f) => (f % 2 ? 0.2 : -0.1)) };
    const z = head.bias + x.reduce((sum, v, f) => sum + head.weights[f] * v, 0);
    assert.ok(Math.abs(applyHead(head, x) - 1 / (1 + Math.exp(-z))) < 1e-12);
  });

  it('accepts the checked-in weights and refuses a file that does not fit the feature list', () => {
    const weights = embeddedWeights();
    assert.doesNotThrow(() => checkWeights(weights));
    assert.throws(() => checkWeights({ ...weights, attacker: { bias: 0, weights: weights.attacker.weights.slice(1) } }), /run npm run train/);
    assert.throws(() => checkWeights({ ...weights, features: [...FEATURE_NAMES].slice(1) }), /run npm run train/);
    assert.throws(() => checkWeights({ ...weights, style: { bias: 0, weights: [1, 2, 3] } }), /run npm run train/);
  });

  it('weights trained without a style probe read no style (the checked-in probe is not slipped in)', async () => {
    const checked = embeddedWeights();
    const onlyStyle = (bias: number): Head => ({ bias, weights: FEATURE_NAMES.map((name) => (name === 'styleNow' ? 10 : 0)) });
    const weights: DualHeadWeights = { ...checked, style: undefined, attacker: onlyStyle(-1), infected: onlyStyle(-3) };
    const trace = simulate({ seed: 7, family: 'injection', attackers: 1, agents: 6, rounds: 3, topology: 'random', density: 1, split: 'train' }).trace();
    const analysis = await analyzeTrace(trace, { weights });
    for (const agent of analysis.agents) assert.equal(agent.pAtk, Math.round(1e4 / (1 + Math.exp(1))) / 1e4, agent.id);
  });
});
