// The guard's public data: the run model it analyses, its pluggable parts, and the analysis it returns.
import type { Category, TaskInfo, TraceWarning } from '../trace/types';
import type { MonitorFinding } from '../monitor/types';

/** A trace turned into dense arrays the guard works on. Agent i is `agents[i]`. */
export interface RunModel {
  run?: string;
  task?: TaskInfo;
  agents: string[];
  roles: (string | undefined)[];
  index: Map<string, number>;
  rounds: number;
  /** outputs[i][k]: what agent i sent in round k (undefined when silent). */
  outputs: (string | undefined)[][];
  /** lines[i][k]: source line of that output, for diagnostics. */
  lines: (number | undefined)[][];
  /** recipients[i][k]: the agents agent i's round-k output was sent to (undefined when silent, or sent to everyone it reaches). */
  recipients: (number[] | undefined)[][];
  /** Directed adjacency by index: inNeighbors[i] are the agents whose output reaches i. */
  inNeighbors: number[][];
  outNeighbors: number[][];
  /** Ground-truth label per agent per round when the trace has labels. */
  labels?: (Category | undefined)[][];
  topologyKind: 'chain' | 'tree' | 'star' | 'other';
  warnings: TraceWarning[];
}

/** Dual-head scores for one agent in one round: independent probabilities, not a softmax. */
export interface HeadScores {
  pAtk: number;
  pInf: number;
}

/** Everything a scorer may look at for round k: the model, the round, and embeddings. */
export interface ScoringContext {
  model: RunModel;
  round: number;
  /** Categories already decided for earlier rounds (k-1 and before). */
  history: Category[][];
}

/** Scores every agent in a round. The embedded model implements it; an LLM judge can too. */
export interface Scorer {
  readonly name: string;
  scoreRound(context: ScoringContext, signal?: AbortSignal): Promise<HeadScores[]>;
}

/** A span of text the rehabilitation filter removed, and why. */
export interface RemovedSpan {
  start: number;
  end: number;
  text: string;
  reason: 'injected-instruction' | 'propagation-request' | 'persuasion' | 'llm';
}

/** The rehabilitation filter's result for one output. */
export interface FilterResult {
  text: string;
  removed: RemovedSpan[];
  /** False when what is left cannot stand as the agent's answer (empty, no task content). */
  usable: boolean;
}

/** Removes manipulative content from an infected agent's output, keeping the task content. */
export interface RehabFilter {
  readonly name: string;
  filter(text: string, task?: TaskInfo, signal?: AbortSignal): Promise<FilterResult>;
}

/** Turns texts into vectors (an LLM embedding endpoint, or the embedded hashed embedding). */
export interface Embedder {
  readonly name: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Which parts of an analysis used an LLM, and what it cost (present only when an LLM was configured). */
export interface LlmReport {
  model: string;
  /** The embedder behind the judge's similarity evidence ("embedded" or "llm:<embedding model>"). */
  embedder?: string;
  /** Requests sent, answers served from the on-disk cache, and tokens billed. */
  calls: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  /** True when the budget ran out or the endpoint failed, so some parts used the embedded default. */
  partial: boolean;
}

/** Which topological rule decided an agent's category in a round. */
export type RuleId =
  | 'head-attacker'
  | 'head-infected'
  | 'held-alone-against-group'
  | 'moved-only-to-unheard-answers'
  | 'left-consensus-alone'
  | 'held-attacker-answer'
  | 'declared-steering'
  | 'tool-order-obeyed'
  | 'kept-neighbour-flagged'
  | 'kept-near-attacker'
  | 'kept-rising-trend'
  | 'pruned-far-and-flat'
  | 'sided-with-group'
  | 'pruned-no-source'
  | 'only-agent'
  | 'pulled-in-as-attacker'
  | 'pulled-in-as-infected'
  | 'pulled-in-as-source'
  | 'adopted-attacker-answer'
  | 'acted-on-attacker-target'
  | 'relayed-attacker-target'
  | 'trend-jump-pull'
  | 'attacker-overrides-infected'
  | 'below-thresholds';

/** One agent in one round of the analysis. */
export interface AgentRound {
  pAtk: number;
  pInf: number;
  /** EMA-smoothed P_inf and its trend (EMA now minus EMA before). */
  pInfSmoothed: number;
  trend: number;
  category: Category;
  rule: RuleId;
  /** The answer read from its output this round (a silent agent keeps its last one); absent where none could be read. */
  answer?: string;
  /**
   * What the rule read in the agent's own output (at most 300 characters): declared-steering, the declaring sentence;
   * tool-order-obeyed, the tool result's order that named the target; acted-on-attacker-target, the tool call that carried the
   * target; relayed-attacker-target, the output that passed it on.
   */
  evidence?: Evidence;
}

/** A sentence an agent wrote, and the round it wrote it in. */
export interface Evidence {
  round: number;
  text: string;
}

/** What a remediation step does; quarantine: a poisoned tool result (an attacker whose role is "tool"), delivered filtered or withheld, with no role to replace. */
export const REMEDIATION_ACTIONS = ['replace', 'rehabilitate', 'quarantine'] as const;

/** The remediation planned for one agent. Benign agents never get one; nodes are never deleted. */
export interface RemediationStep {
  agent: string;
  action: (typeof REMEDIATION_ACTIONS)[number];
  /** For replace: the benign agent whose role/system prompt is copied. */
  donor?: string;
  /**
   * For rehabilitate: the output the agent goes on from (its restored pre-infection output, or its filtered latest
   * output). For quarantine: its latest result without the injected content, or '' when it is withheld.
   */
  filtered?: string;
  removed?: RemovedSpan[];
  /** For rehabilitate by restoring: the last round before it was flagged infected, and the answer it held then. */
  restore?: { round: number; answer?: string };
  /** For an infected agent that calls tools: the calls it made from the round it was infected on, to review or undo. */
  actions?: { round: number; call: string }[];
  reason: string;
}

/** Precision/recall/F1 for one class, from labelled traces; a ratio is null where nothing was flagged as the class (precision) or none labelled as it (recall, F1). */
export interface ClassScores {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  support: number;
  tp: number;
  fp: number;
  fn: number;
}

/** How the analysis compares with the trace's labels (final round). */
export interface Evaluation {
  attacker: ClassScores;
  infected: ClassScores;
  benignFalsePositiveRate: number;
  benignCount: number;
}

/** The analysis of one run: schema agent-immune/analysis/v1 (a documented contract). */
export interface Analysis {
  schema: 'agent-immune/analysis/v1';
  run?: string;
  source?: string;
  scorer: string;
  filter: string;
  task?: TaskInfo;
  agents: { id: string; role?: string; category: Category; pAtk: number; pInf: number }[];
  edges: [string, string][];
  rounds: { round: number; agents: Record<string, AgentRound>; asr: number | null; correct: number | null }[];
  mdsr: number | null;
  sources: string[];
  infectionPaths: string[][];
  remediation: RemediationStep[];
  evaluation?: Evaluation;
  warnings: { code: string; line: number; message: string }[];
  /** Advisory propagation alerts (docs/monitoring.md): viral personas, pass-it-on requests, verbatim spread along edges. */
  alerts?: MonitorFinding[];
  /** Present when an LLM judge, filter or embedder was configured. */
  llm?: LlmReport;
}
