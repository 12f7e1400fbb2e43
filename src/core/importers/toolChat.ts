// A chat with tools (OpenAI-style, AgentDojo or tau2-bench messages: system, user, assistant with tool calls, tool
// results) as agents and deliveries: the user, the assistant, and one agent per tool function, so a poisoned tool result
// is a node of its own and the calls carry the arguments the caller chose (the assistant's; in tau2-bench the user's too).
import type { AgentInfo } from '../trace/types';
import { asObject, asString, contentText, maybeJson, type Delivery } from './common';

/** The user who gives the task. */
export const USER_AGENT = 'user';
/** The model that answers and calls tools. */
export const ASSISTANT_AGENT = 'assistant';

/** Agent id of a tool function. */
export function toolAgentId(name: string): string {
  return `tool:${name}`;
}

/** The agents, deliveries (rounds not yet assigned) and the user's first request of one chat with tools. */
export interface ToolChat {
  agents: AgentInfo[];
  deliveries: Delivery[];
  question?: string;
}

/** A tau2-bench tool result's `requestor`: who called the tool, and so who reads its result. */
const REQUESTORS: ReadonlyMap<unknown, string> = new Map([
  ['user', USER_AGENT],
  ['assistant', ASSISTANT_AGENT],
]);

interface ToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** Maps a list of chat messages; `line` is the source line every delivery is reported at. */
export function toolChat(messages: readonly unknown[], line: number, assistantRole?: string): ToolChat {
  const agents = new Map<string, AgentInfo>([
    [USER_AGENT, { id: USER_AGENT, role: 'user' }],
    [ASSISTANT_AGENT, { id: ASSISTANT_AGENT, role: assistantRole ?? 'assistant' }],
  ]);
  const callNames = new Map<string, string>();
  /** Call id -> the agent that made the call (tau2-bench's simulated user has tools of its own). */
  const callers = new Map<string, string>();
  const deliveries: Delivery[] = [];
  let question: string | undefined;
  const deliver = (from: string, to: string[], content: string) => deliveries.push({ from, to, content, time: deliveries.length, seq: deliveries.length, line });

  for (const raw of messages) {
    const m = asObject(raw);
    if (!m) continue;
    const role = asString(m.role);
    const text = contentText(m.content) ?? '';
    if (role === 'system') {
      agents.get(ASSISTANT_AGENT)!.systemPrompt ??= text || undefined;
    } else if (role === 'user' || role === 'assistant') {
      const from = role === 'user' ? USER_AGENT : ASSISTANT_AGENT;
      if (from === USER_AGENT) question ??= text || undefined;
      const calls = toolCalls(m.tool_calls);
      for (const call of calls) {
        if (call.id) {
          callNames.set(call.id, call.name);
          callers.set(call.id, from);
        }
        agents.set(toolAgentId(call.name), { id: toolAgentId(call.name), role: 'tool' });
      }
      const content = [text, ...calls.map((call) => callText(call.name, call.args))].filter((part) => part !== '').join('\n');
      deliver(from, calls.length > 0 ? [...new Set(calls.map((c) => toolAgentId(c.name)))] : [from === USER_AGENT ? ASSISTANT_AGENT : USER_AGENT], content);
    } else if (role === 'tool') {
      const call = asObject(m.tool_call);
      // tau2-bench names the call a result answers by `id`, and who made it by `requestor`.
      const callId = asString(m.tool_call_id) ?? asString(m.id) ?? '';
      const name = asString(m.name) ?? asString(call?.function) ?? callNames.get(callId) ?? 'unknown';
      const id = toolAgentId(name);
      if (!agents.has(id)) agents.set(id, { id, role: 'tool' });
      const caller = REQUESTORS.get(m.requestor) ?? callers.get(callId) ?? ASSISTANT_AGENT;
      const error = asString(m.error);
      deliver(id, [caller], error && text === '' ? `error: ${error}` : text);
    }
  }
  return { agents: [...agents.values()], deliveries, question };
}

/** Tool calls in AgentDojo ({function, args}), OpenAI ({function: {name, arguments}}) or tau2-bench ({name, arguments}) shape. */
function toolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  const calls: ToolCall[] = [];
  for (const item of value) {
    const c = asObject(item);
    if (!c) continue;
    const fn = asObject(c.function);
    const name = asString(c.function) ?? asString(fn?.name) ?? asString(c.name);
    if (!name) continue;
    calls.push({ id: asString(c.id), name, args: c.args ?? maybeJson(fn?.arguments ?? c.arguments) ?? {} });
  }
  return calls;
}

/** A call as the model wrote it, on one line: name(key="value", ...); arguments that are no object are quoted whole. */
export function callText(name: string, args: unknown): string {
  const fields = asObject(args);
  const list = fields ? Object.entries(fields).map(([key, value]) => `${key}=${JSON.stringify(value)}`) : args === undefined ? [] : [JSON.stringify(args)];
  return `${name}(${list.join(', ')})`;
}
