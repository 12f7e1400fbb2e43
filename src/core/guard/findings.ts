// The trace lines worth a finding after an analysis: every output an attacker or infected agent sent. Each code is
// described once: severity, blocking (`analyze` exits 1), where it is shown, description and message (docs/cli.md#<code>).
import type { GraphViewPayload } from '../graphview/types';
import { specOf, type FindingSpec } from '../findings';
import type { Category } from '../trace/types';
import { RULE_TEXT } from './messages';
import type { RuleId } from './types';

/** Stable codes of trace findings. */
export type TraceFindingCode = 'trace-attacker-output' | 'trace-infected-output';

/** One flagged output. */
export interface TraceFinding {
  code: TraceFindingCode;
  /** 1-based trace line. */
  line: number;
  agent: string;
  round: number;
  category: Exclude<Category, 'benign'>;
  pAtk: number;
  pInf: number;
  rule: RuleId;
}

/** A trace code's spec. */
export interface TraceFindingSpec extends FindingSpec<TraceFinding> {
  /** Where the editor shows it: the output's line of the trace file. */
  attach: 'trace-line';
}

const message = (f: TraceFinding) => `${f.agent} is ${f.category} in round ${f.round} (P_atk ${f.pAtk.toFixed(2)}, P_inf ${f.pInf.toFixed(2)}): ${RULE_TEXT[f.rule] ?? f.rule}`;

/** The trace codes, by the category of the agent that sent the output. */
export const TRACE_FINDINGS: Record<TraceFindingCode, TraceFindingSpec> = {
  'trace-attacker-output': {
    severity: 'error',
    blocking: true,
    attach: 'trace-line',
    docs: 'cli',
    description: 'An output sent by an agent the guard classifies as an attacker in that round.',
    message,
  },
  'trace-infected-output': {
    severity: 'warning',
    blocking: true,
    attach: 'trace-line',
    docs: 'cli',
    description: 'An output sent by an agent the guard classifies as infected in that round.',
    message,
  },
};

/** The code of an output by its sender's category. */
const CODE_OF: Record<TraceFinding['category'], TraceFindingCode> = { attacker: 'trace-attacker-output', infected: 'trace-infected-output' };

/** The message of one finding. */
export function describeTraceFinding(finding: TraceFinding): string {
  return specOf<TraceFinding, TraceFindingSpec>(TRACE_FINDINGS, finding).message(finding);
}

/** Most findings listed for one trace (a 2,000-agent run must not flood the Problems view). */
export const MAX_FINDINGS = 2000;

/** Lists the flagged outputs in trace order. */
export function traceFindings(payload: GraphViewPayload): TraceFinding[] {
  const out: TraceFinding[] = [];
  const { analysis } = payload;
  analysis.agents.forEach((agent, i) => {
    analysis.rounds.forEach((round, k) => {
      const detail = Object.prototype.hasOwnProperty.call(round.agents, agent.id) ? round.agents[agent.id] : undefined;
      const line = payload.outputs[i]?.[k]?.line;
      if (!detail || detail.category === 'benign' || line === undefined) return;
      out.push({ code: CODE_OF[detail.category], line, agent: agent.id, round: k, category: detail.category, pAtk: detail.pAtk, pInf: detail.pInf, rule: detail.rule });
    });
  });
  return out.sort((a, b) => a.line - b.line).slice(0, MAX_FINDINGS);
}
