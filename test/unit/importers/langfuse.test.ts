// Langfuse's trace with its observations (the UI's download merged with its observations, the public API's trace
// detail): each observation is the OTLP span Langfuse received, read by the OTLP importer. Two real traces from
// Langfuse's own seeder (a pydantic-ai pair of agents with tools, a LangGraph ReAct app), and a LangGraph run whose
// fetched page carries an injection, stored as Langfuse would store it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { importTraceText } from '../../../src/core/importers';
import { detectFormat } from '../../../src/core/importers/detect';
import { InputError } from '../../../src/core/errors';
import { readAnyTrace } from '../../../src/node/readAnyTrace';
import { flow } from './flow';
import type { OtlpDocument, OtlpValue } from './otlpShapes';

const fixtures = path.resolve(__dirname, '../../fixtures/importers');

const TYPE_OF_KIND: Record<string, string> = { AGENT: 'AGENT', LLM: 'GENERATION', TOOL: 'TOOL', CHAIN: 'CHAIN' };
const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const isoOf = (nanos: string) => new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();

/** An OTLP JSON document as Langfuse stores it: each span an observation, its input and output taken out of its attributes. */
function asLangfuseTrace(otlp: OtlpDocument): Record<string, unknown> {
  const spans = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  return {
    trace: { id: spans[0].traceId, name: 'run', timestamp: isoOf(spans[0].startTimeUnixNano) },
    observations: spans.map((s) => {
      const { 'input.value': input, 'output.value': output, ...attributes } = Object.fromEntries((s.attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));
      const kind = String(attributes['openinference.span.kind'] ?? '');
      return { id: s.spanId, traceId: s.traceId, parentObservationId: s.parentSpanId || null, type: TYPE_OF_KIND[kind] ?? 'SPAN', name: s.name, startTime: isoOf(s.startTimeUnixNano), endTime: isoOf(s.endTimeUnixNano), input: input ?? null, output: output ?? null, metadata: { attributes, resourceAttributes: {}, scope: { name: 'openinference.instrumentation.langchain' } } };
    }),
  };
}

describe('importers: Langfuse trace with its observations', () => {
  it("reads a real pydantic-ai run Langfuse stored: the joke agent, its three tools and the evaluator (was: \"cannot tell the trace format\")", async () => {
    const file = path.join(fixtures, 'langfuse-pydantic-ai.json');
    assert.equal(detectFormat(readFileSync(file, 'utf8'), true)?.format, 'langfuse');
    const trace = await readAnyTrace(file);
    assert.deepEqual(trace.agents.map((a) => a.id), ['user', 'joke_agent', 'tool:get_pun_suggestion', 'tool:get_dad_joke_suggestion', 'tool:get_one_liner_suggestion', 'evaluator_agent']);
    assert.match(trace.task?.question ?? '', /call THREE of the available tools to get joke suggestions about 'programming'/);
    assert.ok(!trace.messages.some((m) => /You are a creative joke writer/.test(m.content)), 'the system prompt is no message');
    assert.deepEqual((await analyzeTrace(trace)).agents.filter((a) => a.category !== 'benign'), []);
  });

  it('reads a real LangGraph app Langfuse stored as its graph nodes, its tool\'s records too (was: taken for a LangSmith export, "run without id")', async () => {
    const file = path.join(fixtures, 'langfuse-langgraph.json');
    assert.equal(detectFormat(readFileSync(file, 'utf8'), true)?.format, 'langfuse');
    const trace = await readAnyTrace(file);
    assert.deepEqual(trace.agents.map((a) => a.id), ['agent', 'tool:Web-Search']);
    assert.deepEqual(flow(trace, 20).slice(0, 2), ['0 agent>tool:Web-Search: Web-Search(query="ex', '1 tool:Web-Search>agent: - url: https://examp']);
    // The tool's message holds its search results as records, not text parts: they are read (was: an empty result).
    assert.match(trace.messages[1].content, /title: Example Result/);
  });

  it("reads the API's trace detail (the trace's fields with its observations) as the download", async () => {
    const download = JSON.parse(readFileSync(path.join(fixtures, 'langfuse-pydantic-ai.json'), 'utf8')) as { trace: Record<string, unknown>; observations: unknown[] };
    const detail = importTraceText(JSON.stringify({ ...download.trace, observations: download.observations, scores: [] }));
    assert.deepEqual(flow(detail, 40), flow(await readAnyTrace(path.join(fixtures, 'langfuse-pydantic-ai.json')), 40));
  });

  it("reads a LangGraph ReAct run as Langfuse stores it as the OTLP file: the fetched page is the source, the agent that mailed the password infected", async () => {
    const otlp = readFileSync(path.join(fixtures, 'otlp-langgraph-react-tools.json'), 'utf8');
    const fromLangfuse = importTraceText(JSON.stringify(asLangfuseTrace(JSON.parse(otlp) as OtlpDocument)));
    assert.deepEqual(flow(fromLangfuse, 40), flow(importTraceText(otlp), 40));
    const analysis = await analyzeTrace(fromLangfuse);
    assert.deepEqual(analysis.sources, ['tool:fetch_page']);
    assert.equal(analysis.agents.find((a) => a.id === 'agent')?.category, 'infected');
  });

  it('refuses what is no Langfuse observation, in its words', () => {
    const observation = { id: 'o1', type: 'AGENT', name: 'helper', startTime: '2025-01-01T00:00:00.000Z', parentObservationId: null, input: 'Say hi.', output: 'Hi.', metadata: { attributes: { 'gen_ai.agent.name': 'helper' } } };
    assert.throws(() => importTraceText(JSON.stringify({ trace: { id: 't' }, observations: [observation, { id: 'o2', type: 'SPAN' }] }), { from: 'langfuse' }), (error: unknown) => error instanceof InputError && /observations\[1\] is not a Langfuse observation/.test(error.message));
    assert.throws(() => importTraceText(JSON.stringify({ trace: { id: 't' }, observations: [] }), { from: 'langfuse' }), (error: unknown) => error instanceof InputError && /no observations found/.test(error.message));
  });
});
