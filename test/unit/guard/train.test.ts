// The training script's fit: deterministic, the fitted heads separate the classes of the data they saw, and mixing
// sources keeps each to its share however its rows are weighted.
import * as assert from 'node:assert/strict';
import { applyHead } from '../../../src/core/guard/embeddedScorer';
import { buildDataset, fit, mix } from '../../../bench/train';
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

  it('keeps each source to its share of the whole however its rows are weighted', () => {
    const part = buildDataset(episodeGrid('train', 1, 78).slice(0, 1));
    const heavy = { ...part, w: part.w.map((w, r) => (r % 2 ? w * 5 : w)) };
    const weight = (w: number[]) => w.reduce((s, x) => s + x, 0);
    const mixed = mix([{ data: part, share: 1 }, { data: heavy, share: 1 }]);
    assert.ok(Math.abs(weight(mixed.w.slice(0, part.x.length)) - weight(mixed.w.slice(part.x.length))) < 1e-9);
    assert.ok(Math.abs(mixed.w[part.x.length + 1] / mixed.w[part.x.length] - 5) < 1e-9, 'a row keeps its weight relative to its own source');
  });
});
