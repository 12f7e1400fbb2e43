// Renders an Analysis as the CLI's readable report: a per-round table, then sources, paths, remediation, evaluation.
import type { Analysis } from '../../core/guard/types';
import { formatAlerts } from './alertsText';

const LABEL = { benign: 'benign', attacker: 'ATTACKER', infected: 'infected' } as const;

/** The readable report of an analysis (plain text, no colours). */
export function formatAnalysisText(analysis: Analysis): string {
  const out: string[] = [];
  const rounds = analysis.rounds.length;
  const attackers = analysis.agents.filter((a) => a.category === 'attacker').length;
  const infected = analysis.agents.filter((a) => a.category === 'infected').length;
  out.push(`${analysis.source ?? analysis.run ?? 'trace'}: ${analysis.agents.length} agents, ${rounds} rounds, scorer ${analysis.scorer}, filter ${analysis.filter}`);
  if (analysis.llm) {
    const l = analysis.llm;
    out.push(`LLM ${l.model}: ${l.calls} call(s), ${l.cacheHits} from cache, ${l.promptTokens + l.completionTokens} tokens${l.partial ? '; PARTIAL: some parts used the embedded default' : ''}`);
  }
  if (analysis.task?.question) out.push(`Task: ${oneLine(analysis.task.question, 100)}${analysis.task.answer !== undefined ? `  (answer ${analysis.task.answer})` : ''}`);
  out.push('');

  const idWidth = Math.max(5, ...analysis.agents.map((a) => a.id.length));
  const roleWidth = Math.min(18, Math.max(4, ...analysis.agents.map((a) => (a.role ?? '').length)));
  const header = ['agent'.padEnd(idWidth), 'role'.padEnd(roleWidth), ...analysis.rounds.map((r) => `r${r.round}`.padEnd(9)), 'P_atk', ' P_inf'];
  out.push(header.join('  ').trimEnd());
  for (const agent of analysis.agents) {
    const cells = analysis.rounds.map((r) => LABEL[r.agents[agent.id].category].padEnd(9));
    out.push([agent.id.padEnd(idWidth), oneLine(agent.role ?? '', roleWidth).padEnd(roleWidth), ...cells, agent.pAtk.toFixed(2).padStart(5), agent.pInf.toFixed(2).padStart(6)].join('  '));
  }
  if (analysis.rounds.some((r) => r.asr !== null)) {
    const asr = analysis.rounds.map((r) => (r.asr === null ? '-' : `${(r.asr * 100).toFixed(0)}%`).padEnd(9));
    out.push(['ASR'.padEnd(idWidth), ''.padEnd(roleWidth), ...asr].join('  ').trimEnd());
  }
  out.push('');
  out.push(`Verdict: ${attackers} attacker(s), ${infected} infected, ${analysis.agents.length - attackers - infected} benign${analysis.mdsr !== null ? `; majority ${analysis.mdsr ? 'defended' : 'NOT defended'} at the last round` : ''}`);
  if (analysis.sources.length) out.push(`Sources: ${analysis.sources.join(', ')}`);
  if (analysis.infectionPaths.length) {
    out.push('Infection paths:');
    for (const path of analysis.infectionPaths) out.push(`  ${path.join(' -> ')}`);
  }
  if (analysis.remediation.length) {
    out.push('Remediation:');
    for (const step of analysis.remediation) {
      const what =
        step.action === 'replace'
          ? `replace${step.donor ? ` with donor ${step.donor}` : ''}`
          : step.restore
            ? `rehabilitate: restore round ${step.restore.round}${step.restore.answer !== undefined ? ` (answer ${step.restore.answer})` : ''}`
            : `rehabilitate (removed ${step.removed?.length ?? 0} span(s))`;
      out.push(`  ${step.agent}: ${what} — ${step.reason}`);
    }
  }
  if (analysis.evaluation) {
    const e = analysis.evaluation;
    const pct = (v: number) => v.toFixed(2);
    out.push(`Against labels: attacker P ${pct(e.attacker.precision)} R ${pct(e.attacker.recall)} F1 ${pct(e.attacker.f1)}; infected P ${pct(e.infected.precision)} R ${pct(e.infected.recall)} F1 ${pct(e.infected.f1)}; benign FPR ${pct(e.benignFalsePositiveRate)}`);
  }
  out.push(...formatAlerts((analysis.alerts ?? []).map((alert) => ({ alert }))));
  for (const warning of analysis.warnings) out.push(`warning: ${warning.line ? `line ${warning.line}: ` : ''}${warning.message}`);
  return out.join('\n') + '\n';
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}
