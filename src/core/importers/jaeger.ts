// Jaeger's trace JSON (what the Jaeger UI downloads and its /api/traces returns, Grafana's Jaeger data source too):
// `{"data": [{traceID, spans, processes}]}`. Each span is rewritten as the OTLP span it was before Jaeger stored it
// (tags → attributes, logs → events named by their `event` field, the CHILD_OF reference → parent, microseconds →
// nanoseconds) and read by the OTLP importer, so every GenAI convention it knows holds here too.
import { InputError } from '../errors';
import { asObject, asString } from './common';
import { otlpRewriter } from './otlp';
import type { FormatSpec, JsonPath } from './types';

/** A trace as Jaeger writes it: its id and its spans. */
function isJaegerTrace(value: unknown): boolean {
  const o = asObject(value);
  return o !== undefined && typeof o.traceID === 'string' && Array.isArray(o.spans);
}

/** Jaeger's key-value list (`[{key, type, value}]`) as an attribute object. */
function keyValues(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null); // keys are trace text: "__proto__" must stay a key
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    const kv = asObject(item);
    const key = kv && asString(kv.key);
    if (key !== undefined) out[key] = kv!.value;
  }
  return out;
}

/** Microseconds since the epoch (a number, or its digits as text) as OTLP's nanoseconds (text); undefined where not a whole number. */
function nanos(micros: unknown): string | undefined {
  if (typeof micros === 'string' && /^\d{1,20}$/.test(micros)) return String(BigInt(micros) * 1000n);
  return typeof micros === 'number' && Number.isSafeInteger(micros) && micros >= 0 ? String(BigInt(micros) * 1000n) : undefined;
}

/** One Jaeger span as the OTLP span it was exported from. */
function otlpSpan(raw: unknown, traceId: string): Record<string, unknown> | undefined {
  const span = asObject(raw);
  if (!span) return undefined;
  const parent = Array.isArray(span.references) ? span.references.map(asObject).find((r) => r?.refType === 'CHILD_OF') : undefined;
  const start = nanos(span.startTime);
  const duration = nanos(span.duration);
  const end = start !== undefined && duration !== undefined ? String(BigInt(start) + BigInt(duration)) : undefined;
  return {
    traceId: asString(span.traceID) ?? traceId,
    spanId: asString(span.spanID),
    parentSpanId: asString(parent?.spanID),
    name: asString(span.operationName) ?? '',
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: keyValues(span.tags),
    events: (Array.isArray(span.logs) ? span.logs : []).map((log) => {
      const { event, ...attributes } = keyValues(asObject(log)?.fields);
      return { name: asString(event) ?? '', timeUnixNano: nanos(asObject(log)?.timestamp), attributes };
    }),
  };
}

/** Each trace of a download (one `{"data": [...]}` page, or one trace of it) as the OTLP spans it was. */
function jaegerSpans(value: unknown, line: number, file?: string): Record<string, unknown>[] {
  const o = asObject(value);
  // One trace of a download, or (JSON Lines) a whole `{"data": [...]}` page a line.
  const traces = o && Array.isArray(o.data) ? o.data : [o];
  return traces.flatMap((item) => {
    const trace = asObject(item);
    if (!trace || !isJaegerTrace(trace)) throw new InputError('invalid-field', 'expected a Jaeger trace (traceID, spans)', file, line, 'traceID');
    const spans = (trace.spans as unknown[]).map((span) => otlpSpan(span, trace.traceID as string));
    // Said in Jaeger's words, before the OTLP reader would say it in its own.
    if (spans.some((span) => !span?.spanId)) throw new InputError('missing-field', 'span without "spanID"; expected Jaeger spans (traceID, spanID, operationName, tags)', file, line, 'spanID');
    return spans as Record<string, unknown>[];
  });
}

/** Each trace of `{"data": [...]}` (one at a time: an export of thousands of traces never sits whole). */
function selectTraces(path: JsonPath): boolean {
  return path.length === 2 && path[0] === 'data' && typeof path[1] === 'number';
}

export const jaegerFormat: FormatSpec = {
  title: 'Jaeger trace JSON (the Jaeger UI\'s download, /api/traces)',
  aliases: ['jaeger-ui'],
  detect: {
    record: (o) => Array.isArray(o.data) && o.data.some(isJaegerTrace),
    keys: 'data[].traceID and data[].spans',
    signature: /^\s*\{\s*"data"\s*:\s*\[\s*\{[\s\S]{0,4000}?"traceID"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'a Jaeger trace export ({"data": [{"traceID", "spans": [...], "processes"}]}) whose spans carry gen_ai.* or openinference.* tags',
  select: selectTraces,
  create: (file) => otlpRewriter(file, 'no spans found; expected a Jaeger trace export ({"data": [{"traceID", "spans": [...]}]})', (value, line) => jaegerSpans(value, line, file)),
};
