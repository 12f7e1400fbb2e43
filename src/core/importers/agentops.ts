// AgentOps's trace export: the dashboard's "download trace as JSON" (`{"trace": {...}, "spans": [...]}`) and its v4
// API's trace detail (`{"trace_id", "spans": [...]}`). AgentOps stores the OTLP spans its SDK sends and serves their
// attributes nested by the dots of their keys (`gen_ai.prompt.0.content` → `{"gen_ai": {"prompt": [{"content"}]}}`).
// Each span is rewritten as the OTLP span it was (the attributes flattened back, ISO times as nanoseconds, the parallel
// event lists as events) with AgentOps's span kinds said in the GenAI conventions (`agentops.span.kind` agent, llm,
// tool), and read by the OTLP importer, so what it reads of a trace holds here too.
import { InputError } from '../errors';
import { asObject, asString, isoNanos, selectRuns } from './common';
import { otlpRewriter } from './otlp';
import type { FormatSpec } from './types';

/** An AgentOps span: its id, its name and its nested attributes. */
function isAgentOpsSpan(value: unknown): boolean {
  const o = asObject(value);
  return o !== undefined && typeof o.span_id === 'string' && typeof o.span_name === 'string' && asObject(o.span_attributes) !== undefined;
}

// Deeper or longer than any attribute key AgentOps sends (`gen_ai.prompt.0.content` is four levels): a hostile export's
// million levels would make keys a million levels long, each built from the last (quadratic); such levels are left out.
const MAX_DEPTH = 32;
const MAX_KEY = 1_000;
// The flattened keys of one export, in characters, against what its values hold: a key over thousands of short leaves
// is that many copies of it (a 16 MB export of one long key ran out of memory). Past KEY_FLOOR, keys may be at most
// KEY_RATIO times the export's own text of leaves (their values and about 8 characters of JSON each).
const KEY_FLOOR = 16 * 1024 * 1024;
const KEY_RATIO = 4;

/** One export's flattened keys and leaves so far, in characters. */
export interface KeyBudget {
  keys: number;
  leaves: number;
}

/**
 * A nested attribute object as the dotted keys it was sent with (`{"a": {"b": [x]}}` → `a.b.0`), without recursion;
 * levels below MAX_DEPTH and keys past MAX_KEY characters are left out, and an export whose keys outgrow its leaves
 * (`budget`, shared by its spans) is refused.
 */
export function dottedAttributes(nested: unknown, budget: KeyBudget = { keys: 0, leaves: 0 }): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null); // keys are trace text: "__proto__" must stay a key
  const pending: [string, unknown, number][] = [['', nested, 0]];
  while (pending.length > 0) {
    const [prefix, value, depth] = pending.pop()!;
    const children = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : asObject(value) ? Object.entries(value as object) : undefined;
    if (children === undefined) {
      if (prefix === '' || value === null) continue;
      out[prefix] = value;
      budget.keys += prefix.length;
      budget.leaves += (typeof value === 'string' ? value.length : 8) + 8;
      if (budget.keys > KEY_FLOOR && budget.keys > KEY_RATIO * budget.leaves) {
        throw new InputError('invalid-field', `span attributes whose keys add up to ${budget.keys} characters over ${budget.leaves} of values; no AgentOps export repeats its keys so`, undefined, undefined, 'span_attributes');
      }
    } else if (depth < MAX_DEPTH) {
      for (const [key, child] of children) {
        const dotted = prefix === '' ? key : `${prefix}.${key}`;
        if (dotted.length <= MAX_KEY) pending.push([dotted, child, depth + 1]);
      }
    }
  }
  return out;
}

/**
 * The GenAI operation an AgentOps span is: its kind (`agentops.span.kind`, as its instrumentations and decorators write
 * it), or for a span with none (smolagents') a tool call where it names its tool. CrewAI's `tool.usage` inside its
 * `tool` span is the same call.
 */
function operationOf(attributes: Record<string, unknown>, kind: string | undefined, parentKind: string | undefined): string | undefined {
  if (kind === 'agent') return 'invoke_agent';
  if (kind === 'llm') return 'chat';
  if (kind === 'tool' || (kind === 'tool.usage' && parentKind !== 'tool')) return 'execute_tool';
  return kind === undefined && asString(attributes['tool.name']) !== undefined ? 'execute_tool' : undefined;
}

/** A value the SDK's decorators recorded as JSON: a text is its JSON string literal (`"Done."`), read back as the text. */
function decorated(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*"[\s\S]*"\s*$/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

// AgentOps records content without an opt-in: an export without any recorded none.
const CAPTURE_ADVICE =
  'AgentOps records the prompts and completions of the LLM calls it instruments (gen_ai.prompt.N / gen_ai.completion.N) and what decorated agents and tools ' +
  'were handed and returned (agentops.entity.input / output), and these spans hold none: call agentops.init() before the agents run, with an LLM client or framework AgentOps instruments';

/** One AgentOps span as the OTLP span it was exported from; `kinds` holds every span's AgentOps kind by id. */
function otlpSpan(span: Record<string, unknown>, traceId: string, kinds: ReadonlyMap<string, string | undefined>, budget: KeyBudget): Record<string, unknown> {
  const attributes = dottedAttributes(span.span_attributes, budget);
  const kind = asString(attributes['agentops.span.kind']);
  const parentId = asString(span.parent_span_id) || undefined;
  const op = operationOf(attributes, kind, parentId === undefined ? undefined : kinds.get(parentId));
  // The SDK's decorators name the span `<name>.<kind>` and record `operation.name` and `agentops.<kind>.input/output`.
  const name = asString(span.span_name) ?? '';
  const named = asString(attributes['operation.name']) ?? name.replace(/\.(?:agent|tool)$/, '');
  const fill = (key: string, value: unknown) => {
    if (value !== undefined && !(key in attributes)) attributes[key] = value;
  };
  if (op !== undefined) attributes['gen_ai.operation.name'] = op;
  if (op === 'invoke_agent') {
    fill('gen_ai.agent.name', asString(attributes['agent.name']) ?? asString(attributes['agent.role']) ?? named);
    fill('input.value', decorated(attributes['agentops.agent.input']));
    fill('output.value', decorated(attributes['agentops.agent.output']));
  } else if (op === 'execute_tool') {
    fill('gen_ai.tool.name', asString(attributes['tool.name']) ?? named);
    fill('gen_ai.tool.call.arguments', attributes['tool.parameters'] ?? decorated(attributes['agentops.tool.input']));
    fill('gen_ai.tool.call.result', attributes['tool.result'] ?? decorated(attributes['agentops.tool.output']));
  }
  const names = Array.isArray(span.event_names) ? span.event_names : [];
  const times = Array.isArray(span.event_timestamps) ? span.event_timestamps : [];
  const eventAttributes = Array.isArray(span.event_attributes) ? span.event_attributes : [];
  return {
    traceId,
    spanId: span.span_id,
    parentSpanId: parentId,
    name,
    startTimeUnixNano: isoNanos(span.start_time),
    endTimeUnixNano: isoNanos(span.end_time),
    attributes,
    events: names.map((event, i) => ({ name: asString(event) ?? '', timeUnixNano: isoNanos(times[i]), attributes: dottedAttributes(eventAttributes[i], budget) })),
  };
}

/** One export as the OTLP spans it was. */
function agentOpsSpans(value: unknown, line: number, file?: string): Record<string, unknown>[] {
  const o = asObject(value);
  if (!o || !Array.isArray(o.spans)) throw new InputError('missing-field', 'expected an AgentOps trace export ({"trace": {...}, "spans": [...]})', file, line, 'spans');
  const spans = o.spans.map(asObject);
  const at = spans.findIndex((span) => !span || !isAgentOpsSpan(span));
  // Said in AgentOps's words, before the OTLP reader would say it in its own.
  if (at >= 0) throw new InputError('invalid-field', `spans[${at}] is not an AgentOps span; expected span_id, span_name and span_attributes`, file, line, 'span_id');
  const traceId = asString(asObject(o.trace)?.trace_id) ?? asString(o.trace_id);
  if (!traceId) throw new InputError('missing-field', 'missing the trace\'s id ("trace": {"trace_id"}, or "trace_id"); expected an AgentOps trace export', file, line, 'trace_id');
  const kinds = new Map(spans.map((span) => [span!.span_id as string, asString(asObject(asObject(asObject(span!.span_attributes)?.agentops)?.span)?.kind)]));
  const budget: KeyBudget = { keys: 0, leaves: 0 };
  try {
    return spans.map((span) => otlpSpan(span!, traceId, kinds, budget));
  } catch (error) {
    throw error instanceof InputError && error.file === undefined ? new InputError(error.kind, error.message, file, line, error.field) : error;
  }
}

export const agentOpsFormat: FormatSpec = {
  title: 'AgentOps trace export (the dashboard\'s JSON download, the v4 API\'s trace)',
  aliases: [],
  detect: {
    record: (o) => Array.isArray(o.spans) && o.spans.some(isAgentOpsSpan),
    keys: 'spans[].span_id and spans[].span_attributes',
    signature: /^\s*[[{][\s\S]{0,8000}?"span_attributes"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'an AgentOps trace export ({"trace": {...}, "spans": [{"span_id", "span_name", "span_attributes"}]}) of a traced agent run',
  // A whole export at once (a span's kind is read against its parent's), or each of an array of them.
  select: selectRuns,
  create: (file) => otlpRewriter(file, 'no spans found; expected an AgentOps trace export ({"trace": {...}, "spans": [...]})', (value, line) => agentOpsSpans(value, line, file), CAPTURE_ADVICE),
};
