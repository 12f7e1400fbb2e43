// mozilla-ai/any-agent's AgentTrace as `agent_trace.model_dump_json()` saves it: `{"spans": [...], "final_output": …}`,
// one agent run. Its spans are read by the OTLP importer, which reads an AgentSpan as it reads a ConsoleSpanExporter
// span (ids under `context`, here integers; the parent's under `parent`) and knows any-agent's attributes (`call_llm`,
// `gen_ai.output`, `gen_ai.tool.args`), so an OTLP export of the same run reads the same; this reader adds what only
// the whole AgentTrace says (which run each span belongs to, and the run's final output).
import { InputError } from '../errors';
import { asObject, asString, selectRuns, type Json } from './common';
import { otlpRewriter } from './otlp';
import type { FormatSpec } from './types';

/** An AgentSpan: a name, ids under `context`, attributes as an object. */
function isAgentSpan(value: unknown): boolean {
  const o = asObject(value);
  return o !== undefined && typeof o.name === 'string' && asObject(o.context)?.span_id !== undefined && asObject(o.attributes) !== undefined;
}

const EXPECTED = 'an any-agent AgentTrace ({"spans": [...], "final_output": ...}, as agent_trace.model_dump_json() writes it)';

/** What to do when a trace's spans hold no content: any-agent records it always, so the run made no model call. */
const CAPTURE_ADVICE =
  'any-agent records content on every call_llm and execute_tool span (gen_ai.input.messages, gen_ai.output, gen_ai.tool.args) with no opt-in; ' +
  'a trace without them ended before its first model call (the run failed: its error is on the invoke_agent span)';

/** An id (an integer as parsed, or text) as a key to compare with the trace's other ids. */
const key = (id: unknown) => (typeof id === 'number' || typeof id === 'string' ? String(id) : undefined);

/**
 * One AgentTrace as the spans the OTLP importer reads. Every span of an AgentTrace was recorded in its run (any-agent
 * keeps a trace per `invoke_agent` span), yet some frameworks' spans name as parent a span of the framework's own,
 * which the AgentTrace does not hold (Google ADK's `call_llm` and `execute_tool` spans sit under ADK's own): such a
 * span is given the run's `invoke_agent` span as its parent. The run's `final_output` is that span's output
 * (`gen_ai.output`), what the agent answered.
 */
function anyAgentSpans(value: unknown, line: number, file?: string): Json[] {
  const trace = asObject(value);
  if (!trace || !Array.isArray(trace.spans)) throw new InputError('missing-field', `missing "spans"; expected ${EXPECTED}`, file, line, 'spans');
  const spans = trace.spans.map(asObject);
  const at = spans.findIndex((span) => !span || !isAgentSpan(span) || key(asObject(span.context)?.span_id) === undefined || key(asObject(span.context)?.trace_id) === undefined);
  // Said in any-agent's words, before the OTLP reader would say it in its own.
  if (at >= 0) throw new InputError('invalid-field', `spans[${at}] is not an any-agent span; expected name, context.trace_id, context.span_id and attributes`, file, line, 'spans');
  const ids = new Set(spans.map((span) => key(asObject(span!.context)!.span_id)));
  const runs = spans.filter((span) => asObject(span!.attributes)!['gen_ai.operation.name'] === 'invoke_agent' && !ids.has(key(asObject(span!.parent)?.span_id) ?? ''));
  const run = runs.length === 1 ? runs[0]! : undefined;
  const finalOutput = typeof trace.final_output === 'string' || trace.final_output === null ? asString(trace.final_output) : JSON.stringify(trace.final_output);
  return spans.map((raw) => {
    const span = raw!;
    const context = asObject(span.context)!;
    const parent = key(asObject(span.parent)?.span_id);
    const adopted = run !== undefined && span !== run && (parent === undefined || !ids.has(parent));
    const attributes: Json = Object.assign(Object.create(null) as Json, asObject(span.attributes));
    if (span === run && finalOutput !== undefined && attributes['gen_ai.output'] === undefined) attributes['gen_ai.output'] = finalOutput;
    return {
      name: span.name,
      context: { trace_id: context.trace_id, span_id: context.span_id },
      parent: { span_id: adopted ? asObject(run.context)!.span_id : asObject(span.parent)?.span_id },
      startTimeUnixNano: span.start_time,
      endTimeUnixNano: span.end_time,
      attributes,
      events: Array.isArray(span.events) ? span.events : [],
    };
  });
}

export const anyAgentFormat: FormatSpec = {
  title: 'any-agent AgentTrace JSON (mozilla-ai/any-agent)',
  aliases: ['anyagent', 'any_agent'],
  detect: {
    record: (o) => Array.isArray(o.spans) && o.spans.some(isAgentSpan),
    keys: 'spans[].context.span_id and spans[].attributes',
    // As pydantic writes an AgentSpan: its name, then its kind in any-agent's words.
    signature: /^\s*\{\s*"spans"\s*:\s*\[\s*\{\s*"name"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"kind"\s*:\s*"(?:internal|server|client|producer|consumer)"/,
    loneObjectIsDocument: true,
  },
  expects: `${EXPECTED} of an agent run`,
  // A whole trace at once (a span's parent is read against the run's other spans), or each of an array of them.
  select: selectRuns,
  create: (file) => otlpRewriter(file, `no spans found; expected ${EXPECTED}`, (value, line) => anyAgentSpans(value, line, file), CAPTURE_ADVICE),
};
