// Temporal features per agent per round, from the agents' outputs and the graph only (never labels, roles or prompts):
// the current output's cues and embedding, its residual against the previous round, its drift from the running mean,
// answer behaviour against the round-0 consensus (weighted against manipulative outputs), exposure to / copying from
// suspicious in-neighbours, and influence: how many out-neighbours took up this agent's answer after it sent it.
import { extractAnswer } from '../text/answer';
import { cueScores, findCues } from '../text/cues';
import { cosine, embedText, EMBED_DIM, normalize } from '../text/embed';
import { words } from '../text/tokens';
import type { RunModel } from './types';

/** Names of the feature vector's entries, in order (the weights file is keyed by them). */
export const FEATURE_NAMES = [
  'malNow',
  'injectionNow',
  'persuasionNow',
  'propagationNow',
  'malRound0',
  'malMean',
  'wrongRound0',
  'wrongNow',
  'switched',
  'turnedWrong',
  'turnedMalicious',
  'exposure',
  'exposureTurned',
  'adoptedNeighbourAnswer',
  'originatedMalice',
  'residual',
  'meanDrift',
  'copyFromSuspicious',
  'verbatimFromNeighbour',
  'reportedCues',
  'laterRound',
  'reportedUnrefuted',
  'switchedToNeighbour',
  'switchedToConsensus',
  'influence',
  'influenceWrong',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;
const F = Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, i])) as Record<FeatureName, number>;

/** Per-output measurements computed once and reused by every round's features. */
interface OutputFacts {
  mal: number;
  injection: number;
  persuasion: number;
  propagation: number;
  reported: number;
  /** The text says it rejects or refutes something (an agent reporting an attack, not making one). */
  refutes: boolean;
  answer: string | undefined;
  embedding: Float32Array;
  shingles: Set<number>;
}

/** Precomputed per-agent-per-round facts plus the round-0 consensus answer. */
export interface FeatureContext {
  model: RunModel;
  facts: OutputFacts[][];
  consensus: string | undefined;
}

const SHINGLE = 8;
const REFUTES = /\b(?:injection|manipulat\w*|suspicious|malicious|(?:is|looks|seems|appears) (?:wrong|incorrect|false)|(?:will not|won't|do not|don't|refuse to) follow|reject|decline|ignore (?:that|this|their|its) (?:instruction|request|message))/i;
const MALICE_ON = 0.5;

/** Measures every output once (cues, answer, embedding, shingles); silent rounds carry the previous output. */
export function prepareFeatures(model: RunModel, answerPatterns: readonly RegExp[]): FeatureContext {
  const empty = factsOf('', answerPatterns);
  const facts = model.outputs.map((row) => {
    const result: OutputFacts[] = [];
    for (let k = 0; k < model.rounds; k++) {
      result.push(row[k] === undefined ? (k > 0 ? result[k - 1] : empty) : factsOf(row[k]!, answerPatterns));
    }
    return result;
  });
  // Round-0 answers vote with weight (1 - malice): a coordinated group of manipulative senders cannot set the consensus.
  return { model, facts, consensus: plurality(facts.map((row) => row[0]?.answer), facts.map((row) => 1 - 0.95 * (row[0]?.mal ?? 0))) };
}

/** The feature vector of agent i in round k. */
export function featureVector(context: FeatureContext, i: number, k: number): Float64Array {
  const { model, facts, consensus } = context;
  const f = new Float64Array(FEATURE_COUNT);
  const now = facts[i][k];
  const first = facts[i][0];
  const wrong = (a: string | undefined) => (a === undefined || consensus === undefined ? 0.5 : a === consensus ? 0 : 1);

  f[F.malNow] = now.mal;
  f[F.injectionNow] = now.injection;
  f[F.persuasionNow] = now.persuasion;
  f[F.propagationNow] = now.propagation;
  f[F.malRound0] = first.mal;
  let malSum = 0;
  for (let r = 0; r <= k; r++) malSum += facts[i][r].mal;
  f[F.malMean] = malSum / (k + 1);
  f[F.wrongRound0] = wrong(first.answer);
  f[F.wrongNow] = wrong(now.answer);
  f[F.switched] = now.answer !== undefined && first.answer !== undefined && now.answer !== first.answer ? 1 : 0;
  f[F.turnedWrong] = (1 - f[F.wrongRound0]) * f[F.wrongNow];
  f[F.turnedMalicious] = Math.max(0, now.mal - first.mal);
  f[F.reportedCues] = now.reported;
  f[F.laterRound] = k > 0 ? 1 : 0;
  f[F.reportedUnrefuted] = now.refutes ? 0 : now.reported;
  f[F.switchedToConsensus] = f[F.switched] * (1 - f[F.wrongNow]);
  const influence = influenceOf(context, i, k);
  f[F.influence] = influence;
  f[F.influenceWrong] = influence * f[F.wrongNow];

  if (k > 0) {
    const previous = facts[i][k - 1];
    f[F.residual] = 1 - cosine(now.embedding, previous.embedding);
    f[F.meanDrift] = 1 - cosine(now.embedding, meanEmbedding(facts[i], k));
    let exposure = 0;
    let adopted = 0;
    let copy = 0;
    let verbatim = 0;
    for (const j of model.inNeighbors[i]) {
      const sent = facts[j][k - 1];
      exposure = Math.max(exposure, sent.mal);
      if (now.answer !== undefined && sent.answer === now.answer && wrong(sent.answer) === 1) adopted = 1;
      if (f[F.switched] === 1 && sent.answer === now.answer) f[F.switchedToNeighbour] = 1;
      copy = Math.max(copy, sent.mal * Math.max(0, cosine(now.embedding, sent.embedding)));
      verbatim = Math.max(verbatim, overlap(now.shingles, sent.shingles));
    }
    f[F.exposure] = exposure;
    f[F.exposureTurned] = exposure * Math.max(f[F.turnedWrong], f[F.turnedMalicious]);
    f[F.adoptedNeighbourAnswer] = adopted * (1 - f[F.wrongRound0]);
    f[F.copyFromSuspicious] = copy;
    f[F.verbatimFromNeighbour] = verbatim;
  }
  f[F.originatedMalice] = originated(context, i, k);
  return f;
}

/** Fraction of i's out-neighbours that switched to i's answer the round after i sent it (up to round k). */
function influenceOf(context: FeatureContext, i: number, k: number): number {
  const outs = context.model.outNeighbors[i];
  if (k === 0 || outs.length === 0) return 0;
  let taken = 0;
  for (const j of outs) {
    for (let r = 1; r <= k; r++) {
      const mine = context.facts[i][r - 1].answer;
      if (mine !== undefined && context.facts[j][r].answer === mine && context.facts[j][r - 1].answer !== mine) {
        taken++;
        break;
      }
    }
  }
  return taken / outs.length;
}

/** 1 when agent i turned malicious (by round k) no later than any of its in-neighbours did; else 0. */
function originated(context: FeatureContext, i: number, k: number): number {
  const firstMalicious = (agent: number, upTo: number) => {
    for (let r = 0; r <= upTo; r++) if (context.facts[agent][r].mal >= MALICE_ON) return r;
    return Infinity;
  };
  const own = firstMalicious(i, k);
  if (own === Infinity) return 0;
  for (const j of context.model.inNeighbors[i]) if (firstMalicious(j, k) < own) return 0;
  return 1;
}

function factsOf(text: string, answerPatterns: readonly RegExp[]): OutputFacts {
  const hits = findCues(text);
  const scores = cueScores(text, hits);
  const reportedWeight = hits.filter((h) => h.reported).reduce((sum, h) => sum + h.weight, 0);
  const tokens = words(text);
  const shingles = new Set<number>();
  for (let s = 0; s + SHINGLE <= tokens.length; s++) shingles.add(shingleHash(tokens, s));
  return {
    mal: 1 - (1 - scores.injection) * (1 - scores.persuasion) * (1 - scores.propagation),
    injection: scores.injection,
    persuasion: scores.persuasion,
    propagation: scores.propagation,
    reported: 1 - Math.exp(-reportedWeight),
    refutes: REFUTES.test(text),
    answer: extractAnswer(text, answerPatterns),
    embedding: embedText(text),
    shingles,
  };
}

function shingleHash(tokens: string[], start: number): number {
  let h = 0x811c9dc5;
  for (let t = start; t < start + SHINGLE; t++) {
    const word = tokens[t];
    for (let c = 0; c < word.length; c++) h = Math.imul(h ^ word.charCodeAt(c), 0x01000193);
    h = Math.imul(h ^ 32, 0x01000193);
  }
  return h >>> 0;
}

function overlap(own: Set<number>, other: Set<number>): number {
  if (own.size === 0 || other.size === 0) return 0;
  let shared = 0;
  for (const h of own) if (other.has(h)) shared++;
  return shared / own.size;
}

function meanEmbedding(row: OutputFacts[], k: number): Float32Array {
  const mean = new Float32Array(EMBED_DIM);
  for (let r = 0; r < k; r++) for (let d = 0; d < EMBED_DIM; d++) mean[d] += row[r].embedding[d];
  return normalize(mean);
}

function plurality(answers: (string | undefined)[], weights: number[]): string | undefined {
  const counts = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + weights[i]);
  });
  let best: string | undefined;
  let bestCount = 0;
  for (const [answer, count] of counts) if (count > bestCount) [best, bestCount] = [answer, count];
  return best;
}
