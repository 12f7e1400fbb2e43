// The guard pipeline, one straight line: features -> dual-head scores -> EMA -> topological constraints ->
// sources and infection paths -> remediation plan -> metrics.
import { defaultConfig, type GuardConfig, type ProjectConfig } from '../config';
import { compileAnswerPatterns, normalizeAnswer, type Choices, type FreeFormAnswers } from '../text/answer';
import { evidenceAround } from '../text/intent';
import { englishShare, NOT_ENGLISH, readsAsNotEnglish } from '../text/language';
import type { Category, Trace } from '../trace/types';
import type { MonitorFinding } from '../monitor/types';
import { emaStep } from './ema';
import { EmbeddedScorer, embeddedWeights, type DualHeadWeights } from './embeddedScorer';
import { actedForModelAddressers, answerIn, calledForInjectors, callForInjector, obeyedOrderOf, obeyedToolsOf, prepareFeatures, relayOf, relaysOfCalls, steeringDeclaredBy, sharedWordHashes, type FeatureContext } from './features';
import { EmbeddedFilter, filterManipulation } from './filter';
import { attackSuccessRate, evaluate, majorityDefended } from './metrics';
import { buildRunModel } from './model';
import { planRemediation } from './remediation';
import { guardWarning } from './messages';
import { applyTopologicalConstraints } from './rules';
import { inferSourcesAndPaths } from './sources';
import { resolveMonitorConfig, type MonitorConfig } from '../monitor/config';
import { monitorRun } from '../monitor/monitor';
import type { AgentRound, Analysis, Evidence, HeadScores, RehabFilter, RuleId, RunModel, Scorer } from './types';

/** Options for one analysis; the embedded scorer and filter are the defaults. */
export interface GuardOptions {
  config?: ProjectConfig;
  /** Builds the scorer for a run from the run's features (prepared once, for the rules too); defaults to the embedded dual-head model. */
  scorer?: (model: RunModel, answerPatterns: RegExp[], reading: FeatureContext) => Scorer;
  /** The embedded model's weights instead of the checked-in ones (the bench's held-out folds). */
  weights?: DualHeadWeights;
  filter?: RehabFilter;
  signal?: AbortSignal;
  /** Called after each round is decided (for progress UIs). */
  onRound?: (round: number, rounds: number) => void;
}

/** Analyses a parsed trace. */
export async function analyzeTrace(trace: Trace, options: GuardOptions = {}): Promise<Analysis> {
  return traceFacts(await analyzeRun(buildRunModel(trace), options), trace);
}

/** Adds what the analysis of a trace takes from the trace itself: its source and its declared edges. */
export function traceFacts(analysis: Analysis, trace: Trace): Analysis {
  analysis.source = trace.source;
  analysis.edges = trace.edges.filter(([from, to]) => from !== to);
  return analysis;
}

/** Analyses a run model round by round and returns the full analysis. */
export async function analyzeRun(model: RunModel, options: GuardOptions = {}): Promise<Analysis> {
  const config = options.config ?? defaultConfig();
  const patterns = compileAnswerPatterns(config.answer.patterns);
  // What the outputs say (answers, instructions, identifiers): the embedded scorer's features, and what the rules read.
  const reading = prepareFeatures(model, patterns, (options.weights ?? embeddedWeights()).style);
  const scorer = options.scorer ? options.scorer(model, patterns, reading) : new EmbeddedScorer(reading, options.weights);
  const progress = startProgress(model, reading);
  for (let k = 0; k < model.rounds; k++) {
    options.signal?.throwIfAborted();
    const roundScores = await scorer.scoreRound({ model, round: k, history: progress.categories }, options.signal);
    decideRound(model, progress, roundScores, config.guard, reading);
    options.onRound?.(k, model.rounds);
  }
  const alerts = monitorRun(model, monitorConfigOf(config.sections.monitor), (i, k) => sharedWordHashes(reading, i, k));
  return concludeAnalysis(model, progress, { config, patterns, scorer: scorer.name, filter: options.filter ?? new EmbeddedFilter(), alerts, signal: options.signal });
}

/** What the guard has decided about a run so far: one entry per decided round, and the EMA and answer state to continue from. */
export interface GuardProgress {
  ema: (number | undefined)[];
  /** Each decided round's answer per agent (its last output's when silent), read once for the rules and ASR/MDSR. */
  answers: (string | undefined)[][];
  /** The options the task's question lists, parsed once (undefined for a free-form task): answers are read against them. */
  choices: Choices | undefined;
  /** A free-form task's answer groups (the features'): the task's own answer is compared as the group it falls in. */
  grouping: FreeFormAnswers | undefined;
  categories: Category[][];
  scores: HeadScores[][];
  rounds: Analysis['rounds'];
}

/** An empty progress for a run (nothing decided yet), reading its task's options from the run's features. */
export function startProgress(model: RunModel, reading: FeatureContext): GuardProgress {
  return { ema: new Array(model.agents.length).fill(undefined), answers: [], choices: reading.choices, grouping: reading.grouping, categories: [], scores: [], rounds: [] };
}

/**
 * The guard's per-round step: the next round's head scores -> EMA -> topological constraints, appended to `progress`;
 * `reading` is the features of `model`, whose answers, instructions and identifiers the rules read.
 */
export function decideRound(model: RunModel, progress: GuardProgress, headScores: HeadScores[], guard: GuardConfig, reading: FeatureContext): void {
  const k = progress.rounds.length;
  // On a task that lists options an agent's held answer is its evidence, and silence keeps the answer: a silent agent
  // keeps last round's scores (a crew's closing round, where only the orchestrator speaks, does not clear a debater).
  // Elsewhere a silent agent is scored afresh: what its neighbours did since may say more about what it said.
  const keep = (i: number) => progress.choices !== undefined && k > 0 && model.outputs[i][k] === undefined;
  const roundScores = headScores.map((s, i) => (keep(i) ? progress.scores[k - 1][i] : s));
  // The features read each output's answer once (a silent agent keeps its last one), against the task's options.
  progress.answers.push(reading.facts.map((row) => row[k].answer));
  const distanceThreshold = model.topologyKind === 'chain' ? guard.chainDistanceThreshold : guard.distanceThreshold;
  const steps = roundScores.map((s, i) => emaStep(progress.ema[i], s.pInf, guard.emaAlpha));
  const declarations = guard.flagDeclaredSteering ? model.agents.map((_, i) => steeringDeclaredBy(reading, i, k)) : [];
  progress.ema = steps.map((s) => s.smoothed);
  const calledFor = guard.pullInTargetFollowers ? model.agents.map((_, i) => calledForInjectors(reading, i, k)) : [];
  const obeyed = new Set(guard.flagObeyedToolOrders ? model.agents.flatMap((_, i) => obeyedToolsOf(reading, i, k)) : []);
  const decided = applyTopologicalConstraints({
    pAtk: roundScores.map((s) => s.pAtk),
    pInf: roundScores.map((s) => s.pInf),
    trend: steps.map((s) => s.trend),
    inNeighbors: model.inNeighbors,
    outNeighbors: model.outNeighbors,
    attackerThreshold: guard.attackerThreshold,
    infectedThreshold: guard.infectedThreshold,
    distanceThreshold,
    trendThreshold: guard.trendThreshold,
    pullInFloor: guard.pullInFloor,
    pullInSources: guard.pullInSources,
    pullInAdopters: guard.pullInAdopters,
    flagLoneHolders: guard.flagLoneHolders,
    flagAwayMovers: guard.flagAwayMovers,
    flagConsensusLeavers: guard.flagConsensusLeavers,
    flagAttackerAnswerHolders: guard.flagAttackerAnswerHolders,
    pullInTargetFollowers: guard.pullInTargetFollowers,
    flagDeclaredSteering: guard.flagDeclaredSteering,
    flagObeyedToolOrders: guard.flagObeyedToolOrders,
    readGroupMoves: guard.readGroupMoves,
    declared: declarations.map((d) => d !== undefined),
    obeyedTools: model.agents.map((_, j) => obeyed.has(j)),
    actedFor: guard.pullInTargetFollowers ? model.agents.map((_, i) => actedForModelAddressers(reading, i, k)) : [],
    calledFor,
    relays: guard.pullInTargetFollowers ? model.agents.map((_, i) => relaysOfCalls(reading, i, k)) : [],
    answers: progress.answers,
    multipleChoice: progress.choices !== undefined,
    firstRound: k === 0,
  });
  progress.categories.push(decided.categories);
  progress.scores.push(roundScores);
  // The call in which agent i acted for a flagged attacker's order.
  const callOnFlaggedOrder = (i: number): Evidence | undefined => {
    const j = calledFor[i]?.find((a) => decided.categories[a] === 'attacker');
    return j === undefined ? undefined : callForInjector(reading, i, j, k);
  };
  // What a rule read in the agent's own output: the sentence declaring it steers the others, the order an agent carried
  // out, the call that acted, the output that passed the target on.
  // A head's flag, and the infection head's kept flags: the injected order or pass-it-on request the agent wrote.
  const injected = (i: number) => manipulationIn(model, i, k);
  const readers: Partial<Record<RuleId, (i: number) => Evidence | undefined>> = {
    'head-attacker': injected,
    'attacker-overrides-infected': injected,
    'kept-neighbour-flagged': injected,
    'kept-near-attacker': injected,
    'kept-rising-trend': injected,
    'declared-steering': (i) => declarations[i],
    'tool-order-obeyed': (i) => obeyedOrderOf(reading, i, k),
    'acted-on-attacker-target': callOnFlaggedOrder,
    'relayed-attacker-target': (i) => relayOf(reading, i, k),
  };
  const evidenceFor = (rule: RuleId, i: number): { evidence?: Evidence } => {
    const evidence = readers[rule]?.(i);
    return evidence !== undefined ? { evidence } : {};
  };
  const agents: Record<string, AgentRound> = Object.create(null); // agent ids are trace text: "__proto__" must stay a key
  const answers = progress.answers[k];
  model.agents.forEach((id, i) => {
    agents[id] = {
      pAtk: round4(roundScores[i].pAtk),
      pInf: round4(roundScores[i].pInf),
      pInfSmoothed: round4(steps[i].smoothed),
      trend: round4(steps[i].trend),
      category: decided.categories[i],
      rule: decided.rules[i],
      ...(answers[i] !== undefined ? { answer: answers[i] } : {}),
      ...evidenceFor(decided.rules[i], i),
    };
  });
  progress.rounds.push({ round: k, agents, asr: null, correct: null });
}

/**
 * The first sentence the rehabilitation filter would drop from agent i's latest output by round k as an injected order
 * or a pass-it-on request (not persuasion: a debater's "obviously" would read as the reason): what the attacker head's
 * cues read, quoted for the report.
 */
function manipulationIn(model: RunModel, i: number, k: number): Evidence | undefined {
  for (let r = Math.min(k, model.outputs[i].length - 1); r >= 0; r--) {
    const text = model.outputs[i][r];
    if (text === undefined) continue;
    // Read once per output: an attacker silent after one long message is quoted from it in every later round.
    let read = manipulationRead.get(model);
    if (!read) manipulationRead.set(model, (read = new Map()));
    const key = `${i}:${r}`;
    if (!read.has(key)) {
      const span = filterManipulation(text).removed.find((s) => s.reason !== 'persuasion');
      read.set(key, span && { round: r, text: evidenceAround(span.text, 0, span.text.length) });
    }
    return read.get(key);
  }
  return undefined;
}

/** The sentence manipulationIn quoted from each output of a run (agent:round; a run model's outputs never change), kept while the run is. */
const manipulationRead = new WeakMap<RunModel, Map<string, Evidence | undefined>>();

/**
 * Every decided round's categories, with each infected agent's infection dated back to the output its rule read (the
 * sentence that passed an attacker's target on, the call that acted on it) where that came before the round it was
 * flagged: a member that retold a poisoned page's order is seen only once another agent acts on it.
 */
function datedInfections(model: RunModel, progress: GuardProgress): Category[][] {
  const dated = progress.categories.map((row) => row.slice());
  model.agents.forEach((id, i) => {
    const flagged = dated.findIndex((row) => row[i] === 'infected');
    if (flagged < 0) return;
    const since = progress.rounds[flagged].agents[id].evidence?.round ?? flagged;
    for (let r = since; r < flagged; r++) if (dated[r][i] === 'benign') dated[r][i] = 'infected';
  });
  return dated;
}

/** The run-level parts of an analysis beside the decided rounds. */
export interface ConclusionParts {
  config: ProjectConfig;
  patterns: RegExp[];
  scorer: string;
  filter: RehabFilter;
  alerts: MonitorFinding[];
  signal?: AbortSignal;
}

/** The analysis of the rounds decided so far: ASR/MDSR, sources, infection paths, remediation plan, evaluation. */
export async function concludeAnalysis(model: RunModel, progress: GuardProgress, parts: ConclusionParts): Promise<Analysis> {
  const { config, patterns, filter } = parts;
  const { categories, scores } = progress;
  const rounds = progress.rounds.map((r) => ({ ...r, asr: null, correct: null }));
  const last = rounds.length - 1;
  const given = model.task?.answer !== undefined ? normalizeAnswer(model.task.answer) : undefined;
  const truth = given !== undefined && progress.grouping ? progress.grouping.groupFor(given) : given;
  const finalCategories = categories[last];
  const excluded = attackerMask(model, finalCategories);
  if (truth !== undefined) for (const round of rounds) Object.assign(round, attackSuccessRate(progress.answers[round.round], excluded, truth));
  const finalScores = scores[last];
  const dated = datedInfections(model, progress);
  const { sources, infectionPaths } = inferSourcesAndPaths({
    agents: model.agents,
    inNeighbors: model.inNeighbors,
    categories: dated,
    pAtk: scores.map((row) => row.map((s) => s.pAtk)),
  });
  const remediation = await planRemediation(
    {
      agents: model.agents,
      roles: model.roles,
      callsTools: model.outNeighbors.map((outs) => outs.some((j) => model.roles[j] === 'tool')),
      categories: finalCategories,
      history: dated,
      decided: categories,
      pAtk: finalScores.map((s) => s.pAtk),
      outputs: model.outputs.map((row) => row.slice(0, last + 1)),
      answerOf: (text) => answerIn(text, patterns, progress.choices),
      donorMaxPAtk: config.guard.donorMaxPAtk,
      task: model.task,
    },
    filter,
    parts.signal,
  );

  return {
    schema: 'agent-immune/analysis/v1',
    run: model.run,
    scorer: parts.scorer,
    filter: filter.name,
    task: model.task,
    agents: model.agents.map((id, i) => ({
      id,
      ...(model.roles[i] !== undefined ? { role: model.roles[i] } : {}),
      category: finalCategories[i],
      pAtk: round4(finalScores[i].pAtk),
      pInf: round4(finalScores[i].pInf),
    })),
    edges: model.outNeighbors.flatMap((outs, i) => outs.map((j) => [model.agents[i], model.agents[j]] as [string, string])),
    rounds,
    // No benign answer read in the last round: whether the majority held cannot be told.
    mdsr: truth === undefined || rounds[last]?.asr === null ? null : majorityDefended(progress.answers[last], excluded, truth),
    sources,
    infectionPaths,
    remediation,
    ...(model.labels ? { evaluation: evaluate(finalCategories, model.labels.map((row) => row[last] ?? 'benign')) } : {}),
    warnings: [...model.warnings.map((w) => ({ ...w })), ...languageWarnings(model, last)],
    alerts: parts.alerts,
  };
}

// Compiling the monitor's vocabulary costs milliseconds: runs analysed one after another (online, round by round, or a
// benchmark's thousands of episodes) with the same "monitor" section share one compiled config.
let monitorMemo: { key: string; config: MonitorConfig } | undefined;

/** The compiled monitor config of a raw "monitor" section, reused while the section stays the same. */
export function monitorConfigOf(raw: unknown): MonitorConfig {
  const key = JSON.stringify(raw) ?? '';
  if (monitorMemo?.key !== key) monitorMemo = { key, config: resolveMonitorConfig(raw) };
  return monitorMemo.config;
}

/** Agents ASR leaves out: the labelled attackers when the trace has labels, else the ones the guard found. */
function attackerMask(model: RunModel, predicted: Category[]): boolean[] {
  return model.agents.map((_, i) => (model.labels ? model.labels[i].some((c) => c === 'attacker') : predicted[i] === 'attacker'));
}

/** A `not-english` warning when the agents' latest outputs read as another language than the one the guard reads. */
function languageWarnings(model: RunModel, last: number): Analysis['warnings'] {
  const reading = englishShare(model.outputs.map((row) => row[last]));
  return readsAsNotEnglish(reading) ? [{ code: NOT_ENGLISH, line: 0, message: guardWarning.notEnglish(reading.share) }] : [];
}

function round4(value: number): number {
  return Math.round(value * 10000) / 10000;
}
