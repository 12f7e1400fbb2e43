// Remediation plan: replace attackers with a clean donor's role (a poisoned tool result has no role: it is quarantined,
// its result delivered filtered or withheld); rehabilitate infected agents by restoring what they held before
// infection (their last output before the first round they were flagged infected, filtered), else by filtering their
// latest output when that removes the manipulation, else by replacement. Benign agents are never filtered; no node is
// ever deleted.
import type { Category, TaskInfo } from '../trace/types';
import { oneLine } from './messages';
import type { RehabFilter, RemediationStep } from './types';

/** What the planner needs about the decided rounds. */
export interface RemediationInput {
  agents: string[];
  /** Each agent's role where the trace gives one: "tool" marks a tool's results, "user" the person who gives the task. */
  roles: (string | undefined)[];
  /** Whether each agent sends to a tool (its outputs may be calls that acted in the world). */
  callsTools: boolean[];
  /** Categories of the last decided round. */
  categories: Category[];
  /** Categories of every decided round, oldest first (history[k][i]), infections dated back to the output their rule
   * read; the last row is `categories`. */
  history: Category[][];
  /** The same as each round decided them, where an infection was dated back (the round table shows these). */
  decided?: Category[][];
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
  const replace = (i: number, why: string): RemediationStep => {
    const donor = pickDonor(input, input.roles[i]);
    if (donor === undefined) return { agent: input.agents[i], action: 'replace', reason: `${why}; no benign agent (not a tool or the user) has P_atk <= ${input.donorMaxPAtk}, so restore its role from a trusted copy of the original prompt and drop its own outputs` };
    const role = input.roles[i];
    const sameRole = role !== undefined && input.roles[donor] === role ? `, its own role: ${role}` : '';
    return { agent: input.agents[i], action: 'replace', donor: input.agents[donor], reason: `${why}; copy the role and system prompt of ${input.agents[donor]} (P_atk ${input.pAtk[donor].toFixed(2)}${sameRole}) and drop its own outputs` };
  };

  const steps: RemediationStep[] = [];
  for (let i = 0; i < input.agents.length; i++) {
    if (input.categories[i] === 'attacker') {
      steps.push(input.roles[i] === 'tool' ? await quarantine(i, input, filter, signal) : replace(i, 'attacker'));
      continue;
    }
    if (input.categories[i] !== 'infected') continue;
    const flagged = input.history.findIndex((row) => row[i] === 'infected');
    const seen = input.decided?.findIndex((row) => row[i] === 'infected') ?? flagged;
    const from = `infected from round ${flagged}${seen > flagged ? ` (flagged in round ${seen}, on its round-${flagged} output)` : ''}`;
    const actions = input.callsTools[i] ? callsSince(input.outputs[i], flagged) : [];
    const undo = actions.length ? `; review or undo the ${actions.length} tool call(s) it made since: ${actions.slice(0, 3).map((a) => oneLine(a.call, CALL_SHOWN)).join('; ')}${actions.length > 3 ? '; …' : ''}` : '';
    const withActions = actions.length ? { actions } : {};
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
          ...withActions,
          reason: `${from}; restore its round-${before.round} output${answer !== undefined ? ` (answer ${answer})` : ''} and reasoning from before infection, and drop what it adopted since${undo}`,
        });
        continue;
      }
    }
    const latest = lastOutput(input.outputs[i], input.history.length - 1);
    const result = latest ? await filter.filter(latest.text, input.task, signal) : undefined;
    if (result?.usable && result.removed.length > 0) {
      steps.push({ agent: input.agents[i], action: 'rehabilitate', filtered: result.text, removed: result.removed, ...withActions, reason: `${from} with no usable output before it; filter removed ${result.removed.length} manipulative passage(s) from its latest output and kept the task content${undo}` });
    } else {
      const step = replace(i, result?.usable ? 'infected with no usable output before infection, and its latest output holds nothing a filter can remove' : 'infected and its filtered output is unusable');
      steps.push({ ...step, ...withActions, reason: step.reason + undo });
    }
  }
  return steps;
}

/**
 * A poisoned tool result: its latest result that held injected content, delivered without it; withheld when what is
 * left cannot stand, or when the filter finds nothing in any of its results to take out.
 */
async function quarantine(i: number, input: RemediationInput, filter: RehabFilter, signal?: AbortSignal): Promise<RemediationStep> {
  const agent = input.agents[i];
  const results = input.outputs[i];
  for (let k = results.length - 1; k >= 0; k--) {
    const text = results[k];
    if (text === undefined) continue;
    const result = await filter.filter(text, input.task, signal);
    if (result.removed.length === 0) continue;
    return result.usable
      ? { agent, action: 'quarantine', filtered: result.text, removed: result.removed, reason: `poisoned tool result (round ${k}); deliver it to the model without the injected content, and check what was done on its word` }
      : { agent, action: 'quarantine', filtered: '', removed: result.removed, reason: `poisoned tool result (round ${k}); nothing but the injection is left of it, so withhold it from the model and check what was done on its word` };
  }
  return { agent, action: 'quarantine', filtered: '', removed: [], reason: 'poisoned tool result; the filter cannot separate the injected content from its data, so withhold its results from the model and check what was done on its word' };
}

/** Agent's last output at or before round k, with its round. */
function lastOutput(row: (string | undefined)[], k: number): { round: number; text: string } | undefined {
  for (let r = Math.min(k, row.length - 1); r >= 0; r--) if (row[r] !== undefined) return { round: r, text: row[r]! };
  return undefined;
}

/** Roles with no role or system prompt to lend: a tool's results, and the person who gives the task. */
const NO_DONOR_ROLES = new Set(['tool', 'user']);

/**
 * The donor for an agent of `role`: among benign agents (not a tool or the user) at or below the donor threshold, the
 * one with the lowest P_atk that shares its role, else the one with the lowest P_atk.
 */
export function pickDonor(input: Pick<RemediationInput, 'categories' | 'roles' | 'pAtk' | 'donorMaxPAtk'>, role?: string): number | undefined {
  const eligible = input.categories.flatMap((c, i) => (c === 'benign' && !NO_DONOR_ROLES.has(input.roles[i] ?? '') && input.pAtk[i] <= input.donorMaxPAtk ? [i] : []));
  const lowest = (among: number[]) => among.reduce<number | undefined>((best, i) => (best === undefined || input.pAtk[i] < input.pAtk[best] ? i : best), undefined);
  return lowest(eligible.filter((i) => role !== undefined && input.roles[i] === role)) ?? lowest(eligible);
}

/** The tool calls (`name(args)`) among an agent's outputs from round `from` on. */
function callsSince(outputs: readonly (string | undefined)[], from: number): { round: number; call: string }[] {
  return outputs.flatMap((text, round) => (round >= from && text !== undefined && TOOL_CALL.test(text.trim()) ? [{ round, call: oneLine(text, Infinity) }] : []));
}

/** How much of a tool call the plan's reason shows (the step's `actions` hold it whole): AgentDojo's send_money with a
 * subject fits, where 80 characters cut it in its arguments. */
const CALL_SHOWN = 200;

/** An output that is a call of a tool: a name, then its arguments in parentheses, and nothing else. */
const TOOL_CALL = /^[A-Za-z_][\w.]*\([\s\S]*\)$/;
