// The monitor's public data: the four signals, the documents and runs they read, and the findings they return.

/** The four propagation signals (DESIGN.md, layer 4). All are additive and on by default. */
export type SignalName = 'viralPersona' | 'propagation' | 'propagationRequest' | 'verbatimSpread';
export const SIGNALS: readonly SignalName[] = ['viralPersona', 'propagation', 'propagationRequest', 'verbatimSpread'];

/** Stable finding codes, one per signal (a documented contract: docs/monitoring.md). */
export const FINDING_CODE = {
  viralPersona: 'viral-persona',
  propagation: 'propagation',
  propagationRequest: 'propagation-request',
  verbatimSpread: 'verbatim-spread',
} as const satisfies Record<SignalName, string>;
export type FindingCode = (typeof FINDING_CODE)[SignalName];

/** A piece of text one session/agent produced or persisted: a file, or one agent's output in one round. */
export interface MonitorDocument {
  /** Who the text belongs to: a file path, or an agent id. Cooldowns are kept per (signal, subject). */
  subject: string;
  text: string;
  /** Round of the output, for traces. */
  round?: number;
  /** Source line of the output in the trace, for traces. */
  line?: number;
  /** When it was written (ms since epoch), when known: file mtime or message time. */
  at?: number;
}

/** Where in a document the evidence sits: the quoted span and its character offsets. */
export interface Evidence {
  text: string;
  start: number;
  end: number;
  line?: number;
  round?: number;
}

/** One hop of a verbatim copy: `agent` carried the span in `round`. */
export interface ChainHop {
  agent: string;
  round: number;
}

/** What one signal found: plain data with a stable code; wording is made at the edge. */
export interface MonitorFinding {
  signal: SignalName;
  code: FindingCode;
  /** The agent, session or file the finding is about (for propagation: the earliest session carrying the markers). */
  subject: string;
  evidence: Evidence;
  /** Markers found: viral marker ids, or propagation rule ids for propagationRequest. */
  markers: string[];
  /** `signal:subject`: one burst on one key raises one alert. */
  cooldownKey: string;
  /** When the finding was made (ms), when the input carries time. */
  at?: number;
  /** verbatimSpread: the agents and rounds the span went through, in order. */
  chain?: ChainHop[];
  /** propagation: the sessions/agents that carried the marker. */
  sessions?: string[];
  /** How many further findings on the same key this alert stands for (the rest of the burst). */
  suppressed?: number;
}

/** The cooldown key of a finding. */
export function cooldownKey(signal: SignalName, subject: string): string {
  return `${signal}:${subject}`;
}
