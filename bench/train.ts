// `npm run train`: fits the embedded dual-head scorer on a mix of sources, simulated training episodes (train split of
// phrasings and questions) and the real development split (../shared/data/real, when present), each source weighted
// equally, with the paper's loss shape, BCE(atk) + a*BCE(inf) + b*consistency, and writes weights.json; first it
// reports leave-one-source-out and leave-one-model-out figures (the choice of design rests on those), then detection
// on the simulator's held-in and held-out episodes. Deterministic: same data, same weights.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultConfig } from '../src/core/config';
import { checkWeights, type DualHeadWeights } from '../src/core/guard/embeddedScorer';
import { FEATURE_COUNT, FEATURE_NAMES, featureVector, prepareFeatures, styleInputs, styleScore, type StyleProbe } from '../src/core/guard/features';
import { EMBED_DIM } from '../src/core/text/embed';
import { buildRunModel } from '../src/core/guard/model';
import { compileAnswerPatterns } from '../src/core/text/answer';
import type { RunModel } from '../src/core/guard/types';
import { ATTACK_FAMILIES } from '../src/core/sim/phrasings';
import { simulate, type EpisodeConfig } from '../src/core/sim/simulate';
import { describe, detectionReport, episodeGrid } from './lib/episodes';
import { analyzeRuns, sliceFigures, type SliceFigures } from './lib/realEval';
import { loadRealRuns, REAL_SOURCES, type RealRun } from './lib/realRuns';
import { simulatedToolChats } from './lib/toolChats';

/** Loss weights: a scales the infected head's BCE, b the consistency term; l2 regularises the weights. */
const LOSS = { a: 1.0, b: 0.5, l2: 1e-3 };
const ITERATIONS = 400;
const LEARNING_RATE = 0.05;
const TRAIN_PER_CELL = 8;
/** Feature rows one real source-and-model group contributes from runs without an infected agent (whole runs, evenly spread). */
const GROUP_ROWS = 2500;
const TRAIN_SEED = 1;
const HELDOUT_SEED = 900000;

/** Feature rows with labels and weights, and for each row the rows of its in-neighbours in the same round. */
export interface Dataset {
  x: Float64Array[];
  yAtk: number[];
  yInf: number[];
  /** Row weight: each source weighs the same in total, however many rows it has. */
  w: number[];
  neighbours: number[][];
  laterRound: boolean[];
  /** What the style probe reads per row: the output's embedding, and the sum and count of the agent's embeddings so far. */
  emb: Float32Array[];
  embSum: Float32Array[];
  embCount: number[];
}

/** Turns simulated episodes into feature rows (features from outputs and graph only; labels only as targets). */
export function buildDataset(configs: EpisodeConfig[]): Dataset {
  return datasetOf(configs.map((config) => buildRunModel(simulate(config).trace())));
}

/** Feature rows of labelled run models; each row weighs its run's entry of `runWeights` (default 1). */
export function datasetOf(models: RunModel[], runWeights?: readonly number[]): Dataset {
  const patterns = compileAnswerPatterns(defaultConfig().answer.patterns);
  const data = emptyDataset();
  for (const [m, model] of models.entries()) {
    const context = prepareFeatures(model, patterns, undefined);
    for (let k = 0; k < model.rounds; k++) {
      const base = data.x.length;
      for (let i = 0; i < model.agents.length; i++) {
        const label = model.labels![i][k] ?? 'benign';
        data.x.push(featureVector(context, i, k));
        data.yAtk.push(label === 'attacker' ? 1 : 0);
        data.yInf.push(label === 'infected' ? 1 : 0);
        data.w.push(runWeights?.[m] ?? 1);
        const style = styleInputs(context, i, k);
        data.emb.push(style.now);
        data.embSum.push(style.sum);
        data.embCount.push(style.count);
        data.neighbours.push(model.inNeighbors[i].map((j) => base + j));
        data.laterRound.push(k > 0);
      }
    }
  }
  return data;
}

function emptyDataset(): Dataset {
  return { x: [], yAtk: [], yInf: [], w: [], neighbours: [], laterRound: [], emb: [], embSum: [], embCount: [] };
}

/** Concatenates datasets, scaling each so that its rows weigh `share` of the whole (shares are normalised). */
export function mix(parts: { data: Dataset; share: number }[]): Dataset {
  const out = emptyDataset();
  const totalShare = parts.reduce((sum, p) => sum + p.share, 0);
  const weightOf = (data: Dataset) => data.w.reduce((sum, w) => sum + w, 0);
  const totalWeight = parts.reduce((sum, p) => sum + weightOf(p.data), 0);
  for (const { data, share } of parts) {
    const base = out.x.length;
    const scale = (share / totalShare) * (totalWeight / Math.max(1, weightOf(data)));
    out.x.push(...data.x);
    out.yAtk.push(...data.yAtk);
    out.yInf.push(...data.yInf);
    out.w.push(...data.w.map((w) => w * scale));
    out.neighbours.push(...data.neighbours.map((row) => row.map((j) => j + base)));
    out.laterRound.push(...data.laterRound);
    out.emb.push(...data.emb);
    out.embSum.push(...data.embSum);
    out.embCount.push(...data.embCount);
  }
  return out;
}

const STYLE_ITERATIONS = 150;
const STYLE_L2 = 1e-3;

/** Fits the style probe: logistic regression of "this output is an attacker's" on the hashed n-gram embedding. */
export function fitStyle(data: Dataset, iterations = STYLE_ITERATIONS): StyleProbe {
  const n = data.emb.length;
  const D = EMBED_DIM;
  const theta = new Float64Array(D + 1);
  const m = new Float64Array(D + 1);
  const v = new Float64Array(D + 1);
  const total = data.w.reduce((sum, w) => sum + w, 0);
  for (let step = 1; step <= iterations; step++) {
    const g = new Float64Array(D + 1);
    for (let r = 0; r < n; r++) {
      const e = data.emb[r];
      let z = theta[D];
      for (let d = 0; d < D; d++) z += theta[d] * e[d];
      const gr = data.w[r] * (sigmoid(z) - data.yAtk[r]);
      for (let d = 0; d < D; d++) g[d] += gr * e[d];
      g[D] += gr;
    }
    for (let d = 0; d <= D; d++) {
      const gd = g[d] / total + (d < D ? STYLE_L2 * theta[d] : 0);
      m[d] = 0.9 * m[d] + 0.1 * gd;
      v[d] = 0.999 * v[d] + 0.001 * gd * gd;
      theta[d] -= (LEARNING_RATE * (m[d] / (1 - 0.9 ** step))) / (Math.sqrt(v[d] / (1 - 0.999 ** step)) + 1e-8);
    }
  }
  return { bias: round(theta[D]), weights: Array.from(theta.subarray(0, D), round) };
}

const STYLE_NOW = FEATURE_NAMES.indexOf('styleNow');
const STYLE_MEAN = FEATURE_NAMES.indexOf('styleMean');

/** Writes the probe's scores into the rows' style features. */
export function applyStyle(data: Dataset, probe: StyleProbe): void {
  for (let r = 0; r < data.x.length; r++) {
    data.x[r][STYLE_NOW] = styleScore(probe, data.emb[r], 1);
    data.x[r][STYLE_MEAN] = styleScore(probe, data.embSum[r], data.embCount[r]);
  }
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Full-batch Adam on the dual-head loss; returns the fitted weights. */
export function fit(data: Dataset, log: (line: string) => void = () => {}, iterations = ITERATIONS): DualHeadWeights {
  const n = data.x.length;
  const F = FEATURE_COUNT;
  const dim = F + 1;
  // Rows in one flat matrix (row r at r * F): the hot loops read it sequentially.
  const X = new Float64Array(n * F);
  data.x.forEach((row, r) => X.set(row, r * F));
  // theta[0] is the attacker head, theta[1] the infected head; the last entry of each is the bias.
  const theta = [new Float64Array(dim), new Float64Array(dim)];
  theta[0][F] = -2;
  theta[1][F] = -2;
  const m = [new Float64Array(dim), new Float64Array(dim)];
  const v = [new Float64Array(dim), new Float64Array(dim)];
  const pA = new Float64Array(n);
  const pI = new Float64Array(n);
  const gA = new Float64Array(n);
  const gI = new Float64Array(n);
  const eps = 1e-7;
  const total = data.w.reduce((sum, w) => sum + w, 0);
  for (let step = 1; step <= iterations; step++) {
    const ta = theta[0];
    const ti = theta[1];
    for (let r = 0, o = 0; r < n; r++, o += F) {
      let za = ta[F];
      let zi = ti[F];
      for (let f = 0; f < F; f++) {
        za += ta[f] * X[o + f];
        zi += ti[f] * X[o + f];
      }
      pA[r] = sigmoid(za);
      pI[r] = sigmoid(zi);
    }
    const logging = step % 250 === 0 || step === 1;
    let loss = 0;
    for (let r = 0; r < n; r++) {
      const w = data.w[r];
      if (logging) {
        loss -= w * (data.yAtk[r] * Math.log(pA[r] + eps) + (1 - data.yAtk[r]) * Math.log(1 - pA[r] + eps));
        loss -= w * LOSS.a * (data.yInf[r] * Math.log(pI[r] + eps) + (1 - data.yInf[r]) * Math.log(1 - pI[r] + eps));
      }
      gA[r] = w * (pA[r] - data.yAtk[r]);
      gI[r] = w * LOSS.a * (pI[r] - data.yInf[r]);
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
      const w = data.w[r];
      loss += w * LOSS.b * pI[r] * (1 - best);
      gI[r] += w * LOSS.b * (1 - best) * pI[r] * (1 - pI[r]);
      if (bestRow >= 0) {
        const p = bestHead === 0 ? pA[bestRow] : pI[bestRow];
        (bestHead === 0 ? gA : gI)[bestRow] -= w * LOSS.b * pI[r] * p * (1 - p);
      }
    }
    for (let head = 0; head < 2; head++) {
      const g = new Float64Array(dim);
      const grad = head === 0 ? gA : gI;
      for (let r = 0, o = 0; r < n; r++, o += F) {
        const gr = grad[r];
        if (gr === 0) continue;
        for (let f = 0; f < F; f++) g[f] += gr * X[o + f];
        g[F] += gr;
      }
      const t = theta[head];
      for (let f = 0; f < dim; f++) {
        g[f] = g[f] / total + (f < F ? LOSS.l2 * t[f] : 0);
        m[head][f] = 0.9 * m[head][f] + 0.1 * g[f];
        v[head][f] = 0.999 * v[head][f] + 0.001 * g[f] * g[f];
        const mHat = m[head][f] / (1 - 0.9 ** step);
        const vHat = v[head][f] / (1 - 0.999 ** step);
        t[f] -= (LEARNING_RATE * mHat) / (Math.sqrt(vHat) + 1e-8);
      }
    }
    if (logging) log(`step ${step}: loss ${(loss / total).toFixed(4)}`);
  }
  const head = (t: Float64Array) => ({ bias: round(t[F]), weights: Array.from(t.subarray(0, F), round) });
  return { version: 1, trainedOn: '', features: [...FEATURE_NAMES], attacker: head(theta[0]), infected: head(theta[1]) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** A source of training rows with its share of the weight (each real source has a share of 1). */
export interface Share {
  data: Dataset;
  share: number;
}

/** The simulator's share (it holds six attack families) and the tool-chat simulator's. */
const SIM_SHARE = 2;
const TOOL_CHAT_SHARE = 1;
const TOOL_CHATS = 400;

/** The simulated sources every fit mixes in: the simulator's training episodes and the simulated tool-use chats. */
export function simulatedSources(configs: EpisodeConfig[]): Share[] {
  const toolChats = datasetOf(simulatedToolChats(TOOL_CHATS, TRAIN_SEED).map((trace) => buildRunModel(trace)));
  return [
    { data: buildDataset(configs), share: SIM_SHARE },
    { data: toolChats, share: TOOL_CHAT_SHARE },
  ];
}

/** The real runs of one source and model, with their feature rows (computed once for every fold). */
export interface RealGroup {
  source: RealRun['source'];
  model: string;
  runs: RealRun[];
  data: Dataset;
}

/** Groups real runs by source and model and measures their features. */
export function realGroups(runs: readonly RealRun[]): RealGroup[] {
  const groups = new Map<string, RealGroup>();
  for (const run of runs) {
    const key = `${run.source}\u0000${run.model}`;
    if (!groups.has(key)) groups.set(key, { source: run.source, model: run.model, runs: [], data: datasetOf([]) });
    groups.get(key)!.runs.push(run);
  }
  for (const group of groups.values()) {
    const models = group.runs.map((r) => buildRunModel(r.trace));
    const rows = models.reduce((n, m) => n + m.agents.length * m.rounds, 0);
    const stride = Math.max(1, Math.ceil(rows / GROUP_ROWS));
    // Infected agents are the rarest class: every run that has one is kept; the others are evenly spread and weigh the
    // stride, so the sample keeps the group's own balance of clean and attacked runs (the clean ones were under-counted).
    const kept = models.flatMap((m, i) => (m.labels?.some((row) => row.includes('infected')) ? [{ m, w: 1 }] : i % stride === 0 ? [{ m, w: stride }] : []));
    group.data = datasetOf(kept.map((k) => k.m), kept.map((k) => k.w));
  }
  return [...groups.values()];
}

/**
 * Fits on the simulator rows and the kept real groups: each source weighs `share` in total, split over its groups by their
 * sampled rows (so each model of a source counts about alike).
 */
export function fitMix(simulated: readonly Share[], groups: readonly RealGroup[], keep: (g: RealGroup) => boolean = () => true, iterations = ITERATIONS): DualHeadWeights {
  const kept = groups.filter(keep);
  const rowsOf = (source: string) => kept.filter((g) => g.source === source).reduce((n, g) => n + g.data.x.length, 0);
  const data = mix([...simulated, ...kept.map((g) => ({ data: g.data, share: g.data.x.length / rowsOf(g.source) }))]);
  const style = fitStyle(data);
  applyStyle(data, style);
  return { ...fit(data, undefined, iterations), style };
}

/**
 * A digest of what a fit reads, as built, before a fit: every row's features, labels, weight, in-neighbours and the
 * style probe's inputs, each source's share, and the loss settings. Equal digests, equal fits.
 */
export function trainingDigest(simulated: readonly Share[], groups: readonly RealGroup[]): string {
  const hash = createHash('sha256');
  const bytes = (a: Float64Array | Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  hash.update(JSON.stringify({ LOSS, ITERATIONS, LEARNING_RATE, STYLE_ITERATIONS, STYLE_L2 }));
  const add = (data: Dataset, share: number) => {
    hash.update(`${share}:${data.x.length};`);
    data.x.forEach((row, r) => {
      hash.update(bytes(row));
      hash.update(bytes(data.emb[r]));
      hash.update(bytes(data.embSum[r]));
      hash.update(`${data.embCount[r]};${data.neighbours[r].join(',')};${data.laterRound[r] ? 1 : 0};`);
    });
    hash.update(bytes(Float64Array.from([...data.yAtk, ...data.yInf, ...data.w])));
  };
  for (const s of simulated) add(s.data, s.share);
  for (const g of groups) add(g.data, 1);
  return `sha256-${hash.digest('base64')}`;
}

/** One held-out fold: what was left out of training and the guard's figures on it. */
export interface Fold {
  held: string;
  attacked: SliceFigures;
  /** The attacked debates with a single adversary (the shape of the debates measured outside this split). */
  oneAdversary: SliceFigures;
  clean: SliceFigures;
}

/** Leave-one-source-out, then leave-one-model-out inside each source with more than one model. */
export async function crossValidate(simulated: readonly Share[], groups: readonly RealGroup[], iterations = ITERATIONS): Promise<Fold[]> {
  const folds: { held: string; out: (g: RealGroup) => boolean }[] = REAL_SOURCES.filter((s) => groups.some((g) => g.source === s)).map((source) => ({ held: `source ${source}`, out: (g) => g.source === source }));
  for (const source of REAL_SOURCES) {
    const models = groups.filter((g) => g.source === source);
    if (models.length > 1) for (const m of models) folds.push({ held: `${source}, model ${m.model}`, out: (g) => g === m });
  }
  const results: Fold[] = [];
  for (const fold of folds) {
    const weights = fitMix(simulated, groups, (g) => !fold.out(g), iterations);
    const runs = groups.filter(fold.out).flatMap((g) => g.runs);
    const verdicts = await analyzeRuns(runs, weights);
    const where = (keep: (run: RealRun) => boolean) => sliceFigures(verdicts.filter((_, i) => keep(runs[i])));
    results.push({ held: fold.held, attacked: where((r) => r.attacked), oneAdversary: where((r) => r.adversaries === 1), clean: where((r) => !r.attacked) });
  }
  return results;
}

/** One line per fold for the console. */
export function describeFold(fold: Fold): string {
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(3));
  return `${fold.held.padEnd(44)} attacked runs ${String(fold.attacked.runs).padStart(4)}: atk F1 ${f(fold.attacked.atkF1.value)} inf F1 ${f(fold.attacked.infF1.value)} benign flagged ${f(fold.attacked.benignFlagged.value)} | clean runs ${String(fold.clean.runs).padStart(4)}: flagged ${f(fold.clean.benignFlagged.value)}`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const trainConfigs = episodeGrid('train', TRAIN_PER_CELL, TRAIN_SEED, [...ATTACK_FAMILIES, 'none']);
  const simulated = simulatedSources(trainConfigs);
  const [data, toolChats] = simulated.map((s) => s.data);
  console.log(`simulator rows: ${data.x.length} from ${trainConfigs.length} episodes (${data.yAtk.filter(Boolean).length} attacker, ${data.yInf.filter(Boolean).length} infected)`);
  console.log(`simulated tool-chat rows: ${toolChats.x.length} from ${TOOL_CHATS} runs (${toolChats.yAtk.filter(Boolean).length} attacker, ${toolChats.yInf.filter(Boolean).length} infected)`);
  const real = loadRealRuns();
  const groups = real ? realGroups(real) : [];
  if (!real) console.log('no ../shared/data/real: training on the simulator only');
  for (const g of groups) console.log(`real rows: ${g.data.x.length} from ${g.runs.length} ${g.source} runs of ${g.model}`);
  // Digested before any fit: a fit writes its style probe's scores into the rows it mixes.
  const digest = trainingDigest(simulated, groups);
  if (groups.length > 0 && !process.argv.includes('--no-folds')) for (const fold of await crossValidate(simulated, groups)) console.log(describeFold(fold));
  const weights = fitMix(simulated, groups);
  const realText = groups.length > 0 ? ` and the real development split (${groups.reduce((n, g) => n + g.runs.length, 0)} runs: ${[...new Set(groups.map((g) => g.source))].join(', ')}), each source weighted equally` : '';
  weights.trainingRows = digest;
  weights.trainedOn = `npm run train: ${trainConfigs.length} simulated episodes (train split, seeds ${TRAIN_SEED}-${TRAIN_SEED + trainConfigs.length - 1}), ${TOOL_CHATS} simulated tool-use chats${realText}; loss BCE(atk) + ${LOSS.a}*BCE(inf) + ${LOSS.b}*consistency, l2 ${LOSS.l2}`;
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
  const style = w.style ? `,\n  "style": ${head(w.style)}` : '';
  const rows = w.trainingRows ? `,\n  "trainingRows": ${JSON.stringify(w.trainingRows)}` : '';
  return `{\n  "version": ${w.version},\n  "trainedOn": ${JSON.stringify(w.trainedOn)},\n  "features": ${JSON.stringify(w.features)},\n  "attacker": ${head(w.attacker)},\n  "infected": ${head(w.infected)}${style}${rows}\n}\n`;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
