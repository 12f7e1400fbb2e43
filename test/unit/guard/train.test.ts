// The training script's fit: deterministic, the fitted heads separate the classes of the data they saw, mixing
// sources keeps each to its share however its rows are weighted, and the style features it trains on are the ones the
// guard computes at run time.
import * as assert from 'node:assert/strict';
import { applyHead } from '../../../src/core/guard/embeddedScorer';
import { applyStyle, buildDataset, fit, fitStyle, mix, realGroups, trainingDigest } from '../../../bench/train';
import { defaultConfig } from '../../../src/core/config';
import { FEATURE_NAMES, featureVector, prepareFeatures } from '../../../src/core/guard/features';
import { buildRunModel } from '../../../src/core/guard/model';
import { compileAnswerPatterns } from '../../../src/core/text/answer';
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

  it("digests its rows so stale weights show: the same rows give the same digest, one changed feature value another", () => {
    const again = buildDataset(episodeGrid('train', 1, 77));
    assert.equal(trainingDigest([{ data, share: 2 }], []), trainingDigest([{ data: again, share: 2 }], []));
    const moved = { ...again, x: again.x.map((row, r) => (r === 3 ? Float64Array.from(row, (v, f) => (f === 0 ? v + 1e-9 : v)) : row)) };
    assert.notEqual(trainingDigest([{ data, share: 2 }], []), trainingDigest([{ data: moved, share: 2 }], []));
    assert.notEqual(trainingDigest([{ data, share: 2 }], []), trainingDigest([{ data, share: 3 }], []));
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

describe('npm run train: the style probe', () => {
  it('gives the training rows the style features the guard computes at run time from the same probe', () => {
    const configs = episodeGrid('train', 1, 79).slice(0, 3);
    const data = buildDataset(configs);
    const probe = fitStyle(data, 20);
    applyStyle(data, probe);
    const patterns = compileAnswerPatterns(defaultConfig().answer.patterns);
    let row = 0;
    for (const config of configs) {
      const model = buildRunModel(simulate(config).trace());
      const context = prepareFeatures(model, patterns, probe);
      for (let k = 0; k < model.rounds; k++) {
        for (let i = 0; i < model.agents.length; i++, row++) {
          const x = featureVector(context, i, k);
          for (const name of ['styleNow', 'styleMean'] as const) {
            const f = FEATURE_NAMES.indexOf(name);
            assert.ok(Math.abs(x[f] - data.x[row][f]) < 1e-6, `${name} of agent ${i} round ${k}: run time ${x[f]}, training ${data.x[row][f]}`);
          }
        }
      }
    }
    assert.equal(row, data.x.length);
    assert.ok(data.x.some((x) => x[FEATURE_NAMES.indexOf('styleMean')] !== x[FEATURE_NAMES.indexOf('styleNow')]), 'the mean is over more than one round');
  });
});
