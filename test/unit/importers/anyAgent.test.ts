// mozilla-ai/any-agent's AgentTrace (`{"spans": [...], "final_output": …}`): one run of the agent, one agent per tool,
// read through the OTLP importer. The fixtures are two real AgentTraces of any-agent's own test suite (Google ADK, the
// OpenAI Agents SDK).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { importTraceText, parseFormatName, type ImportFormat } from '../../../src/core/importers';
import { detectFormat } from '../../../src/core/importers/detect';
import { readAllTraces, readAnyTrace } from '../../../src/node/readAnyTrace';
import { consoleLines, loadAgentTrace as load, spanLines } from './anyAgentSpans';
import { flow } from './flow';
import { refusal } from './refusal';

const fixtures = path.resolve(__dirname, '../../fixtures/importers');
const google = path.join(fixtures, 'any-agent-google-adk.json');
const openai = path.join(fixtures, 'any-agent-openai-agents.json');


const TASK = 'Find what year it is in the America/New_York timezone and write the value (single number) to a file. Finally, return a list of the steps you have taken.';

describe('importers: any-agent AgentTrace', () => {
  it('reads a real AgentTrace (Google ADK) as one run of the agent and one agent per tool, the user\'s input the task (was: "cannot tell the trace format")', async () => {
    const { format, traces } = await readAllTraces(google);
    assert.equal(format, 'any-agent');
    assert.equal(traces.length, 1);
    const { trace } = traces[0];
    assert.deepEqual(trace.agents.map((a) => [a.id, a.role]), [['user', 'user'], ['any_agent', undefined], ['tool:get_current_time', 'tool'], ['tool:write_file', 'tool'], ['tool:final_output', 'tool']]);
    assert.equal(trace.task?.question, TASK);
    // ADK's call_llm and execute_tool spans name ADK's own spans (not in the trace) as parents: they are the run's.
    // A model turn that only calls tools says nothing of its own; write_file's result (`{}`) records nothing.
    assert.deepEqual(flow(trace, 40), [
      '0 any_agent>tool:get_current_time: get_current_time(timezone="America/New_Y',
      '1 tool:get_current_time>any_agent: timezone: America/New_York\ndatetime: 202',
      '2 any_agent>tool:write_file: write_file(text="2025")',
      '3 any_agent>tool:final_output: final_output(answer="{\\"steps\\": [{\\"num',
      '4 tool:final_output>any_agent: success: true\nresult:\n  steps:\n    - num',
      '5 any_agent>user: steps:\n  - number: 1\n    description: Ge',
    ]);
    // The run's final_output (a structured output) is what the agent answered, every field kept.
    assert.equal(trace.messages[5].content, 'steps:\n  - number: 1\n    description: Get current time in the America/New_York timezone.\n  - number: 2\n    description: Write the year to a file.');
    assert.equal(trace.messages[0].ts, '2025-09-16T12:43:06.853Z');
    // A benign run: nothing flagged.
    assert.deepEqual((await analyzeTrace(trace)).agents.filter((a) => a.category !== 'benign').map((a) => a.id), []);
  });

  it('reads the OpenAI Agents run the same from its AgentTrace, its AgentSpans one a line, and ConsoleSpanExporter lines (was: "no spans found"; as console spans: "the trace has no \\"message\\" lines")', async () => {
    const trace = await readAnyTrace(openai);
    const expected = [
      '0 any_agent>tool:get_current_time: get_current_time(timezone="America/New_Y',
      '1 tool:get_current_time>any_agent: timezone: America/New_York\ndatetime: 202',
      '2 any_agent>tool:write_file: write_file(text="2025")',
      '3 any_agent>user: steps:\n  - number: 1\n    description: Ge',
    ];
    assert.deepEqual(flow(trace, 40), expected);
    assert.equal(trace.task?.question, TASK);
    const run = load(openai);
    for (const lines of [spanLines(run), consoleLines(run)]) {
      assert.equal(detectFormat(lines, true)?.format, 'otlp');
      const fromOtlp = importTraceText(lines);
      // Without the AgentTrace's final_output, the agent's answer is its last model call's output: the same here.
      assert.deepEqual(flow(fromOtlp, 40), expected);
      assert.deepEqual(fromOtlp.agents, trace.agents);
      assert.deepEqual(fromOtlp.task, trace.task);
    }
  });

  it('detects an AgentTrace pretty-printed, by its head alone, on one line, and AgentTraces one a line (each a run)', () => {
    const text = readFileSync(google, 'utf8');
    assert.deepEqual(detectFormat(text, true), { format: 'any-agent', layout: 'document' });
    assert.deepEqual(detectFormat(text.slice(0, 400), false), { format: 'any-agent', layout: 'document' });
    const [one, two] = [load(google), load(openai)].map((trace) => JSON.stringify(trace));
    assert.deepEqual(detectFormat(one, true), { format: 'any-agent', layout: 'document' });
    assert.deepEqual(detectFormat(`${one}\n${two}\n`, true), { format: 'any-agent', layout: 'lines' });
    assert.equal(importTraceText(`${one}\n${two}\n`, { episode: 1 }).messages.length, 4);
    assert.equal(parseFormatName('anyagent'), 'any-agent');
  });

  it("reads an agent called as another's tool (any-agent's agents as tools) as that agent, when both runs' AgentTraces are saved one a line", () => {
    // Written for this test: any-agent keeps a trace per run, so the expert's spans are in its own AgentTrace, under
    // the main agent's execute_tool span (same trace id).
    const at = (ms: number) => 1.7e18 + ms * 1e6;
    const span = (name: string, id: number, parent: number | null, start: number, end: number, attributes: Record<string, unknown>) =>
      ({ name, kind: 'internal', parent: { span_id: parent }, start_time: at(start), end_time: at(end), status: { status_code: 'ok' }, context: { trace_id: 7, span_id: id }, attributes, links: [], events: [] });
    const asks = (text: string) => JSON.stringify([{ role: 'system', content: 'Answer.' }, { role: 'user', content: text }]);
    const calls = (name: string, args: string) => JSON.stringify([{ 'tool.name': name, 'tool.args': args }]);
    const main = {
      spans: [
        span('call_llm m', 2, 1, 1, 2, { 'gen_ai.operation.name': 'call_llm', 'gen_ai.input.messages': asks('Plan a ski trip'), 'gen_ai.output': calls('ask_expert', '{"query": "snow?"}') }),
        span('execute_tool ask_expert', 3, 1, 3, 10, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ask_expert', 'gen_ai.tool.args': '{"query": "snow?"}', 'gen_ai.output': 'Lots of snow in Tahoe.' }),
        span('call_llm m', 4, 1, 11, 12, { 'gen_ai.operation.name': 'call_llm', 'gen_ai.output': 'Go to Tahoe.' }),
        span('invoke_agent [main]', 1, null, 0, 13, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'main' }),
      ],
      final_output: 'Go to Tahoe.',
    };
    const expert = {
      spans: [
        span('call_llm m', 6, 5, 4, 5, { 'gen_ai.operation.name': 'call_llm', 'gen_ai.input.messages': asks('snow?'), 'gen_ai.output': calls('search_web', '{"q": "snow"}') }),
        span('execute_tool search_web', 7, 5, 6, 7, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search_web', 'gen_ai.tool.args': '{"q": "snow"}', 'gen_ai.output': 'Tahoe: 2 m of snow.' }),
        span('call_llm m', 8, 5, 8, 9, { 'gen_ai.operation.name': 'call_llm', 'gen_ai.output': 'Lots of snow in Tahoe.' }),
        span('invoke_agent [expert]', 5, 3, 3.5, 9.5, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'expert' }),
      ],
      final_output: 'Lots of snow in Tahoe.',
    };
    const trace = importTraceText(`${JSON.stringify(main)}\n${JSON.stringify(expert)}\n`);
    assert.equal(trace.task?.question, 'Plan a ski trip');
    assert.deepEqual(flow(trace, 40), [
      '0 main>expert: snow?',
      '1 expert>tool:search_web: search_web(q="snow")',
      '2 tool:search_web>expert: Tahoe: 2 m of snow.',
      '3 expert>main: Lots of snow in Tahoe.',
      '4 main>user: Go to Tahoe.',
    ]);
  });

  const run = load(google);
  const invocation = run.spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
  const bad: [string, () => string, ImportFormat | undefined, InputError['kind'], string | undefined, RegExp][] = [
    ['a trace without spans', () => '{"spans": [], "final_output": null}', 'any-agent', 'empty', undefined, /^no spans found; expected an any-agent AgentTrace/],
    ['a run that failed before its first model call (its invoke_agent span alone)', () => JSON.stringify({ spans: invocation, final_output: null }), undefined, 'no-content', 'gen_ai.output.messages', /any-agent records content on every call_llm and execute_tool span/],
    ['a span that is no AgentSpan', () => JSON.stringify({ spans: [...run.spans, { name: 'x', attributes: {} }] }), 'any-agent', 'invalid-field', 'spans', /^spans\[7\] is not an any-agent span/],
    ['an OTLP export read as any-agent', () => readFileSync(path.join(fixtures, 'otlp-genai.json'), 'utf8'), 'any-agent', 'missing-field', 'spans', /^missing "spans"; expected an any-agent AgentTrace/],
  ];
  for (const [name, body, from, kind, field, message] of bad) {
    it(`rejects ${name} with kind ${kind}${field ? ` naming ${field}` : ''}, in one line`, () => {
      const error = refusal(body(), from);
      assert.equal(error.kind, kind, error.message);
      assert.equal(error.field, field);
      assert.match(error.message, message);
      assert.doesNotMatch(error.message, /\n|OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
    });
  }
});
