// Reads SWE-agent trajectories (`*.traj`: `{environment, trajectory, history, info}`): one model working through a
// shell and its tools. The harness's system prompt is the assistant's, not an agent; the first task message is the
// user's, but for the harness's own instructions after it (`INSTRUCTIONS:`), which are the assistant's prompt too; each
// observation comes from the command (or, with function calling, the tool) the assistant ran. Messages marked `is_demo`
// are demonstrations copied into the context, not this run's.
import { InputError } from '../errors';
import { asObject, asString, assignCausalRounds, buildEpisode, maybeJson, perRunImporter, selectRuns, type Json } from './common';
import { toolChat } from './toolChat';
import type { Episode, FormatSpec } from './types';

const EXPECTED = 'expected a SWE-agent trajectory: {history: [{role, content, agent}], trajectory, info}';

/** The command an action runs, as a tool's name: `open server.py` → `open`. */
function commandOf(action: string): string {
  return /^\s*([\w.-]+)/.exec(action)?.[1] ?? 'shell';
}

/** Where the harness's instructions start in the task message (SWE-agent's instance templates: "INSTRUCTIONS:"). */
const HARNESS_INSTRUCTIONS = /\n[ \t]*INSTRUCTIONS:[ \t]*\n/;

/** The history in toolChat's shape: observations as the results of the commands (or tool calls) the assistant made. */
function chatOf(history: readonly unknown[]): Json[] {
  const messages: Json[] = [];
  let system: Json | undefined;
  let asked = false;
  let lastCall: string | undefined;
  for (const [i, raw] of history.entries()) {
    const m = asObject(raw);
    if (!m || m.is_demo === true) continue;
    const role = asString(m.role);
    if (role === 'system') {
      system = { role: 'system', content: asString(m.content) ?? '' };
      messages.push(system);
    } else if (role === 'assistant') {
      const calls = maybeJson(m.tool_calls);
      // Without function calling the action is a command line written in the reply: its observation is its result
      // (a reply that names no action ran the shell).
      lastCall = Array.isArray(calls) && calls.length > 0 ? undefined : `action-${i}`;
      messages.push({ role: 'assistant', content: m.content, tool_calls: lastCall ? [{ id: lastCall, function: commandOf(asString(m.action) ?? '') }] : calls });
    } else if (role === 'tool') {
      const ids = maybeJson(m.tool_call_ids);
      messages.push({ role: 'tool', content: m.content, tool_call_id: Array.isArray(ids) ? asString(ids[0]) : asString(m.tool_call_id), name: asString(m.name) });
    } else if (role === 'user' && !asked) {
      // The task: the issue (anyone's words, scored as the user's) before the harness's instructions (its prompt).
      const text = asString(m.content) ?? '';
      const at = text.search(HARNESS_INSTRUCTIONS);
      if (at > 0 && system) system.content = `${String(system.content)}\n\n${text.slice(at).trim()}`;
      messages.push({ role: 'user', content: at > 0 && system ? text.slice(0, at) : m.content });
      asked = true;
    } else if (role === 'user') {
      // Later ones are the observations of the commands run.
      messages.push(lastCall ? { role: 'tool', content: m.content, tool_call_id: lastCall } : { role: 'user', content: m.content });
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
