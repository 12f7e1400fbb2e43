// Reads SWE-agent trajectories (`*.traj`: `{environment, trajectory, history, info}`): one model working through a
// shell and its tools. The harness's system prompt is the assistant's, not an agent; the first task message is the
// user's; each observation comes from the command (or, with function calling, the tool) the assistant ran. Messages
// marked `is_demo` are demonstrations copied into the context, not this run's.
import { InputError } from '../errors';
import { asObject, asString, assignCausalRounds, buildEpisode, maybeJson, perRunImporter, selectRuns } from './common';
import { toolChat } from './toolChat';
import type { Episode, FormatSpec } from './types';

const EXPECTED = 'expected a SWE-agent trajectory: {history: [{role, content, agent}], trajectory, info}';

type Json = Record<string, unknown>;

/** The command an action runs, as a tool's name: `open server.py` → `open`. */
function commandOf(action: string): string {
  return /^\s*([\w.-]+)/.exec(action)?.[1] ?? 'shell';
}

/** The history in toolChat's shape: observations as the results of the commands (or tool calls) the assistant made. */
function chatOf(history: readonly unknown[]): Json[] {
  const messages: Json[] = [];
  let asked = false;
  let lastCall: string | undefined;
  for (const [i, raw] of history.entries()) {
    const m = asObject(raw);
    if (!m || m.is_demo === true) continue;
    const role = asString(m.role);
    if (role === 'system') messages.push({ role: 'system', content: m.content });
    else if (role === 'assistant') {
      const calls = maybeJson(m.tool_calls);
      const action = asString(m.action);
      // Without function calling the action is a command line written in the reply: its observation is its result.
      lastCall = Array.isArray(calls) && calls.length > 0 ? undefined : action?.trim() ? `action-${i}` : undefined;
      messages.push({ role: 'assistant', content: m.content, tool_calls: Array.isArray(calls) && calls.length > 0 ? calls : lastCall ? [{ id: lastCall, function: commandOf(action!) }] : undefined });
    } else if (role === 'tool') {
      const ids = maybeJson(m.tool_call_ids);
      messages.push({ role: 'tool', content: m.content, tool_call_id: Array.isArray(ids) ? asString(ids[0]) : asString(m.tool_call_id), name: asString(m.name) });
    } else if (role === 'user') {
      // The first is the task (the issue); later ones, the observations of the commands run.
      if (!asked || !lastCall) messages.push({ role: 'user', content: m.content });
      else messages.push({ role: 'tool', content: m.content, tool_call_id: lastCall });
      asked = true;
    }
  }
  return messages;
}

/** One trajectory as the user, the assistant and the commands or tools it ran. */
function readTrajectory(run: Json, index: number, line: number, file?: string): Episode {
  if (!Array.isArray(run.history)) throw new InputError('missing-field', `run ${index}: missing "history" (an array of messages); ${EXPECTED}`, file, line, 'history');
  const chat = toolChat(chatOf(run.history), line);
  if (chat.deliveries.length === 0) throw new InputError('no-content', `run ${index}: "history" holds no task, action or observation`, file, line, 'history');
  const id = `swe-agent-${asString(run.environment) ?? index}`;
  return buildEpisode(id, { run: id, task: { question: chat.question }, agents: chat.agents }, assignCausalRounds(chat.deliveries), [], []);
}

export const sweAgentFormat: FormatSpec = {
  title: 'SWE-agent trajectories (*.traj)',
  aliases: ['sweagent', 'swe-agent-traj'],
  detect: {
    record: (o) => Array.isArray(o.history) && (Array.isArray(o.trajectory) || asObject(o.history[0])?.agent !== undefined),
    keys: 'history entries with agent, trajectory, info',
    signature: /"trajectory"\s*:\s*\[\s*\{\s*"action"\s*:|"history"\s*:\s*\[\s*\{[^{}[\]]{0,4000}?"agent"\s*:\s*"/,
    loneObjectIsDocument: true,
  },
  expects: 'a SWE-agent trajectory (or a JSON array / JSON Lines of them) with history: [{role, content, agent}]',
  select: selectRuns,
  create: (file) => perRunImporter(file, EXPECTED, (run, index, line) => readTrajectory(run, index, line, file)),
};
