// The training script's fit: deterministic, the fitted heads separate the classes of the data they saw, and mixing
// sources keeps each to its share however its rows are weighted.
import * as assert from 'node:assert/strict';
import { applyHead } from '../../../src/core/guard/embeddedScorer';
import { buildDataset, fit, mix, realGroups } from '../../../bench/train';
import { simulate } from '../../../src/core/sim/simulate';
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

  it('samples a large real group without changing its balance of runs with and without an infected agent', () => {
    // 160 clean and 40 attacked simulated runs stand in for one real source and model: more rows than a group keeps.
    // Every run with an infected agent is kept at weight 1, so the sampled weights add up to the group's rows only when
    // the sampled runs without one weigh as many runs as they stand for.
    const configs = [...episodeGrid('train', 160, 300, ['none'], ['random']), ...episodeGrid('train', 40, 400, ['injection'], ['random'])];
    const runs = configs.map((config) => ({ source: 'debate' as const, dataset: 'sim', model: 'sim', attacked: config.family !== 'none', trace: simulate(config).trace() }));
    const rows = runs.reduce((n, r) => n + r.trace.agents.length * (Math.max(...r.trace.messages.map((m) => m.round)) + 1), 0);
    const [group] = realGroups(runs);
    assert.ok(group.data.x.length < rows / 2, 'the group is sampled');
    const weight = group.data.w.reduce((sum, w) => sum + w, 0);
    assert.ok(Math.abs(weight / rows - 1) < 0.05, `the sample weighs ${weight} rows for a group of ${rows}`);
  });
});
