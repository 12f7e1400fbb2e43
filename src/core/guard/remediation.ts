// Remediation plan: replace attackers with a clean donor's role; rehabilitate infected agents by restoring what they
// held before infection (their last output before the first round they were flagged infected, filtered), else by
// filtering their latest output when that removes the manipulation, else by replacement. Benign agents are never
// filtered; no node is ever deleted.
import type { Category, TaskInfo } from '../trace/types';
import type { RehabFilter, RemediationStep } from './types';

/** What the planner needs about the decided rounds. */
export interface RemediationInput {
  agents: string[];
  /** Categories of the last decided round. */
  categories: Category[];
  /** Categories of every decided round, oldest first (history[k][i]); the last row is `categories`. */
  history: Category[][];
  pAtk: number[];
  /** outputs[i][k]: what agent i sent in round k (undefined when silent), for the decided rounds. */
  outputs: (string | undefined)[][];
  /** Reads the answer an output commits to (undefined when none parses). */
  answerOf: (text: string) => string | undefined;
  donorMaxPAtk: number;
  task?: TaskInfo;
}

/** Plans one step per attacker and per infected agent, in agent order. */
export async function planRemediation(input: RemediationInput, filter: RehabFilter, signal?: AbortSignal): Promise<RemediationStep[]> {
  const donor = pickDonor(input);
  const replace = (i: number, why: string): RemediationStep =>
    donor !== undefined
      ? { agent: input.agents[i], action: 'replace', donor: input.agents[donor], reason: `${why}; copy the role and system prompt of ${input.agents[donor]} (P_atk ${input.pAtk[donor].toFixed(2)}) and drop its own outputs` }
      : { agent: input.agents[i], action: 'replace', reason: `${why}; no benign agent has P_atk <= ${input.donorMaxPAtk}, so restore its role from a trusted copy of the original prompt and drop its own outputs` };

  const steps: RemediationStep[] = [];
  for (let i = 0; i < input.agents.length; i++) {
    if (input.categories[i] === 'attacker') {
      steps.push(replace(i, 'attacker'));
      continue;
    }
    if (input.categories[i] !== 'infected') continue;
    const flagged = input.history.findIndex((row) => row[i] === 'infected');
    const before = flagged > 0 ? lastOutput(input.outputs[i], flagged - 1) : undefined;
    if (before) {
      const restored = await filter.filter(before.text, input.task, signal);
      if (restored.usable) {
        const answer = input.answerOf(restored.text);
        steps.push({
          agent: input.agents[i],
          action: 'rehabilitate',
          filtered: restored.text,
          removed: restored.removed,
          restore: { round: before.round, ...(answer !== undefined ? { answer } : {}) },
          reason: `infected from round ${flagged}; restore its round-${before.round} output${answer !== undefined ? ` (answer ${answer})` : ''} and reasoning from before infection, and drop what it adopted since`,
        });
        continue;
      }
    }
    const latest = lastOutput(input.outputs[i], input.history.length - 1);
    const result = latest ? await filter.filter(latest.text, input.task, signal) : undefined;
    if (result?.usable && result.removed.length > 0) {
      steps.push({ agent: input.agents[i], action: 'rehabilitate', filtered: result.text, removed: result.removed, reason: `infected from round ${flagged} with no usable output before it; filter removed ${result.removed.length} manipulative span(s) from its latest output and kept the task content` });
    } else {
      steps.push(replace(i, result?.usable ? 'infected with no usable output before infection, and its latest output holds nothing a filter can remove' : 'infected and its filtered output is unusable'));
    }
  }
  return steps;
}

/** Agent's last output at or before round k, with its round. */
function lastOutput(row: (string | undefined)[], k: number): { round: number; text: string } | undefined {
  for (let r = Math.min(k, row.length - 1); r >= 0; r--) if (row[r] !== undefined) return { round: r, text: row[r]! };
  return undefined;
}

/** The benign agent with the lowest P_atk, if it is at or below the donor threshold. */
export function pickDonor(input: Pick<RemediationInput, 'categories' | 'pAtk' | 'donorMaxPAtk'>): number | undefined {
  let best: number | undefined;
  input.categories.forEach((c, i) => {
    if (c === 'benign' && (best === undefined || input.pAtk[i] < input.pAtk[best])) best = i;
  });
  return best !== undefined && input.pAtk[best] <= input.donorMaxPAtk ? best : undefined;
}
