// The trace lines worth a diagnostic: every output an attacker or infected agent sent, with category, round and
// scores. Findings are data (stable codes); traceDiagnostics.ts words them. No vscode import.
import type { RuleId } from '../../core/guard/types';
import type { GraphViewPayload } from '../../core/graphview/types';
import type { Category } from '../../core/trace/types';

/** Stable diagnostic codes. */
export const enum TraceFindingCode {
  AttackerOutput = 'trace-attacker-output',
  InfectedOutput = 'trace-infected-output',
}

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

/** Most findings published for one trace (a 2,000-agent run must not flood the Problems view). */
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
      out.push({
        code: detail.category === 'attacker' ? TraceFindingCode.AttackerOutput : TraceFindingCode.InfectedOutput,
        line,
        agent: agent.id,
        round: k,
        category: detail.category,
        pAtk: detail.pAtk,
        pInf: detail.pInf,
        rule: detail.rule,
      });
    });
  });
  return out.sort((a, b) => a.line - b.line).slice(0, MAX_FINDINGS);
}
