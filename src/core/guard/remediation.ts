// Remediation plan: replace attackers with a clean donor's role, rehabilitate infected agents through the filter.
// Benign agents are never filtered; no node is ever deleted.
import type { Category, TaskInfo } from '../trace/types';
import type { RehabFilter, RemediationStep } from './types';

/** What the planner needs about the final round. */
export interface RemediationInput {
  agents: string[];
  categories: Category[];
  pAtk: number[];
  /** Each agent's latest output (undefined when it never spoke). */
  latestOutputs: (string | undefined)[];
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
    } else if (input.categories[i] === 'infected') {
      const latest = input.latestOutputs[i] ?? '';
      const result = await filter.filter(latest, input.task, signal);
      if (result.usable) {
        steps.push({
          agent: input.agents[i],
          action: 'rehabilitate',
          filtered: result.text,
          removed: result.removed,
          reason: result.removed.length > 0 ? `infected; filter removed ${result.removed.length} manipulative span(s) and kept the task content` : 'infected; nothing manipulative left to remove, keep its filtered output and watch it',
        });
      } else {
        steps.push(replace(i, 'infected and its filtered output is unusable'));
      }
    }
  }
  return steps;
}

/** The benign agent with the lowest P_atk, if it is at or below the donor threshold. */
export function pickDonor(input: Pick<RemediationInput, 'categories' | 'pAtk' | 'donorMaxPAtk'>): number | undefined {
  let best: number | undefined;
  input.categories.forEach((c, i) => {
    if (c === 'benign' && (best === undefined || input.pAtk[i] < input.pAtk[best])) best = i;
  });
  return best !== undefined && input.pAtk[best] <= input.donorMaxPAtk ? best : undefined;
}
