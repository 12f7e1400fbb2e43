// Langfuse's trace with its observations: the UI's trace download merged with its observations (`{"trace": {...},
// "observations": [...]}`) and the public API's trace detail (`GET /api/public/traces/{id}`: the trace's fields with
// `observations` among them). Langfuse keeps a span it received over OpenTelemetry as an observation: its attributes
// under `metadata.attributes` (less the input and output, which become the observation's own), the SDK's other
// metadata beside them, and its kind as the observation's `type`. Each observation is rewritten as that OTLP span again
// (the type said as an OpenInference span kind where the attributes give none, the input and output as `input.value`
// and `output.value`, the other metadata as the `metadata` attribute that holds a LangGraph node's place) and read by
// the OTLP importer, so what it reads of a trace holds here too.
import { InputError } from '../errors';
import { asObject, asString, isoNanos, maybeJson, selectRuns } from './common';
import { otlpRewriter } from './otlp';
import type { FormatSpec } from './types';

/** Langfuse's observation types, as the OpenInference span kinds they are (a plain SPAN says nothing). */
const SPAN_KIND: Readonly<Record<string, string>> = {
  AGENT: 'AGENT',
  GENERATION: 'LLM',
  TOOL: 'TOOL',
  CHAIN: 'CHAIN',
  RETRIEVER: 'RETRIEVER',
  EMBEDDING: 'EMBEDDING',
  EVALUATOR: 'EVALUATOR',
  GUARDRAIL: 'GUARDRAIL',
};
const OBSERVATION_TYPES = new Set([...Object.keys(SPAN_KIND), 'SPAN', 'EVENT']);

/** A Langfuse observation: its id, its type and its start. */
function isObservation(value: unknown): boolean {
  const o = asObject(value);
  return o !== undefined && typeof o.id === 'string' && typeof o.type === 'string' && OBSERVATION_TYPES.has(o.type) && typeof o.startTime === 'string';
}

/** The metadata of the SDK beside the span's own attributes and resource (the LangGraph node's place among them). */
const SPAN_METADATA_KEYS = new Set(['attributes', 'resourceAttributes', 'scope']);

/** An attribute value as OTLP carries it: a string, number or boolean; anything else as its JSON. */
function attributeValue(value: unknown): unknown {
  return value === null || typeof value === 'object' ? JSON.stringify(value) : value;
}

/** One observation as the OTLP span it was. */
function otlpSpan(observation: Record<string, unknown>, traceId: string): Record<string, unknown> {
  const metadata = asObject(maybeJson(observation.metadata)) ?? {};
  const attributes: Record<string, unknown> = Object.create(null); // keys are trace text: "__proto__" must stay a key
  for (const [key, value] of Object.entries(asObject(metadata.attributes) ?? {})) attributes[key] = attributeValue(value);
  const rest = Object.entries(metadata).filter(([key]) => !SPAN_METADATA_KEYS.has(key));
  if (rest.length > 0 && !('metadata' in attributes)) attributes.metadata = JSON.stringify(Object.fromEntries(rest));
  const kind = SPAN_KIND[observation.type as string];
  if (kind && !('openinference.span.kind' in attributes)) attributes['openinference.span.kind'] = kind;
  for (const [key, value] of [['input.value', observation.input], ['output.value', observation.output]] as const) {
    if (value !== null && value !== undefined && !(key in attributes)) attributes[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return {
    traceId: asString(observation.traceId) ?? traceId,
    spanId: observation.id,
    parentSpanId: asString(observation.parentObservationId),
    name: asString(observation.name) ?? '',
    startTimeUnixNano: isoNanos(observation.startTime),
    endTimeUnixNano: isoNanos(observation.endTime),
    attributes,
  };
}

/** One trace (a download, or the API's trace detail) as the OTLP spans its observations were. */
function langfuseSpans(value: unknown, line: number, file?: string): Record<string, unknown>[] {
  const o = asObject(value);
  if (!o || !Array.isArray(o.observations)) throw new InputError('missing-field', 'expected a Langfuse trace with its observations ({"trace": {...}, "observations": [...]}, or the API\'s trace detail)', file, line, 'observations');
  const at = o.observations.findIndex((observation) => !isObservation(observation));
  // Said in Langfuse's words, before the OTLP reader would say it in its own.
  if (at >= 0) throw new InputError('invalid-field', `observations[${at}] is not a Langfuse observation; expected id, type (SPAN, GENERATION, AGENT, TOOL, ...) and startTime`, file, line, 'observations');
  const traceId = asString(asObject(o.trace)?.id) ?? asString(o.id) ?? 'langfuse';
  return o.observations.map((observation) => otlpSpan(observation as Record<string, unknown>, traceId));
}

export const langfuseFormat: FormatSpec = {
  title: "Langfuse trace with its observations (the UI's download, the public API's trace detail)",
  aliases: [],
  detect: {
    record: (o) => Array.isArray(o.observations) && o.observations.some(isObservation),
    keys: 'observations[].id, type and parentObservationId',
    signature: /^\s*[[{][\s\S]{0,60000}?"parentObservationId"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'a Langfuse trace with its observations ({"trace": {...}, "observations": [{"id", "type", "parentObservationId", "startTime", "input", "output", "metadata"}]}) of a traced agent run',
  // A whole trace at once (an observation is read against its parent), or each of an array of them.
  select: selectRuns,
  create: (file) => otlpRewriter(file, 'no observations found; expected a Langfuse trace with its observations ({"trace": {...}, "observations": [...]})', (value, line) => langfuseSpans(value, line, file)),
};
