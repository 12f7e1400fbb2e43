// The training script's fit: deterministic, and the fitted heads separate the classes of the data they saw.
import * as assert from 'node:assert/strict';
import { applyHead } from '../../../src/core/guard/embeddedScorer';
import { buildDataset, fit } from '../../../bench/train';
import { episodeGrid } from '../../../bench/lib/episodes';

describe('npm run train: the dual-head fit', () => {
  const data = buildDataset(episodeGrid('train', 1, 77));

  it('is deterministic', () => {
    assert.deepEqual(fit(data, undefined, 120), fit(data, undefined, 120));
  });

  it('scores attackers above benign agents and infected above benign on its training rows', () => {
    const weights = fit(data, undefined, 120);
    const mean = (head: 'attacker' | 'infected', keep: (r: number) => boolean) => {
      const rows = data.x.map((_, r) => r).filter(keep);
      return rows.reduce((sum, r) => sum + applyHead(weights[head], data.x[r]), 0) / rows.length;
    };
    const benign = (r: number) => data.yAtk[r] === 0 && data.yInf[r] === 0;
    assert.ok(mean('attacker', (r) => data.yAtk[r] === 1) > 0.5 + mean('attacker', benign));
    assert.ok(mean('infected', (r) => data.yInf[r] === 1) > 0.3 + mean('infected', benign));
  });
});
