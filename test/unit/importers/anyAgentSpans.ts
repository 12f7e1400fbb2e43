// any-agent's AgentTrace as the importer tests read it, and its spans one a line as an OTLP reader gets them.
import { readFileSync } from 'node:fs';

/** A span of an AgentTrace as pydantic writes it (the fields the tests use). */
export interface AgentSpan {
  name: string;
  parent: { span_id: number | null };
  context: { trace_id: number; span_id: number };
  start_time: number;
  end_time: number;
  attributes: Record<string, unknown>;
}

/** `agent_trace.model_dump_json()`. */
export interface AgentTrace {
  spans: AgentSpan[];
  final_output: unknown;
}

export const loadAgentTrace = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as AgentTrace;

/** The trace's spans one a line, as each AgentSpan's `model_dump_json()` writes it. */
export const spanLines = (trace: AgentTrace) => trace.spans.map((span) => JSON.stringify(span)).join('\n') + '\n';

/** The trace's spans one a line as ConsoleSpanExporter writes them with a one-line formatter ("0x…" ids, `parent_id`, ISO times). */
export function consoleLines(trace: AgentTrace): string {
  const hex = (id: number, width: number) => `0x${BigInt(id).toString(16).padStart(width, '0')}`;
  const iso = (ns: number) => new Date(ns / 1e6).toISOString();
  const line = (span: AgentSpan) =>
    JSON.stringify({
      name: span.name,
      context: { trace_id: hex(span.context.trace_id, 32), span_id: hex(span.context.span_id, 16), trace_state: '[]' },
      kind: 'SpanKind.INTERNAL',
      parent_id: span.parent.span_id === null ? null : hex(span.parent.span_id, 16),
      start_time: iso(span.start_time),
      end_time: iso(span.end_time),
      status: { status_code: 'OK' },
      attributes: span.attributes,
      events: [],
      links: [],
    });
  return trace.spans.map(line).join('\n') + '\n';
}
