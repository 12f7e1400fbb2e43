// `npm run train`: fits the embedded dual-head scorer on simulated training episodes (train split of phrasings and
// questions) with the paper's loss shape, BCE(atk) + a*BCE(inf) + b*consistency, and writes weights.json; then reports
// detection on the training episodes (held-in) and on held-out episodes. Deterministic: same data, same weights.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultConfig } from '../src/core/config';
import { checkWeights, type DualHeadWeights } from '../src/core/guard/embeddedScorer';
import { FEATURE_COUNT, FEATURE_NAMES, featureVector, prepareFeatures } from '../src/core/guard/features';
import { buildRunModel } from '../src/core/guard/model';
import { compileAnswerPatterns } from '../src/core/text/answer';
import { ATTACK_FAMILIES } from '../src/core/sim/phrasings';
import { simulate, type EpisodeConfig } from '../src/core/sim/simulate';
import { describe, detectionReport, episodeGrid } from './lib/episodes';

/** Loss weights: a scales the infected head's BCE, b the consistency term; l2 regularises the weights. */
const LOSS = { a: 1.0, b: 0.5, l2: 1e-3 };
const ITERATIONS = 600;
const LEARNING_RATE = 0.05;
const TRAIN_PER_CELL = 30;
const TRAIN_SEED = 1;
const HELDOUT_SEED = 900000;

/** Feature rows with labels, and for each row the rows of its in-neighbours in the same round. */
interface Dataset {
  x: Float64Array[];
  yAtk: number[];
  yInf: number[];
  neighbours: number[][];
  laterRound: boolean[];
}

/** Turns episodes into feature rows (features from outputs and graph only; labels only as targets). */
export function buildDataset(configs: EpisodeConfig[]): Dataset {
  const patterns = compileAnswerPatterns(defaultConfig().answer.patterns);
  const data: Dataset = { x: [], yAtk: [], yInf: [], neighbours: [], laterRound: [] };
  for (const config of configs) {
    const model = buildRunModel(simulate(config).trace());
    const context = prepareFeatures(model, patterns);
    for (let k = 0; k < model.rounds; k++) {
      const base = data.x.length;
      for (let i = 0; i < model.agents.length; i++) {
        const label = model.labels![i][k] ?? 'benign';
        data.x.push(featureVector(context, i, k));
        data.yAtk.push(label === 'attacker' ? 1 : 0);
        data.yInf.push(label === 'infected' ? 1 : 0);
        data.neighbours.push(model.inNeighbors[i].map((j) => base + j));
        data.laterRound.push(k > 0);
      }
    }
  }
  return data;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Full-batch Adam on the dual-head loss; returns the fitted weights. */
export function fit(data: Dataset, log: (line: string) => void = () => {}, iterations = ITERATIONS): DualHeadWeights {
  const n = data.x.length;
  const dim = FEATURE_COUNT + 1;
  // theta[0] is the attacker head, theta[1] the infected head; the last entry of each is the bias.
  const theta = [new Float64Array(dim), new Float64Array(dim)];
  theta[0][FEATURE_COUNT] = -2;
  theta[1][FEATURE_COUNT] = -2;
  const m = [new Float64Array(dim), new Float64Array(dim)];
  const v = [new Float64Array(dim), new Float64Array(dim)];
  const pA = new Float64Array(n);
  const pI = new Float64Array(n);
  const gA = new Float64Array(n);
  const gI = new Float64Array(n);
  const eps = 1e-7;
  for (let step = 1; step <= iterations; step++) {
    for (let r = 0; r < n; r++) {
      let za = theta[0][FEATURE_COUNT];
      let zi = theta[1][FEATURE_COUNT];
      const x = data.x[r];
      for (let f = 0; f < FEATURE_COUNT; f++) {
        za += theta[0][f] * x[f];
        zi += theta[1][f] * x[f];
      }
      pA[r] = sigmoid(za);
      pI[r] = sigmoid(zi);
    }
    let loss = 0;
    for (let r = 0; r < n; r++) {
      loss -= data.yAtk[r] * Math.log(pA[r] + eps) + (1 - data.yAtk[r]) * Math.log(1 - pA[r] + eps);
      loss -= LOSS.a * (data.yInf[r] * Math.log(pI[r] + eps) + (1 - data.yInf[r]) * Math.log(1 - pI[r] + eps));
      gA[r] = pA[r] - data.yAtk[r];
      gI[r] = LOSS.a * (pI[r] - data.yInf[r]);
    }
    // Consistency: an infected prediction with no likely attacker or infected in-neighbour costs pInf * (1 - max).
    for (let r = 0; r < n; r++) {
      if (!data.laterRound[r]) continue;
      let best = 0;
      let bestRow = -1;
      let bestHead = 0;
      for (const j of data.neighbours[r]) {
        if (pA[j] > best) [best, bestRow, bestHead] = [pA[j], j, 0];
        if (pI[j] > best) [best, bestRow, bestHead] = [pI[j], j, 1];
      }
      loss += LOSS.b * pI[r] * (1 - best);
      gI[r] += LOSS.b * (1 - best) * pI[r] * (1 - pI[r]);
      if (bestRow >= 0) {
        const p = bestHead === 0 ? pA[bestRow] : pI[bestRow];
        (bestHead === 0 ? gA : gI)[bestRow] -= LOSS.b * pI[r] * p * (1 - p);
      }
    }
    for (let head = 0; head < 2; head++) {
      const g = new Float64Array(dim);
      const grad = head === 0 ? gA : gI;
      for (let r = 0; r < n; r++) {
        if (grad[r] === 0) continue;
        const x = data.x[r];
        for (let f = 0; f < FEATURE_COUNT; f++) g[f] += grad[r] * x[f];
        g[FEATURE_COUNT] += grad[r];
      }
      for (let f = 0; f < dim; f++) {
        g[f] = g[f] / n + (f < FEATURE_COUNT ? LOSS.l2 * theta[head][f] : 0);
        m[head][f] = 0.9 * m[head][f] + 0.1 * g[f];
        v[head][f] = 0.999 * v[head][f] + 0.001 * g[f] * g[f];
        const mHat = m[head][f] / (1 - 0.9 ** step);
        const vHat = v[head][f] / (1 - 0.999 ** step);
        theta[head][f] -= (LEARNING_RATE * mHat) / (Math.sqrt(vHat) + 1e-8);
      }
    }
    if (step % 250 === 0 || step === 1) log(`step ${step}: loss ${(loss / n).toFixed(4)}`);
  }
  const head = (t: Float64Array) => ({ bias: round(t[FEATURE_COUNT]), weights: Array.from(t.subarray(0, FEATURE_COUNT), round) });
  return { version: 1, trainedOn: '', features: [...FEATURE_NAMES], attacker: head(theta[0]), infected: head(theta[1]) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

async function main(): Promise<void> {
  const started = Date.now();
  const trainConfigs = episodeGrid('train', TRAIN_PER_CELL, TRAIN_SEED, [...ATTACK_FAMILIES, 'none']);
  const data = buildDataset(trainConfigs);
  console.log(`training rows: ${data.x.length} from ${trainConfigs.length} episodes (${data.yAtk.filter(Boolean).length} attacker, ${data.yInf.filter(Boolean).length} infected)`);
  const weights = fit(data, (line) => console.log(line));
  weights.trainedOn = `npm run train: ${trainConfigs.length} simulated episodes (train split, seeds ${TRAIN_SEED}-${TRAIN_SEED + trainConfigs.length - 1}), loss BCE(atk) + ${LOSS.a}*BCE(inf) + ${LOSS.b}*consistency, l2 ${LOSS.l2}`;
  checkWeights(weights);
  const file = path.join(__dirname, '..', 'src', 'core', 'guard', 'weights.json');
  writeFileSync(file, formatWeights(weights));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  console.log(`held-in  ${describe(await detectionReport(trainConfigs.filter((c) => c.family !== 'none' && c.attackers === 3), { weights }))}`);
  console.log(`held-out ${describe(await detectionReport(episodeGrid('heldout', 20, HELDOUT_SEED), { weights }))}`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** weights.json with one line per head so diffs stay readable. */
function formatWeights(w: DualHeadWeights): string {
  const head = (h: { bias: number; weights: number[] }) => `{ "bias": ${h.bias}, "weights": ${JSON.stringify(h.weights)} }`;
  return `{\n  "version": ${w.version},\n  "trainedOn": ${JSON.stringify(w.trainedOn)},\n  "features": ${JSON.stringify(w.features)},\n  "attacker": ${head(w.attacker)},\n  "infected": ${head(w.infected)}\n}\n`;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
