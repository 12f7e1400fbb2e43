// The agent-trace/v1 data model: what a recorded multi-agent run is, once parsed.

/** The three classes the guard assigns to an agent in a round. */
export type Category = 'benign' | 'attacker' | 'infected';
export const CATEGORIES: readonly Category[] = ['benign', 'attacker', 'infected'];

/** One agent as the header declares it (or as first seen in a message). */
export interface AgentInfo {
  id: string;
  role?: string;
  systemPrompt?: string;
}

/** The task the run worked on; `answer` enables ASR/MDSR. */
export interface TaskInfo {
  question?: string;
  answer?: string;
}

/** One delivered output: `from` sent `content` in `round` to `to` (or to its header out-edges). */
export interface TraceMessage {
  round: number;
  from: string;
  to?: string[];
  content: string;
  ts?: string;
  /** 1-based line in the source file (0 when built in memory). */
  line: number;
}

/** Ground truth for evaluation: the category of `agent` in `round`. */
export interface TraceLabel {
  round: number;
  agent: string;
  category: Category;
  line: number;
}

/** A non-fatal observation made while reading a trace (unknown type, round gap, ...). */
export interface TraceWarning {
  code: 'unknown-type' | 'round-gap' | 'duplicate-output' | 'unknown-agent-label' | 'skipped-line' | 'unknown-edge-agent' | 'multiple-episodes';
  line: number;
  message: string;
}

/** A parsed agent-trace/v1 run. */
export interface Trace {
  schema: 'agent-trace/v1';
  run?: string;
  task?: TaskInfo;
  agents: AgentInfo[];
  /** Directed edges [from, to]: from's output is delivered to to. */
  edges: [string, string][];
  messages: TraceMessage[];
  labels: TraceLabel[];
  warnings: TraceWarning[];
  /** Where it came from (file path), for messages. */
  source?: string;
  /** Whether the topology came from the header or was inferred from message recipients. */
  topology: 'header' | 'messages';
}
