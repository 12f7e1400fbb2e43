// Pieces every importer shares: pulling text out of chat-message shapes, grouping deliveries into causal rounds,
// and writing an episode as agent-trace/v1 records.
import type { AgentInfo, TaskInfo, TraceWarning } from '../trace/types';
import { InputError } from '../errors';
import type { Episode, Importer, JsonPath, SourcedRecord } from './types';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** A JSON object, or undefined. */
export function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A non-empty string, or undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Parses a JSON-encoded attribute when it is a string; returns other values unchanged. */
export function maybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Text of a content value: a string, or a list of parts where only text parts count. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    const p = asObject(part);
    if (!p) continue;
    if (p.type !== undefined && p.type !== 'text' && p.type !== 'input_text' && p.type !== 'output_text') continue;
    const text = asString(p.content) ?? asString(p.text);
    if (text !== undefined) texts.push(text);
  }
  return texts.length ? texts.join('\n') : undefined;
}

/** Text of one chat message in the shapes we meet: OTel GenAI parts, OpenAI content, LangChain (serialised or dict). */
export function messageText(message: unknown, depth = 0): string | undefined {
  if (typeof message === 'string') return message;
  const m = asObject(message);
  // A message wrapped in kwargs or data a few levels deep is real; thousands of levels are an attack on the stack.
  if (!m || depth > MAX_MESSAGE_NESTING) return undefined;
  const text = contentText(m.parts) ?? contentText(m.content) ?? messageText(asObject(m.kwargs), depth + 1) ?? messageText(asObject(m.data), depth + 1);
  return text ?? asString(m.text) ?? recordsText(m.content);
}

/** A content list of plain records (a LangChain tool message's search results: `[{"url", "title"}]`), laid out; not media parts. */
function recordsText(content: unknown): string | undefined {
  const records = Array.isArray(content) && content.length > 0 && content.every((part) => asObject(part) !== undefined && asObject(part)!.type === undefined);
  return records ? dataText(content) : undefined;
}

/** How deep `kwargs` / `data` wrappers of one message are followed. */
const MAX_MESSAGE_NESTING = 8;

/** The role of a chat message: OTel/OpenAI `role`, LangChain `type` ("human", "ai") or class name. */
export function messageRole(message: unknown): string | undefined {
  const m = asObject(message);
  if (!m) return undefined;
  const kw = asObject(m.kwargs);
  const role = asString(m.role) ?? asString(kw?.type) ?? (m.type !== 'constructor' ? asString(m.type) : undefined);
  if (role) return { human: 'user', ai: 'assistant' }[role] ?? role;
  const id = Array.isArray(m.id) ? m.id[m.id.length - 1] : undefined;
  if (id === 'HumanMessage') return 'user';
  if (id === 'AIMessage') return 'assistant';
  return typeof id === 'string' ? id.replace(/Message$/, '').toLowerCase() : undefined;
}

/** Text of the last message in a list whose role is one of `roles` (any role when omitted). */
export function lastMessageText(messages: unknown, roles?: string[]): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (roles && !roles.includes(messageRole(messages[i]) ?? '')) continue;
    const text = messageText(messages[i]);
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

const OUTPUT_KEYS = ['output', 'answer', 'response', 'result', 'text', 'content', 'final_answer'];

/** Best text for a run's inputs or outputs: last message, a well-known key, the only key, else compact JSON. */
export function valueText(value: unknown, depth = 0): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value !== 'object') return String(value);
  if (depth > 4) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return lastMessageText(value) ?? valueText(value[value.length - 1], depth + 1);
  }
  const o = value as Json;
  if (Array.isArray(o.messages)) return lastMessageText(o.messages) ?? undefined;
  if (o.lc !== undefined || ((o.role !== undefined || o.type !== undefined) && (o.content !== undefined || o.parts !== undefined))) return messageText(o);
  if (Array.isArray(o.generations)) return valueText(o.generations.flat(), depth + 1);
  for (const key of OUTPUT_KEYS) if (o[key] !== undefined) return valueText(o[key], depth + 1);
  // CrewAI's TaskOutput / CrewOutput: the text is `raw` (LangChain's structured output also has a `raw`, a message).
  if (typeof o.raw === 'string' && o.raw.trim() !== '' && ('output_format' in o || 'tasks_output' in o)) return o.raw;
  const keys = Object.keys(o);
  if (keys.length === 0) return undefined;
  if (keys.length === 1) return valueText(o[keys[0]], depth + 1);
  return JSON.stringify(value);
}

/**
 * A JSON value too large or deep to lay out, as one `key: value` line per scalar in document order (a string's line
 * breaks kept), walked without recursion: its strings still read as text, however the result was padded.
 */
function leafLines(value: unknown): string[] {
  const lines: string[] = [];
  const pending: [string, unknown][] = [['-', value]];
  while (pending.length > 0) {
    const [key, item] = pending.pop()!;
    if (item === null || typeof item !== 'object') lines.push(`${key}: ${String(item)}`);
    else {
      const entries = Array.isArray(item) ? item.map((child): [string, unknown] => ['-', child]) : Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) pending.push(entries[i]);
    }
  }
  return lines;
}

/**
 * A JSON value (within LAYOUT_LIMITS) as YAML-like lines (`key: value`, `- item`, a string's own line breaks kept), as
 * AgentDojo's tools print their results: every field kept, and the strings read as the text they are rather than as
 * escaped JSON (an instruction inside `{"result": "…"}` reads as one).
 */
function laidOut(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return String(value).split('\n');
  const entries: [string | undefined, unknown][] = Array.isArray(value) ? value.map((item) => [undefined, item]) : Object.entries(value);
  if (entries.length === 0) return [Array.isArray(value) ? '[]' : '{}'];
  const lines: string[] = [];
  for (const [key, item] of entries) {
    const inner = laidOut(item);
    const nested = item !== null && typeof item === 'object' && inner.length > 1;
    const first = key === undefined ? `- ${inner[0]}` : nested ? `${key}:` : `${key}: ${inner[0]}`;
    lines.push(first);
    for (let i = nested && key !== undefined ? 0 : 1; i < inner.length; i++) lines.push(`  ${inner[i]}`);
  }
  return lines;
}

/** The largest JSON result laid out as lines (depth, values); a deeper or larger one is read as its scalars' lines. */
const LAYOUT_LIMITS = { depth: 16, values: 10_000 };

/** Whether `value` is within LAYOUT_LIMITS, walked without recursion (a hostile result can nest thousands deep). */
function layoutFits(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let seen = 0; pending.length > 0; seen++) {
    const [item, depth] = pending.pop()!;
    if (seen > LAYOUT_LIMITS.values || depth > LAYOUT_LIMITS.depth) return false;
    if (item !== null && typeof item === 'object') for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}

/** A JSON record or list as the lines a model is shown (laid out within LAYOUT_LIMITS, else one line per scalar). */
export function dataText(value: unknown): string {
  return (layoutFits(value) ? laidOut(value) : leafLines(value)).join('\n');
}

/** One delivered output before rounds are known: `from` sent `content` to `to` at `time`. */
export interface Delivery {
  from: string;
  to?: string[];
  content: string;
  /** Sort key (epoch ms or ns, or a step); ties keep `seq` order. */
  time: number;
  seq: number;
  line: number;
  ts?: string;
  round?: number;
  /**
   * An orchestrator handing work to the agent it invokes (OTLP): handing out work is not speaking, so it opens no
   * round; a `fresh` hand-off (not a repeat of the orchestrator's earlier ones) is heard, so the reply comes a round later.
   */
  handoff?: 'fresh' | 'repeat';
  /** The agents this output reached later, relayed inside an orchestrator's hand-off, and when. */
  relayed?: { to: string; time: number }[];
}

/**
 * Groups time-ordered deliveries into rounds the way the guard reads them: a new round starts when an agent speaks
 * again or answers something it received in the current round, so round k holds outputs that could only see round < k.
 * A hand-off belongs to the round before its reply; an output relayed to an agent counts as heard when it is relayed.
 */
export function assignCausalRounds(deliveries: Delivery[]): Delivery[] {
  const sorted = [...deliveries].sort(inTimeOrder);
  const receipts = sorted.flatMap((source) => (source.relayed ?? []).map(({ to, time }) => ({ source, to, time })));
  const events = [...sorted.map((d) => ({ time: d.time, seq: d.seq, d })), ...receipts.map((r) => ({ time: r.time, seq: -1, r }))];
  let round = 0;
  const spoke = new Set<string>();
  const heard = new Set<string>();
  for (const event of events.sort(inTimeOrder)) {
    if ('r' in event) {
      // Heard now only if it is this round's output: an earlier round's output is what this round may build on.
      if (event.r.source.round === round) heard.add(event.r.to);
      continue;
    }
    const d = event.d;
    if (d.handoff) {
      d.round = round;
      if (d.handoff === 'fresh') for (const to of d.to ?? []) heard.add(to);
      continue;
    }
    if (spoke.has(d.from) || heard.has(d.from)) {
      round++;
      spoke.clear();
      heard.clear();
    }
    d.round = round;
    spoke.add(d.from);
    // Who it was relayed to hears it when it is relayed (above), not now.
    for (const to of d.to ?? []) if (!d.relayed?.some((r) => r.to === to)) heard.add(to);
  }
  // From the end: each agent's next own output is the reply to a hand-off it was given.
  const nextOutput = new Map<string, Delivery>();
  for (let i = sorted.length - 1; i >= 0; i--) {
    const d = sorted[i];
    if (!d.handoff) nextOutput.set(d.from, d);
    else {
      const reply = d.to?.length === 1 ? nextOutput.get(d.to[0]) : undefined;
      if (reply) d.round = Math.max(0, reply.round! - 1);
    }
  }
  // Stable: deliveries keep their time order within a round.
  return sorted.sort((a, b) => a.round! - b.round!);
}

/** Deliveries by time, ties in `seq` order. */
export function inTimeOrder(a: { time: number; seq: number }, b: { time: number; seq: number }): number {
  return a.time - b.time || a.seq - b.seq;
}

/** What an episode's header says. */
export interface EpisodeHeader {
  run?: string;
  task?: TaskInfo;
  agents: AgentInfo[];
  edges?: [string, string][];
}

/** Writes an episode as agent-trace/v1 records: header, messages (rounds assigned), labels. */
export function buildEpisode(id: string, header: EpisodeHeader, messages: Delivery[], labels: SourcedRecord[], warnings: TraceWarning[]): Episode {
  const head: Json = { type: 'header', schema: 'agent-trace/v1', run: header.run ?? id, agents: header.agents.map(cleanAgent) };
  if (header.task && (header.task.question !== undefined || header.task.answer !== undefined)) head.task = header.task;
  if (header.edges) head.edges = header.edges;
  const records: SourcedRecord[] = [{ record: head, line: messages[0]?.line ?? 1 }];
  for (const m of messages) {
    const record: Json = { type: 'message', round: m.round ?? 0, from: m.from };
    if (m.to) record.to = m.to;
    record.content = m.content;
    if (m.ts) record.ts = m.ts;
    records.push({ record, line: m.line });
  }
  return { id, records: [...records, ...labels], warnings };
}

function cleanAgent(agent: AgentInfo): Json {
  const out: Json = { id: agent.id };
  if (agent.role !== undefined) out.role = agent.role;
  if (agent.systemPrompt !== undefined) out.systemPrompt = agent.systemPrompt;
  return out;
}

/** Remembers agents in first-seen order, keeping the first role/prompt given for each. */
export class AgentRegistry {
  private readonly agents = new Map<string, AgentInfo>();

  /** Adds or completes an agent. */
  see(id: string, info: Omit<AgentInfo, 'id'> = {}): void {
    const known = this.agents.get(id);
    if (!known) this.agents.set(id, { id, ...stripUndefined(info) });
    else {
      known.role ??= info.role;
      known.systemPrompt ??= info.systemPrompt;
    }
  }

  /** The agents among `ids`, in first-seen order. */
  only(ids: Set<string>): AgentInfo[] {
    return [...this.agents.values()].filter((a) => ids.has(a.id));
  }

  /** Every agent id, in first-seen order. */
  ids(): string[] {
    return [...this.agents.keys()];
  }
}

function stripUndefined(info: Omit<AgentInfo, 'id'>): Omit<AgentInfo, 'id'> {
  const out: Omit<AgentInfo, 'id'> = {};
  if (info.role !== undefined) out.role = info.role;
  if (info.systemPrompt !== undefined) out.systemPrompt = info.systemPrompt;
  return out;
}

/** The ids an episode's messages mention (senders and receivers). */
export function mentioned(messages: Delivery[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    ids.add(m.from);
    for (const to of m.to ?? []) ids.add(to);
  }
  return ids;
}

/** Parses a timestamp (ISO text, epoch seconds/ms/ns as number or text) to epoch ms; NaN when absent. */
export function toMillis(value: unknown): number {
  if (typeof value === 'number') return value > 1e17 ? value / 1e6 : value > 1e14 ? value / 1e3 : value > 1e11 ? value : value * 1000;
  if (typeof value !== 'string' || value === '') return NaN;
  if (/^\d+$/.test(value)) return toMillis(Number(value));
  // Python's isoformat without zone and "YYYY-MM-DD HH:MM:SS.ffffff" are read as UTC.
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  const hasZone = /(Z|[+-]\d\d:?\d\d)$/.test(iso);
  return Date.parse(hasZone ? iso : iso + 'Z');
}

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

/** An ISO time with up to nanoseconds (AgentOps writes microseconds) as OTLP's nanoseconds since the epoch, as text. */
export function isoNanos(value: unknown): string | undefined {
  const match = typeof value === 'string' ? ISO.exec(value) : null;
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}${match[3] ?? 'Z'}`);
  if (!Number.isFinite(ms)) return undefined;
  return String(BigInt(ms) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0')));
}

/** The document layout's selection for files of runs: the top-level object, or each item of a top-level array. */
export function selectRuns(path: JsonPath, isArray: boolean): boolean {
  return (path.length === 0 && !isArray) || (path.length === 1 && typeof path[0] === 'number');
}

/**
 * An importer of files whose every selected value is one run: `read` maps run number `index` (throwing InputError
 * that names it); a value that is not an object, or a file without runs, is refused with `expected`.
 */
export function perRunImporter(file: string | undefined, expected: string, read: (run: Json, index: number, line: number) => Episode | undefined): Importer {
  const episodes: Episode[] = [];
  let count = 0;
  return {
    add(value, line) {
      const run = asObject(value);
      if (!run) throw new InputError('invalid-field', `run ${count} is not an object; ${expected}`, file, line);
      // `read` passes over a record that is no run (a file's header of metadata) by returning undefined.
      const episode = read(run, count, line);
      if (!episode) return;
      count++;
      episodes.push(episode);
    },
    take: () => episodes.splice(0),
    finish() {
      if (count === 0) throw new InputError('empty', `no runs found; ${expected}`, file);
      return episodes.splice(0);
    },
  };
}
