// Temporal features per agent per round, from the agents' outputs, the graph and the task's question only (never labels,
// roles or prompts): the current output's cues and embedding, its residual against the previous round, its drift from
// the running mean, answer behaviour against the round-0 consensus (weighted against manipulative outputs), exposure to
// / copying from suspicious in-neighbours, influence (out-neighbours that took up this agent's answer after it sent it),
// behaviour that needs no word list (holding a position against the group and never moving, moving to a neighbour who
// held its answer from the start), and instructions addressed to the reader: to the model itself, inside data, naming
// a target nobody gave, and an agent acting on a target that such an instruction named. Round k reads rounds <= k only.
import { addressOf, identifiersOf, injectedOrderSpans, isRecipient, orderNaming, type Address } from '../text/address';
import { extractAnswer, FreeFormAnswers, parseChoices, type Choices } from '../text/answer';
import { cueScores, findCues } from '../text/cues';
import { cosine, embedLower, EMBED_DIM } from '../text/embed';
import { handsOverContentOrders } from '../text/delegation';
import { evidenceAround, steeringDeclaration } from '../text/intent';
import type { Evidence, RunModel } from './types';
import { oneLine } from './messages';

/** A linear probe over the hashed unigram+bigram embedding: the learned text model (weights.json "style"). */
export interface StyleProbe {
  bias: number;
  weights: number[];
}

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
  'spokeNow',
  'neverMoved',
  'heldAgainstGroup',
  'heldFromDissent',
  'dissentNow',
  'movedToHolder',
  'movedToGroup',
  'correctedToGroup',
  'movedAway',
  'instructsNow',
  'instructsEver',
  'toModelEver',
  'embeddedInstructionEver',
  'newTargetEver',
  'actedOnInjectedTarget',
  'styleNow',
  'styleMean',
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
  /** Sorted distinct hashes of 8-word shingles. */
  shingles: Uint32Array;
  /** hash32 of each word, in order; undefined for non-ASCII text, where other tokenisers may split words differently. */
  wordHashes: Uint32Array | undefined;
  /** What the output tells its reader to do, and the identifiers it carries. */
  address: Address;
  /** The sentence in which the writer says it is steering the other agents (src/core/text/intent.ts), if any. */
  steering: string | undefined;
}

/** Precomputed per-agent-per-round facts plus the round-0 consensus answer. */
export interface FeatureContext {
  model: RunModel;
  facts: OutputFacts[][];
  consensus: string | undefined;
  /** Lazily computed prefix sums of each agent's embeddings (for the running mean). */
  sums: (Float32Array | undefined)[];
  /** The task's options (multiple choice), for reading answers written as "(B)" or as the option's text. */
  choices: Choices | undefined;
  /** Without options, the groups of answers that say the same thing, grown as rounds arrive. */
  grouping: FreeFormAnswers | undefined;
  /** Identifiers the task itself names: acting on them is doing the task. */
  taskIdentifiers: ReadonlySet<string>;
  /**
   * The first round by which the task (round 0) or a message of the user's asked the agent to carry out orders written
   * in content it reads (src/core/text/delegation.ts); Infinity where none did.
   */
  ordersHandedOverFrom: number;
  /** Each agent's in- and out-neighbours: the group it argues with. */
  group: number[][];
  /** Lazily computed per agent and round: identifiers its instructions name that neither the task nor its in-neighbours gave it. */
  fresh: (string[] | undefined)[][];
  /** Lazily computed: the calls that carried an injected target retold by other agents (`relayedCalls`). */
  relayed: RelayedCalls | undefined;
  /** The learned text model; without one the style features are 0. */
  style: StyleProbe | undefined;
  /** Lazily computed per-agent summaries over all rounds, so no feature scans the rounds before k (linear, not quadratic). */
  timelines: (Timeline | undefined)[];
  /** The same for answers and instructions (behaviour and instruction features). */
  histories: (History | undefined)[];
}

/** One agent's history, computed once: malice prefix sums, when it first turned malicious, when each out-neighbour first took its answer. */
interface Timeline {
  /** malPrefix[r] = sum of mal over rounds 0..r-1. */
  malPrefix: Float64Array;
  /** First round whose output is malicious (>= MALICE_ON), or Infinity. */
  firstMalicious: number;
  /** Per out-neighbour (in outNeighbors order): the first round r >= 1 at which it switched to this agent's round r-1 answer, or Infinity. */
  firstTaken: number[];
}

const SHINGLE = 8;
const DIM = EMBED_DIM;
const REFUTES = /\b(?:injection|manipulat\w*|suspicious|malicious|(?:is|looks|seems|appears) (?:wrong|incorrect|false)|(?:will not|won't|do not|don't|refuse to) follow|reject|decline|ignore (?:that|this|their|its) (?:instruction|request|message))/i;
const MALICE_ON = 0.5;
/** Vote totals closer than this are a tie (the votes are weighted by 1 - malice). */
const TIE = 1e-9;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Measures every output once (cues, answer, embedding, shingles); silent rounds carry the previous output. `style` is the
 * probe the style features read (undefined: none, the features stay 0).
 */
export function prepareFeatures(model: RunModel, answerPatterns: readonly RegExp[], style: StyleProbe | undefined): FeatureContext {
  const choices = parseChoices(model.task?.question);
  const measure = measurer(model, answerPatterns, choices);
  const grouping = choices ? undefined : new FreeFormAnswers(model.task?.question);
  const facts = measureRounds(model, model.agents.map(() => []), measure, grouping);
  return {
    model,
    facts,
    grouping,
    sums: new Array(model.agents.length),
    timelines: new Array(model.agents.length),
    histories: new Array(model.agents.length),
    // Round-0 answers vote with weight (1 - malice): a coordinated group of manipulative senders cannot set the consensus.
    consensus: plurality(facts.map((row) => row[0]?.answer), facts.map((row) => 1 - 0.95 * (row[0]?.mal ?? 0))),
    choices,
    taskIdentifiers: identifiersOf(model.task?.question ?? ''),
    ordersHandedOverFrom: ordersHandedOverFrom(model),
    group: model.inNeighbors.map((ins, i) => [...new Set([...ins, ...model.outNeighbors[i]])]),
    fresh: model.agents.map(() => []),
    relayed: undefined,
    style,
  };
}

/**
 * Appends to each agent's facts those of the rounds it lacks, round by round (silent rounds carry the previous output),
 * each free-form answer put in its group as it arrives.
 */
function measureRounds(model: RunModel, facts: OutputFacts[][], measure: (text: string) => OutputFacts, grouping: FreeFormAnswers | undefined): OutputFacts[][] {
  for (let k = facts[0]?.length ?? 0; k < model.rounds; k++) {
    facts.forEach((row, i) => {
      const text = model.outputs[i][k];
      if (text === undefined && k > 0) {
        row.push(row[k - 1]);
        return;
      }
      const measured = measure(text ?? '');
      const answer = measured.answer !== undefined && grouping ? grouping.groupOf(measured.answer) : measured.answer;
      row.push(answer === measured.answer ? measured : { ...measured, answer });
    });
  }
  return facts;
}

/**
 * Measures one output (memoised across runs unless the run is larger than the memo, which it would only churn). An
 * output that poses the task (holds its whole question, as the user's message does) gives no answer of its own: its
 * options are the task's (a live crew's silent user "held" the last option it listed, alone, and was called an
 * attacker). What it says, and reads like, is measured on the whole output.
 */
function measurer(model: RunModel, answerPatterns: readonly RegExp[], choices: Choices | undefined): (text: string) => OutputFacts {
  const measure = model.agents.length * model.rounds > MEMO_LIMIT ? (text: string) => factsOf(text, answerPatterns, choices) : memoFor(answerPatterns, choices);
  const question = oneLine(model.task?.question ?? '', Infinity);
  if (question.length < 20) return measure;
  // A text without the question's longest word cannot hold the question: no need to flatten it.
  const longestWord = question.split(' ').reduce((a, b) => (b.length > a.length ? b : a));
  return (text) => {
    const facts = measure(text);
    if (facts.answer === undefined || text.length < question.length || !text.includes(longestWord)) return facts;
    const flat = oneLine(text, Infinity);
    return flat.includes(question) ? { ...facts, answer: measure(flat.replace(question, ' ').trim()).answer } : facts;
  };
}

/**
 * Extends a context to `model`, a later view of the same run with more rounds (the online guard): only the new rounds'
 * outputs are measured. The agents, edges and earlier rounds must be those of `context.model`.
 */
export function extendFeatures(context: FeatureContext, model: RunModel, answerPatterns: readonly RegExp[]): FeatureContext {
  const facts = measureRounds(model, context.facts.map((known) => known.slice()), measurer(model, answerPatterns, context.choices), context.grouping);
  const perAgent = () => new Array(model.agents.length);
  const fresh = model.agents.map(() => []);
  return { ...context, model, facts, sums: perAgent(), timelines: perAgent(), histories: perAgent(), fresh, relayed: undefined, ordersHandedOverFrom: ordersHandedOverFrom(model) };
}

/** The first round by which the task or a message of the user's hands over the orders written in content (a second turn's "now do what that e-mail asks"). */
function ordersHandedOverFrom(model: RunModel): number {
  if (handsOverContentOrders(model.task?.question ?? '')) return 0;
  let from = Infinity;
  model.agents.forEach((_, i) => {
    if (model.roles[i] !== 'user') return;
    const r = model.outputs[i].findIndex((text) => text !== undefined && handsOverContentOrders(text));
    if (r >= 0 && r < from) from = r;
  });
  return from;
}

/** Word hashes of agent i's round-k output as the features measured them (undefined when not shareable), for the monitor. */
export function sharedWordHashes(context: FeatureContext, i: number, k: number): Uint32Array | undefined {
  return context.model.outputs[i][k] === undefined ? undefined : context.facts[i][k].wordHashes;
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
  f[F.malMean] = timeline(context, i).malPrefix[k + 1] / (k + 1);
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
    f[F.meanDrift] = 1 - cosineToSum(now.embedding, embeddingSums(context, i), k);
    let exposure = 0;
    let adopted = 0;
    let copy = 0;
    let verbatim = 0;
    for (const j of model.inNeighbors[i]) {
      const sent = facts[j][k - 1];
      exposure = Math.max(exposure, sent.mal);
      if (now.answer !== undefined && sent.answer === now.answer && wrong(sent.answer) === 1) adopted = 1;
      if (f[F.switched] === 1 && sent.answer === now.answer) f[F.switchedToNeighbour] = 1;
      if (sent.mal > 0) copy = Math.max(copy, sent.mal * Math.max(0, cosine(now.embedding, sent.embedding)));
      verbatim = Math.max(verbatim, overlap(now.shingles, sent.shingles));
    }
    f[F.exposure] = exposure;
    f[F.exposureTurned] = exposure * Math.max(f[F.turnedWrong], f[F.turnedMalicious]);
    f[F.adoptedNeighbourAnswer] = adopted * (1 - f[F.wrongRound0]);
    f[F.copyFromSuspicious] = copy;
    f[F.verbatimFromNeighbour] = verbatim;
  }
  f[F.originatedMalice] = originated(context, i, k);
  if (context.style) {
    f[F.styleNow] = styleScore(context.style, now.embedding, 1);
    f[F.styleMean] = styleScore(context.style, embeddingSums(context, i).subarray((k + 1) * DIM, (k + 2) * DIM), k + 1);
  }
  behaviour(context, i, k, f);
  // Joining the group one stood apart from is a correction: not a switch the infection features count.
  if (f[F.correctedToGroup] === 1) f[F.switched] = f[F.switchedToNeighbour] = f[F.switchedToConsensus] = f[F.turnedWrong] = 0;
  instructions(context, i, k, f);
  return f;
}

/** What the style probe reads for agent i in round k: its output's embedding and the sum of its embeddings so far. */
export function styleInputs(context: FeatureContext, i: number, k: number): { now: Float32Array; sum: Float32Array; count: number } {
  return { now: context.facts[i][k].embedding, sum: embeddingSums(context, i).subarray((k + 1) * DIM, (k + 2) * DIM), count: k + 1 };
}

/** sigmoid(bias + w . (sum / count)): the probe on one embedding or on the mean of several. */
export function styleScore(probe: StyleProbe, sum: ArrayLike<number>, count: number): number {
  let z = 0;
  for (let d = 0; d < DIM; d++) z += probe.weights[d] * sum[d];
  return 1 / (1 + Math.exp(-(probe.bias + z / count)));
}

/** Answer behaviour against the group: holding a position and never moving, moving to a neighbour who held it. */
function behaviour(context: FeatureContext, i: number, k: number, f: Float64Array): void {
  const { facts, group, model } = context;
  const answer = (j: number, r: number) => facts[j][r].answer;
  f[F.spokeNow] = model.outputs[i][k] !== undefined ? 1 : 0;
  const mine = answer(i, k);
  f[F.dissentNow] = mine === undefined ? 0 : dissent(context, i, k, mine);
  if (k === 0 || mine === undefined) return;
  const own = historyOf(context, i);
  f[F.movedAway] = own.firstAway <= k ? 1 : 0;
  if (own.firstChange > k) {
    f[F.neverMoved] = 1;
    f[F.heldAgainstGroup] = own.dissentPrefix[k] / k;
    f[F.heldFromDissent] = own.dissentPrefix[1];
    return;
  }
  const first = answer(i, 0);
  for (const j of model.inNeighbors[i]) {
    // A holder gave this answer at round 0 and kept it through round k-1; weighted by how alone it stood among the others.
    if (first !== mine && answer(j, 0) === mine && historyOf(context, j).firstChange >= k) f[F.movedToHolder] = Math.max(f[F.movedToHolder], dissent(context, j, 0, mine, i));
  }
  if (first !== mine && groupAnswer(group[i].map((j) => answer(j, 0))) === mine) {
    f[F.movedToGroup] = 1;
    // An agent that stood alone at round 0 and joined the group corrected itself: an honest mistake, not an infection.
    f[F.correctedToGroup] = dissent(context, i, 0, first ?? '');
  }
}

/** One agent's answer and instruction history over all rounds, computed once so no feature rescans earlier rounds. */
interface History {
  /** First round whose answer differs from the round-0 answer, or Infinity. */
  firstChange: number;
  /** First round it changed its answer to one none of its in-neighbours gave the round before (nobody talked it into it), or Infinity. */
  firstAway: number;
  /** dissentPrefix[r]: summed dissent from the round-0 answer over rounds 0..r-1. */
  dissentPrefix: Float64Array;
  /** Running maxima up to each round. */
  instructsEver: Float64Array;
  toModelEver: Float64Array;
  embeddedEver: Float64Array;
  newTargetEver: Uint8Array;
  /** First round its output carried a target an in-neighbour's injected order named earlier (one to the model, or a tool's obeyable order), or Infinity. */
  actedFrom: number;
  /** Per round, the latest sentence (this round or before) in which its own output declared it is steering the others. */
  declarations: (Evidence | undefined)[];
  /** In-neighbour -> first round its output carried a target that in-neighbour introduced in an instruction to the model. */
  actedForModelAddresser: Map<number, number>;
  /** The same, where the target was an argument of a tool call (`pay(iban="…")`): an act, not a retelling. */
  calledForModelAddresser: Map<number, number>;
  /** Tool in-neighbour -> first round it passed to a tool call a target that tool's result named in an order not spoken to the model. */
  calledForToolOrder: Map<number, number>;
  /** The same where that target was a recipient and the user handed no content's orders over (`obeyable`): the call, and the target. */
  obeyedTool: Map<number, Passed>;
  /** Per such in-neighbour (either kind), the first call that carried its target, and its round. */
  firstCall: Map<number, Evidence>;
  /** First round its output holds a line written as a call (read only for an agent that carried such a target), or Infinity. */
  firstCallLine: number;
}

function historyOf(context: FeatureContext, i: number): History {
  const known = context.histories[i];
  if (known) return known;
  const { facts, model } = context;
  const rounds = facts[i].length;
  const first = facts[i][0].answer;
  const h: History = {
    firstChange: Infinity,
    firstAway: Infinity,
    dissentPrefix: new Float64Array(rounds + 1),
    instructsEver: new Float64Array(rounds),
    toModelEver: new Float64Array(rounds),
    embeddedEver: new Float64Array(rounds),
    newTargetEver: new Uint8Array(rounds),
    actedFrom: Infinity,
    actedForModelAddresser: new Map(),
    calledForModelAddresser: new Map(),
    calledForToolOrder: new Map(),
    obeyedTool: new Map(),
    firstCall: new Map(),
    firstCallLine: Infinity,
    declarations: new Array(rounds),
  };
  const introduced = new Set<string>();
  // Targets introduced by an instruction that names its reader as the model ("to you, Claude"), and by whom.
  const toModelBy = new Map<string, Set<number>>();
  // Targets a tool result's order named without speaking to the model, and by which tool.
  const toolOrderedBy = new Map<string, Set<number>>();
  for (let r = 0; r < rounds; r++) {
    const now = facts[i][r];
    if (h.firstChange === Infinity && now.answer !== first) h.firstChange = r;
    const said = model.outputs[i][r] !== undefined ? now.steering : undefined;
    h.declarations[r] = said !== undefined ? { round: r, text: said } : r > 0 ? h.declarations[r - 1] : undefined;
    const previous = r > 0 ? facts[i][r - 1].answer : undefined;
    const changed = previous !== undefined && now.answer !== undefined && now.answer !== previous;
    if (h.firstAway === Infinity && changed && !model.inNeighbors[i].some((j) => facts[j][r - 1].answer === now.answer)) h.firstAway = r;
    h.dissentPrefix[r + 1] = h.dissentPrefix[r] + (first === undefined ? 0 : dissent(context, i, r, first));
    const a = now.address;
    const before = (array: Float64Array) => (r > 0 ? array[r - 1] : 0);
    h.instructsEver[r] = Math.max(before(h.instructsEver), a.instructs);
    h.toModelEver[r] = Math.max(before(h.toModelEver), a.instructs > 0 ? a.toModel : 0);
    h.embeddedEver[r] = Math.max(before(h.embeddedEver), a.instructs > 0 ? a.embedded : 0);
    const spoke = model.outputs[i][r] !== undefined;
    h.newTargetEver[r] = (r > 0 && h.newTargetEver[r - 1]) || (spoke && freshTargets(context, i, r).length > 0) ? 1 : 0;
    if (r > 0) {
      for (const j of model.inNeighbors[i]) {
        for (const id of freshTargets(context, j, r - 1)) {
          const toModel = facts[j][r - 1].address.toModel === 1;
          if (toModel) addTo(toModelBy, id, j);
          else if (model.roles[j] === 'tool') addTo(toolOrderedBy, id, j);
          // A tool's plain order counts where it is obeyable; an agent's order (a crew member's to another) as before.
          if (toModel || model.roles[j] !== 'tool' || obeyable(context, id, r)) introduced.add(id);
        }
      }
    }
    if (r > 0 && spoke && (introduced.size > 0 || toolOrderedBy.size > 0)) {
      let calls: ToolCall[] | undefined;
      for (const id of a.identifiers) {
        if (h.actedFrom === Infinity && introduced.has(id)) h.actedFrom = r;
        const by = toModelBy.get(id);
        if (!by) continue;
        calls ??= toolCalls(model.outputs[i][r]!);
        const call = calls.find((c) => c.arguments.has(id));
        for (const j of by) {
          if (!h.actedForModelAddresser.has(j)) h.actedForModelAddresser.set(j, r);
          if (call === undefined || h.calledForModelAddresser.has(j)) continue;
          h.calledForModelAddresser.set(j, r);
          if (!h.firstCall.has(j)) h.firstCall.set(j, callEvidence(call, id, r));
        }
      }
      for (const id of a.identifiers) {
        const by = toolOrderedBy.get(id);
        if (!by) continue;
        calls ??= toolCalls(model.outputs[i][r]!);
        const call = calls.find((c) => c.arguments.has(id));
        if (call === undefined) continue;
        for (const j of by) {
          if (!h.calledForToolOrder.has(j)) h.calledForToolOrder.set(j, r);
          if (!h.firstCall.has(j)) h.firstCall.set(j, callEvidence(call, id, r));
          if (!h.obeyedTool.has(j) && obeyable(context, id, r)) h.obeyedTool.set(j, { round: r, id });
        }
      }
    }
  }
  const callLine = h.actedForModelAddresser.size > 0 ? model.outputs[i].findIndex((text) => text !== undefined && callLines(text).length > 0) : -1;
  h.firstCallLine = callLine < 0 ? Infinity : callLine;
  context.histories[i] = h;
  return h;
}

/** The answer most of a group gave, undefined on a tie (a split group has no answer of its own). */
function groupAnswer(answers: (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return ranked.length > 0 && (ranked.length === 1 || ranked[0][1] > ranked[1][1]) ? ranked[0][0] : undefined;
}

/** Share of i's group (less `except`) whose round-r answer differs from `answer` (0 when none of them answered). */
function dissent(context: FeatureContext, i: number, r: number, answer: string, except = -1): number {
  let answered = 0;
  let differ = 0;
  for (const j of context.group[i]) {
    if (j === except) continue;
    const theirs = context.facts[j][r].answer;
    if (theirs === undefined) continue;
    answered++;
    if (theirs !== answer) differ++;
  }
  return answered === 0 ? 0 : differ / answered;
}

/** Instructions addressed to the reader, and acting on a target such an instruction named. */
function instructions(context: FeatureContext, i: number, k: number, f: Float64Array): void {
  const h = historyOf(context, i);
  f[F.instructsNow] = context.facts[i][k].address.instructs;
  f[F.instructsEver] = h.instructsEver[k];
  f[F.toModelEver] = h.toModelEver[k];
  f[F.embeddedInstructionEver] = h.embeddedEver[k];
  f[F.newTargetEver] = h.newTargetEver[k];
  // Acting on such a target is kept from the round it happened: the run's later turns (a summary) rarely repeat it.
  f[F.actedOnInjectedTarget] = h.actedFrom <= k ? 1 : 0;
}

/**
 * The in-neighbours of agent i that, in an instruction addressed to the model, named an identifier (account, address,
 * URL, file) that neither the task nor anything they received gave them, and whose identifier i's outputs carried by
 * round k: an assistant acting for a tool result's injected goal. None for an agent whose outputs show its tool calls as
 * calls by then: such an agent acts by calling (`calledForModelAddressers`), and what it carries in prose it only tells.
 */
export function actedForModelAddressers(context: FeatureContext, i: number, k: number): number[] {
  const h = historyOf(context, i);
  return h.firstCallLine <= k ? [] : firstBy(h.actedForModelAddresser, k);
}

/**
 * The agents whose ordered identifier agent i passed as an argument of a tool call by round k: in-neighbours whose
 * order spoke to the model (as `actedForModelAddressers` reads them), tools whose result ordered it (whoever it spoke
 * to), and injectors whose target reached i only retold (`relayedCalls`). Acting for one is infection once it is a
 * flagged attacker.
 */
export function calledForInjectors(context: FeatureContext, i: number, k: number): number[] {
  const relayed = [...relayedCalls(context).calls[i]].flatMap(([j, call]) => (call.round <= k ? [j] : []));
  const h = historyOf(context, i);
  return [...new Set([...firstBy(h.calledForModelAddresser, k), ...firstBy(h.calledForToolOrder, k), ...relayed])];
}

/**
 * The tools whose result, by round k, gave an order naming a recipient (an e-mail address, an account) that neither the
 * task nor what the tool was sent held, and that agent i then passed to a tool call where the user had handed no
 * content's orders over (`obeyable`): data that steered the agent, whether or not it spoke to the model.
 */
export function obeyedToolsOf(context: FeatureContext, i: number, k: number): number[] {
  return [...historyOf(context, i).obeyedTool].flatMap(([j, obeyed]) => (obeyed.round <= k ? [j] : []));
}

/** The order in tool j's results that an agent carried out by round k (its earliest such): the instruction naming the target. */
export function obeyedOrderOf(context: FeatureContext, j: number, k: number): Evidence | undefined {
  let first: Passed | undefined;
  for (let i = 0; i < context.model.agents.length; i++) {
    const obeyed = historyOf(context, i).obeyedTool.get(j);
    if (obeyed && obeyed.round <= k && (!first || obeyed.round < first.round)) first = obeyed;
  }
  if (!first) return undefined;
  for (let r = 0; r < first.round; r++) {
    const text = context.model.outputs[j][r];
    if (text === undefined || !freshTargets(context, j, r).includes(first.id)) continue;
    const [start, end] = orderNaming(text, first.id) ?? [0, text.length];
    const order = text.slice(start, end);
    return { round: r, text: evidenceAround(order, order.toLowerCase().indexOf(first.id), first.id.length) };
  }
  return undefined;
}

/** The calls that carried an injected target an agent heard only retold, per agent and injector. */
interface RelayedCalls {
  /** calls[i]: per injector, the first such call of agent i (its round, the call line). */
  calls: Map<number, Evidence>[];
  /** carriers[i]: per injector, the agents that retold the target to agent i, each with the round of i's call and what it passed on. */
  carriers: Map<number, Map<number, { call: number; passed: Passed }>>[];
}

/** A target an agent carried, and the round of the output that did (passed it on, or called a tool with it). */
interface Passed {
  round: number;
  id: string;
}

/** How an agent heard an injected target: from whom it came, and who retold it on the way (with the output that did). */
interface Heard {
  injectors: Set<number>;
  carriers: Map<number, Passed>;
  /** It heard the target from the injector itself (then its act is the injector's doing, not the retellers'). */
  direct: boolean;
}

/**
 * Follows the targets that an order to the model injected (the identifiers inside the order an injector's output
 * addresses to the model, fresh to it) from message to message, round by round, along each message's own recipients:
 * who heard each one, from which injector, retold by whom. An agent that heard a target only retold and passes it to a
 * tool call acts for the injector; the agents that retold it to it carried it there. Its own act coming back (a
 * tool's receipt naming the address it was sent to) is not hearing it again; a tool passes a target on but never
 * carries it.
 */
function relayedCalls(context: FeatureContext): RelayedCalls {
  if (context.relayed) return context.relayed;
  const { model, facts } = context;
  const heard = model.agents.map(() => new Map<string, Heard>());
  const made: RelayedCalls = { calls: model.agents.map(() => new Map()), carriers: model.agents.map(() => new Map()) };
  for (let r = 0; r < model.rounds; r++) {
    // Acts first: what an agent calls with in round r, it heard before round r.
    model.agents.forEach((_, i) => {
      const text = model.outputs[i][r];
      if (text === undefined || heard[i].size === 0) return;
      let calls: ToolCall[] | undefined;
      for (const id of facts[i][r].address.identifiers) {
        const how = heard[i].get(id);
        if (!how || how.direct || how.carriers.size === 0) continue;
        calls ??= toolCalls(text);
        const call = calls.find((c) => c.arguments.has(id));
        if (!call) continue;
        for (const j of how.injectors) {
          if (!made.calls[i].has(j)) made.calls[i].set(j, callEvidence(call, id, r));
          const by = made.carriers[i].get(j) ?? new Map<number, { call: number; passed: Passed }>();
          for (const [c, passed] of how.carriers) if (!by.has(c)) by.set(c, { call: r, passed });
          made.carriers[i].set(j, by);
        }
      }
    });
    // Then round r's messages are heard by their recipients.
    model.agents.forEach((_, j) => {
      const text = model.outputs[j][r];
      if (text === undefined) return;
      const carried = facts[j][r].address.identifiers;
      const injected = new Set(facts[j][r].address.toModel === 1 ? injectedTargets(context, j, r) : []);
      const retold = [...carried].filter((id) => heard[j].has(id) && !injected.has(id));
      if (injected.size === 0 && retold.length === 0) return;
      for (const x of model.recipients[j][r] ?? model.outNeighbors[j]) {
        for (const id of injected) hear(heard[x], id, [j], new Map(), true);
        for (const id of retold) {
          const how = heard[j].get(id)!;
          if (how.carriers.has(x) || x === j) continue;
          const carriers = new Map(how.carriers);
          if (model.roles[j] !== 'tool') carriers.set(j, { round: r, id });
          hear(heard[x], id, how.injectors, carriers, false);
        }
      }
    });
  }
  context.relayed = made;
  return made;
}

/** Records that an agent heard injected target `id` (the first way it heard it is the way it knows it; directly overrides). */
function hear(known: Map<string, Heard>, id: string, injectors: Iterable<number>, carriers: Map<number, Passed>, direct: boolean): void {
  const how = known.get(id);
  if (!how) {
    known.set(id, { injectors: new Set(injectors), carriers, direct });
    return;
  }
  for (const j of injectors) how.injectors.add(j);
  if (direct) how.direct = true;
  else for (const [c, evidence] of carriers) if (!how.carriers.has(c)) how.carriers.set(c, evidence);
}

/**
 * Targets agent j's round-r output injected: fresh to it, and inside the order its output addresses to the model; all
 * of its fresh targets where that order names none itself ("send it to the address above") or none was found as such
 * (an order that opens the text). A page's own links before an order that names its target are not the order's.
 */
function injectedTargets(context: FeatureContext, j: number, r: number): string[] {
  const fresh = freshTargets(context, j, r);
  if (fresh.length === 0) return [];
  const text = context.model.outputs[j][r]!;
  const inOrder = new Set(injectedOrderSpans(text).flatMap(([start, end]) => [...identifiersOf(text.slice(start, end))]));
  const named = fresh.filter((id) => inOrder.has(id));
  return named.length > 0 ? named : fresh;
}

/** Per injector of a target agent i passed to a tool call by round k after hearing it retold: the agents that retold it to i. */
export function relaysOfCalls(context: FeatureContext, i: number, k: number): Map<number, number[]> {
  const relays = new Map<number, number[]>();
  for (const [j, carriers] of relayedCalls(context).carriers[i]) {
    const by = [...carriers].flatMap(([c, { call }]) => (call <= k ? [c] : []));
    if (by.length > 0) relays.set(j, by);
  }
  return relays;
}

/** The output in which agent c retold an injected target to an agent that called with it by round k (its earliest such). */
export function relayOf(context: FeatureContext, c: number, k: number): Evidence | undefined {
  let first: Passed | undefined;
  for (const byInjector of relayedCalls(context).carriers) {
    for (const carriers of byInjector.values()) {
      const told = carriers.get(c);
      if (told && told.call <= k && (!first || told.passed.round < first.round)) first = told.passed;
    }
  }
  if (!first) return undefined;
  const text = context.model.outputs[c][first.round]!;
  return { round: first.round, text: evidenceAround(text, text.toLowerCase().indexOf(first.id), first.id.length) };
}

/** The first tool call (and its round, by round k) in which agent i passed a target that injector j's order named. */
export function callForInjector(context: FeatureContext, i: number, j: number, k: number): Evidence | undefined {
  const call = historyOf(context, i).firstCall.get(j) ?? relayedCalls(context).calls[i].get(j);
  return call !== undefined && call.round <= k ? call : undefined;
}

function firstBy(rounds: Map<number, number>, k: number): number[] {
  const agents: number[] = [];
  for (const [j, round] of rounds) if (round <= k) agents.push(j);
  return agents;
}

// A line that is a call, as the importers write an assistant's tool calls: `send_money(recipient="US12…", amount=10)`.
const CALL_LINE = /^[ \t]*[A-Za-z_][\w.]*\(.*\)[ \t]*$/;

/** A line of an output written as a call, and the identifiers among its arguments (not in the called function's name). */
interface ToolCall {
  line: string;
  arguments: Set<string>;
}

const callLines = (text: string) => text.split('\n').filter((line) => CALL_LINE.test(line));

/** A call as evidence: the call line around the target it passed, in round r. */
function callEvidence(call: ToolCall, id: string, r: number): Evidence {
  return { round: r, text: evidenceAround(call.line, call.line.toLowerCase().indexOf(id), id.length) };
}

/**
 * Whether acting on `id` in round r, which a tool result's order named without speaking to the model, is obeying data:
 * `id` is a recipient (an e-mail address, an account) and the user had handed no content's orders over by then. A
 * page's link, a README's script and an e-mail's to-do list the user asked it to do are none of that.
 */
function obeyable(context: FeatureContext, id: string, r: number): boolean {
  return isRecipient(id) && context.ordersHandedOverFrom > r;
}

/** Adds `j` to the set of agents that named `id`. */
function addTo(by: Map<string, Set<number>>, id: string, j: number): void {
  const known = by.get(id);
  if (known) known.add(j);
  else by.set(id, new Set([j]));
}

// A keyword argument's name (`account_id=`, `"to":`) where an argument opens (after the bracket, a comma, a brace or a
// space), so a URL's scheme, query, port or user (`https:`, `?data=`, `host:8443`, `admin:pw@`) stays in its value.
const ARGUMENT_NAME = /(?<=^|[,({\s])(["']?)[A-Za-z_]\w*\1\s*[:=](?![=/])/g;

/** The lines of `text` written as calls, each read once, with the identifiers among their argument values. */
function toolCalls(text: string): ToolCall[] {
  return callLines(text).map((line) => ({ line, arguments: identifiersOf(line.slice(line.indexOf('(') + 1, line.lastIndexOf(')')).replace(ARGUMENT_NAME, ' ')) }));
}

/** The latest sentence (and its round) in which agent i's own outputs declared, by round k, that it is steering the other agents. */
export function steeringDeclaredBy(context: FeatureContext, i: number, k: number): Evidence | undefined {
  return historyOf(context, i).declarations[k];
}

/** Identifiers agent j's round-r instructions name that neither the task nor anything j received before gave it. */
function freshTargets(context: FeatureContext, j: number, r: number): string[] {
  const known = context.fresh[j][r];
  if (known) return known;
  const { facts, model, taskIdentifiers } = context;
  let result: string[] = [];
  const targets = facts[j][r].address.targets;
  if (targets.length > 0) {
    result = targets.filter((id) => {
      if (taskIdentifiers.has(id)) return false;
      for (const s of model.inNeighbors[j]) for (let q = 0; q < r; q++) if (facts[s][q].address.identifiers.has(id)) return false;
      return true;
    });
  }
  context.fresh[j][r] = result;
  return result;
}

/** Fraction of i's out-neighbours that switched to i's answer the round after i sent it (up to round k). */
function influenceOf(context: FeatureContext, i: number, k: number): number {
  const outs = context.model.outNeighbors[i];
  if (k === 0 || outs.length === 0) return 0;
  let taken = 0;
  for (const first of timeline(context, i).firstTaken) if (first <= k) taken++;
  return taken / outs.length;
}

/** 1 when agent i turned malicious (by round k) no later than any of its in-neighbours did; else 0. */
function originated(context: FeatureContext, i: number, k: number): number {
  const own = timeline(context, i).firstMalicious;
  if (own > k) return 0;
  for (const j of context.model.inNeighbors[i]) if (timeline(context, j).firstMalicious < own) return 0;
  return 1;
}

/** Agent i's timeline, computed on first use from every round of the context. */
function timeline(context: FeatureContext, i: number): Timeline {
  const known = context.timelines[i];
  if (known) return known;
  const row = context.facts[i];
  const malPrefix = new Float64Array(row.length + 1);
  let firstMalicious = Infinity;
  for (let r = 0; r < row.length; r++) {
    malPrefix[r + 1] = malPrefix[r] + row[r].mal;
    if (firstMalicious === Infinity && row[r].mal >= MALICE_ON) firstMalicious = r;
  }
  const firstTaken = context.model.outNeighbors[i].map((j) => {
    for (let r = 1; r < row.length; r++) {
      const mine = row[r - 1].answer;
      if (mine !== undefined && context.facts[j][r].answer === mine && context.facts[j][r - 1].answer !== mine) return r;
    }
    return Infinity;
  });
  const made = { malPrefix, firstMalicious, firstTaken };
  context.timelines[i] = made;
  return made;
}

// Re-analysing a growing run (online, round by round) meets the same outputs again: measure each text once. Facts are
// read-only; the memo is bounded and keyed by the answer patterns too.
const MEMO_LIMIT = 4096;
const memos = new Map<string, Map<string, OutputFacts>>();

function memoFor(answerPatterns: readonly RegExp[], choices: Choices | undefined): (text: string) => OutputFacts {
  const key = answerPatterns.map((p) => p.source + '/' + p.flags).join('\u0000') + '\u0001' + (choices ? [...choices].join('\u0000') : '');
  let memo = memos.get(key);
  if (!memo) {
    if (memos.size > 8) memos.clear();
    memos.set(key, (memo = new Map()));
  }
  const table = memo;
  return (text) => {
    let facts = table.get(text);
    if (!facts) {
      if (table.size >= MEMO_LIMIT) table.clear();
      facts = factsOf(text, answerPatterns, choices);
      table.set(text, facts);
    }
    return facts;
  };
}

function factsOf(text: string, answerPatterns: readonly RegExp[], choices: Choices | undefined): OutputFacts {
  // A reasoning model's opening <think> (Claude's <thinking>) block weighs options and drafts its reply: the answer and
  // the text representation read the reply after it. The cues, orders and declarations read the whole output, so that an agent
  // cannot hide an order from the guard in such a block (the receivers read it all).
  const reply = replyOf(text);
  const lower = text.toLowerCase();
  const hits = findCues(text, undefined, lower);
  const scores = cueScores(text, hits);
  const reportedWeight = hits.filter((h) => h.reported).reduce((sum, h) => sum + h.weight, 0);
  const { embedding, wordHashes } = embedLower(reply === text ? lower : reply.toLowerCase());
  const count = Math.max(0, wordHashes.length - SHINGLE + 1);
  if (shingleScratch.length < count) shingleScratch = new Uint32Array(Math.max(count, shingleScratch.length * 2));
  const hashes = shingleScratch.subarray(0, count);
  for (let s = 0; s < count; s++) hashes[s] = shingleHash(wordHashes, s);
  hashes.sort();
  let distinct = 0;
  for (let s = 0; s < count; s++) if (s === 0 || hashes[s] !== hashes[s - 1]) hashes[distinct++] = hashes[s];
  const shingles = hashes.slice(0, distinct);
  return {
    mal: 1 - (1 - scores.injection) * (1 - scores.persuasion) * (1 - scores.propagation),
    injection: scores.injection,
    persuasion: scores.persuasion,
    propagation: scores.propagation,
    reported: 1 - Math.exp(-reportedWeight),
    refutes: REFUTES.test(text),
    answer: answerIn(text, answerPatterns, choices),
    embedding,
    shingles,
    wordHashes: NON_ASCII.test(reply) ? undefined : wordHashes,
    address: addressOf(text),
    steering: steeringDeclaration(text, lower),
  };
}

/** A reasoning model's opening `<think>` (Claude's `<thinking>`) tag, its name in group 1. */
const THINKING_OPENS = /^\s*<(think(?:ing)?)>/;

/**
 * An output without the `<think>…</think>` (or Claude's `<thinking>…</thinking>`) block a reasoning model opens it
 * with: the reply. A block never closed, or one with nothing after it, leaves the output whole (a truncated reply still
 * says something); one further on is part of the reply.
 */
export function replyOf(output: string): string {
  return replyAfter(output, thinkingOf(output));
}

/** The reply after an output's opening `<think>` block (`thinking`, from `thinkingOf`), as `replyOf` says. */
function replyAfter(output: string, thinking: { close: number; end: number } | undefined): string {
  const reply = thinking === undefined ? output : thinking.close < 0 ? '' : output.slice(thinking.end).trim();
  return reply === '' ? output : reply;
}

/**
 * The answer an output gives, read in its reply (`replyOf`). An output that opens a `<think>` block and never closes it
 * gives none: the model stopped while weighing the options (a truncated Qwen3 debate reply was read as answering "D"
 * from "the options given are A) 0.9800, …, D) 0.9850", and its agent called an attacker).
 */
export function answerIn(output: string, patterns: readonly RegExp[], choices: Choices | undefined): string | undefined {
  const thinking = thinkingOf(output);
  return thinking?.close === -1 ? undefined : extractAnswer(replyAfter(output, thinking), patterns, choices);
}

/** Where an output's opening `<think>` block ends (`close`: the index of its closing tag, -1 when never closed; `end` past it). */
function thinkingOf(output: string): { close: number; end: number } | undefined {
  const opening = THINKING_OPENS.exec(output);
  if (!opening) return undefined;
  const tag = `</${opening[1]}>`;
  const close = output.indexOf(tag, opening[0].length);
  return { close, end: close + tag.length };
}

// An output's shingle hashes before sorting and de-duplication, in a buffer kept between outputs (allocating one an
// output cost as much as hashing).
let shingleScratch = new Uint32Array(1024);

/** Hash of the SHINGLE words from `start`, combined from per-word hashes (each word is hashed once per output). */
function shingleHash(wordHashes: Uint32Array, start: number): number {
  let h = 0x811c9dc5;
  for (let t = start; t < start + SHINGLE; t++) h = Math.imul(h ^ wordHashes[t], 0x01000193) ^ (h >>> 15);
  return h >>> 0;
}

/** Share of own's shingles that other also has (both sorted, distinct): a linear merge. */
function overlap(own: Uint32Array, other: Uint32Array): number {
  if (own.length === 0 || other.length === 0) return 0;
  let shared = 0;
  // Branch-free steps (the comparisons are as good as random, so a branch is mispredicted half the time).
  for (let a = 0, b = 0; a < own.length && b < other.length; ) {
    const x = own[a];
    const y = other[b];
    shared += +(x === y);
    a += +(x <= y);
    b += +(y <= x);
  }
  return shared / own.length;
}

/** Prefix sums of agent i's embeddings (row r holds rounds 0..r-1), computed once per agent on first use. */
function embeddingSums(context: FeatureContext, i: number): Float32Array {
  let sums = context.sums[i];
  if (sums) return sums;
  const row = context.facts[i];
  sums = new Float32Array((row.length + 1) * DIM);
  for (let r = 0; r < row.length; r++) {
    for (let d = 0; d < DIM; d++) sums[(r + 1) * DIM + d] = sums[r * DIM + d] + row[r].embedding[d];
  }
  context.sums[i] = sums;
  return sums;
}

/** Cosine of a unit vector with the mean of the first k embeddings (0 when that mean is zero). */
function cosineToSum(unit: Float32Array, sums: Float32Array, k: number): number {
  let dot = 0;
  let norm = 0;
  for (let d = 0, o = k * DIM; d < DIM; d++) {
    const v = sums[o + d];
    dot += unit[d] * v;
    norm += v * v;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

/**
 * The answer given with the most votes (each agent's weighted), or undefined on a tie: in a split round (one answer each
 * of three agents) there is no consensus, and the agent listed first does not make one.
 */
function plurality(answers: (string | undefined)[], weights: number[]): string | undefined {
  const counts = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + weights[i]);
  });
  let best: string | undefined;
  let bestCount = 0;
  let tied = false;
  for (const [answer, count] of counts) {
    if (count > bestCount + TIE) [best, bestCount, tied] = [answer, count, false];
    else if (count > bestCount - TIE) tied = true;
  }
  return tied ? undefined : best;
}
