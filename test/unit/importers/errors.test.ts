// Format detection from content (never the file name) and bad input: each case fails with a named kind, never an empty trace.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { detectFormat, importTraceText, parseFormatName } from '../../../src/core/importers';
import { detectFileFormat, readAnyTrace, type ReadAnyTraceOptions } from '../../../src/node/readAnyTrace';
import { consoleLines, loadAgentTrace } from './anyAgentSpans';
import { refusal } from './refusal';

const fixtures = path.resolve(__dirname, '../../fixtures/importers');
const at = (name: string) => path.join(fixtures, name);


async function failure(file: string, options: ReadAnyTraceOptions = {}) {
  try {
    const trace = await readAnyTrace(file, options);
    assert.fail(`expected a rejection, got ${trace.messages.length} messages`);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error;
  }
}

describe('importers: detection', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-import-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const table: [string, string, string][] = [
    ['otlp-genai.json', 'otlp', 'document'],
    ['otlp-genai.jsonl', 'otlp', 'lines'],
    ['otlp-openinference.json', 'otlp', 'lines'],
    ['ag2-runtime.log', 'autogen', 'lines'],
    ['autogen-core-events.jsonl', 'autogen', 'lines'],
    ['langsmith-runs.json', 'langsmith', 'document'],
    ['langsmith-runs.jsonl', 'langsmith', 'lines'],
    ['langsmith-tree.json', 'langsmith', 'document'],
    ['infa-guard.json', 'infa-guard', 'document'],
    ['g-safeguard.json', 'infa-guard', 'document'],
    ['agentdojo-run.json', 'agentdojo', 'document'],
    ['agentdojo-runs.jsonl', 'agentdojo', 'lines'],
    ['debate-rows.jsonl', 'debate', 'lines'],
    ['debate-du.json', 'debate', 'document'],
    ['tau2-bench-airline.json', 'tau2', 'document'],
    ['any-agent-google-adk.json', 'any-agent', 'document'],
    ['mad-debate.json', 'mad', 'document'],
  ];
  for (const [name, format, layout] of table) {
    it(`detects ${name} as ${format} (${layout}) even under a neutral file name`, async () => {
      const renamed = path.join(dir, `trace-${name.replace(/\W/g, '')}.txt`);
      copyFileSync(at(name), renamed);
      assert.deepEqual(await detectFileFormat(renamed), { format, layout });
    });
  }

  it("says an autogen-core log holds its prose about messages but not the Message events it reads (was: only 'no agent messages found')", async () => {
    const file = path.join(dir, 'core-prose.log');
    writeFileSync(file, [
      "INFO:autogen_core:Publishing message of type CodeWritingTask to all subscribers: {'task': 'Sum the even numbers.'}",
      'INFO:autogen_core.events:{"prompt_tokens": 10, "completion_tokens": 20, "type": "LLMCall"}',
      "INFO:autogen_core:Publishing message of type CodeReviewResult to all subscribers: {'review': 'Looks right.'}",
    ].join('\n') + '\n');
    const error = await failure(file);
    assert.match(error.message, /no agent messages found; autogen-core's "Publishing message of type \.\.\." lines are there, but not its "Message" events \(logger autogen_core\.events/);
  });

  it('detects a native agent-trace/v1 file and reads it through the native parser', async () => {
    const file = path.join(dir, 'native.jsonl');
    writeFileSync(file, '{"type":"header","schema":"agent-trace/v1"}\n{"type":"message","round":0,"from":"a","to":"b","content":"hi"}\n');
    assert.equal((await detectFileFormat(file)).format, 'agent-trace');
    assert.equal((await readAnyTrace(file)).messages.length, 1);
  });

  it('detects a native trace whose header line is longer than the detection head (thousands of agents)', async () => {
    const file = path.join(dir, 'wide.jsonl');
    const agents = Array.from({ length: 4000 }, (_, i) => ({ id: `agent-${i}`, role: 'a role long enough to fill the head' }));
    writeFileSync(file, JSON.stringify({ type: 'header', schema: 'agent-trace/v1', agents }) + '\n{"type":"message","round":0,"from":"agent-1","content":"hi"}\n');
    assert.deepEqual(await detectFileFormat(file), { format: 'agent-trace', layout: 'lines' });
    assert.equal((await readAnyTrace(file)).agents.length, 4000);
  });

  it('detects a pretty-printed document larger than the detection head by its key signature', () => {
    const head = '{\n  "resourceSpans": [\n    {\n      "scopeSpans": [';
    assert.deepEqual(detectFormat(head, false), { format: 'otlp', layout: 'document' });
  });

  it('reads text in memory with the same detection', () => {
    const text = JSON.stringify([{ adj_matrix: [[0, 1], [0, 0]], attacker_idxes: [], communication_data: [[[0, 'a'], [1, 'b']]] }]);
    assert.deepEqual(importTraceText(text).edges, [['agent_0', 'agent_1']]);
  });

  it('accepts format aliases and rejects unknown names with kind unknown-format', () => {
    assert.equal(parseFormatName('AG2'), 'autogen');
    assert.equal(parseFormatName('langgraph'), 'langsmith');
    assert.equal(parseFormatName('OpenInference'), 'otlp');
    assert.throws(() => parseFormatName('csv'), (e: unknown) => e instanceof InputError && e.kind === 'unknown-format');
  });
});

describe('importers: bad input', () => {
  const cases: [string, string, ReadAnyTraceOptions, InputError['kind'], string | undefined][] = [
    ['an unknown JSON shape', 'unknown.json', {}, 'unknown-format', undefined],
    ['an empty file', 'empty.json', {}, 'empty', undefined],
    ['OTLP whose message content was not captured', 'otlp-no-content.json', {}, 'no-content', 'gen_ai.output.messages'],
    ['OTLP without any agent span', 'otlp-no-agents.json', {}, 'missing-field', 'gen_ai.operation.name'],
    ['an INFA-Guard episode without communication_data', 'infa-guard-missing.json', {}, 'missing-field', 'communication_data'],
    ['LangSmith runs without graph nodes or children', 'langsmith-no-nodes.json', {}, 'missing-field', 'extra.metadata.langgraph_node'],
    ['an AG2 log with agents but no messages', 'ag2-no-messages.log', {}, 'missing-field', 'event_name'],
    ['an OTLP file read as INFA-Guard', 'otlp-genai.json', { from: 'infa-guard' }, 'missing-field', 'adj_matrix'],
    ['an INFA-Guard file read as OTLP', 'infa-guard.json', { from: 'otlp' }, 'empty', undefined],
    ['an AG2 log read as LangSmith', 'ag2-runtime.log', { from: 'langsmith' }, 'invalid-json', undefined],
    ['an episode number past the end', 'infa-guard.json', { episode: 5 }, 'invalid-field', undefined],
    ['an INFA-Guard file read as AgentDojo', 'infa-guard.json', { from: 'agentdojo' }, 'missing-field', 'messages'],
    ['an AgentDojo file read as a debate', 'agentdojo-runs.jsonl', { from: 'debate' }, 'missing-field', 'agent_responses'],
    ['a debate row whose agents never replied', 'debate-no-replies.jsonl', {}, 'no-content', 'agent_responses'],
    ['a debate file read as a group chat', 'debate-rows.jsonl', { from: 'who-and-when' }, 'missing-field', 'history'],
    ['a group chat read as tau-bench', 'who-and-when.json', { from: 'tau-bench' }, 'missing-field', 'traj'],
  ];
  for (const [name, file, options, kind, field] of cases) {
    it(`rejects ${name} with kind ${kind}${field ? ` naming ${field}` : ''}`, async () => {
      const error = await failure(at(file), options);
      assert.equal(error.kind, kind, error.message);
      assert.equal(error.file, at(file));
      if (field) assert.equal(error.field, field);
    });
  }

  it('says what a Phoenix or Langfuse file holds when another file is read as one (was: "missing resourceSpans; expected OTLP JSON" for --from phoenix)', async () => {
    const phoenix = await failure(at('jaeger-kagent-helm.json'), { from: 'phoenix' });
    assert.match(phoenix.message, /expected Arize Phoenix spans/);
    assert.doesNotMatch(phoenix.message, /resourceSpans/);
    assert.throws(() => importTraceText('[]', { from: 'phoenix' }), (error: unknown) => error instanceof InputError && /^no spans found; expected Arize Phoenix spans/.test(error.message));
    assert.match((await failure(at('jaeger-kagent-helm.json'), { from: 'langfuse' })).message, /expected a Langfuse trace with its observations/);
  });

  it('says a run past the last round of its own, not of a "round" field the log does not have (a review: a Who&When history of a million messages)', async () => {
    const chat = JSON.parse(readFileSync(at('who-and-when.json'), 'utf8')) as { history: unknown[] };
    const long = { ...chat, history: Array.from({ length: 20_000 }, (_, i) => chat.history[i % chat.history.length]) };
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-import-long-'));
    try {
      const file = path.join(dir, 'long.json');
      writeFileSync(file, JSON.stringify(long));
      const error = await failure(file);
      assert.equal(error.kind, 'invalid-field');
      assert.match(error.message, /^the run goes past round 9999 \(this entry is round 10000, as its turns or steps are counted\): split the log into several runs$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says a whole file that is not JSON is not, and that one cut short ends early (was "cannot tell the trace format")', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-notjson-'));
    try {
      writeFileSync(path.join(dir, 'cut.json'), '{"schema":"agent-trace/v1"');
      writeFileSync(path.join(dir, 'prose.jsonl'), 'hello world\n');
      const cut = await failure(path.join(dir, 'cut.json'), {});
      assert.equal(cut.kind, 'invalid-json');
      assert.match(cut.message, /^not valid JSON \(.*\): it ends early, as a file cut short does; expected a trace$/);
      const prose = await failure(path.join(dir, 'prose.jsonl'), {});
      assert.equal(prose.kind, 'invalid-json');
      assert.doesNotMatch(prose.message, /ends early/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a debate row with more agents than it reads, at once, instead of building every agent pair (the heap ran out)', () => {
    const row = { question: 'Q? (A) x, (B) y', answer: 'A', agent_responses: Array.from({ length: 20_000 }, () => [{ role: 'assistant', content: '(A)' }]) };
    assert.throws(
      () => importTraceText(JSON.stringify(row), { file: 'wide.jsonl' }),
      (error: unknown) => error instanceof InputError && error.kind === 'invalid-field' && error.field === 'agent_responses' && /20000 agents; a debate is read with at most 200/.test(error.message),
    );
  });

  it('rejects debate rows that add up to more agent pairs than it reads, at the row that goes over', () => {
    const row = JSON.stringify({ question: 'Q? (A) x, (B) y', answer: 'A', agent_responses: Array.from({ length: 200 }, () => [{ role: 'assistant', content: '(A)' }]) });
    assert.throws(
      () => importTraceText(Array.from({ length: 30 }, () => row).join('\n'), { file: 'many.jsonl' }),
      (error: unknown) => error instanceof InputError && error.line === 26 && /the debates up to here have 1034800 agent pairs; a file is read with at most 1000000/.test(error.message),
    );
  });

  it('rejects OTLP whose scopeSpans or spans is not a list by field, instead of an internal error (found by the fuzzer)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-import-'));
    for (const [field, resourceSpans] of [
      ['scopeSpans', [{ scopeSpans: 100000 }]],
      ['spans', [{ scopeSpans: [{ spans: true }] }]],
    ] as const) {
      const file = path.join(dir, `not-a-list-${field}.json`);
      writeFileSync(file, JSON.stringify({ resourceSpans }));
      const error = await failure(file);
      assert.deepEqual([error.kind, error.field], ['invalid-field', field]);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the AG2 file logger when given its SQLite database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-import-'));
    try {
      const file = path.join(dir, 'logs.db');
      writeFileSync(file, Buffer.concat([Buffer.from('SQLite format 3\u0000', 'latin1'), Buffer.alloc(100)]));
      const error = await failure(file);
      assert.equal(error.kind, 'unknown-format');
      assert.match(error.message, /logger_type="file"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the fix when OTLP content was not captured, Microsoft Agent Framework's switch too (it ignores the GenAI variable)", async () => {
    const error = await failure(at('otlp-no-content.json'));
    assert.match(error.message, /OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true/);
    assert.match(error.message, /Microsoft Agent Framework: enable_sensitive_data=True/);
  });

  it('names the attributes that hold text it does not read, not the opt-in (was: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT advice for content that was captured)', () => {
    // OpenLLMetry's entity attributes: content captured under names no convention read here uses.
    const span = {
      traceId: 't1', spanId: 's1', name: 'invoke_agent writer', startTimeUnixNano: '1000000', endTimeUnixNano: '2000000',
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } },
        { key: 'gen_ai.agent.name', value: { stringValue: 'writer' } },
        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
        { key: 'traceloop.entity.input', value: { stringValue: '{"inputs": {"topic": "the tides"}}' } },
        { key: 'traceloop.entity.output', value: { stringValue: '{"outputs": "High tide comes twice a day."}' } },
      ],
    };
    assert.throws(
      () => importTraceText(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] })),
      (error: unknown) =>
        error instanceof InputError &&
        error.kind === 'no-content' &&
        /no message content this importer reads: the spans hold text under traceloop\.entity\.input, traceloop\.entity\.output, attributes of no convention it reads/.test(error.message) &&
        !/OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT|gen_ai\.request\.model/.test(error.message),
    );
  });

  it('says which spans carry content outside every agent invocation, not to switch capture on (was: the opt-in advice for any-agent\'s Google ADK run as console spans)', () => {
    const error = refusal(consoleLines(loadAgentTrace(at('any-agent-google-adk.json'))));
    assert.equal(error.kind, 'no-content');
    assert.equal(error.field, 'parentSpanId');
    assert.match(error.message, /^found 1 agent invocation span\(s\) but no message content under them: \d+ span\(s\) that carry content \("call_llm mistral\/mistral-small-latest" \(line 1\).* lie under no agent invocation span \(the parent span they name, 0x[0-9a-f]{16}, is not in the file\)/);
    assert.doesNotMatch(error.message, /OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
  });

  it('says in its own words that only the user\'s request was read (was: agent-trace/v1\'s "the trace has no \\"message\\" lines")', () => {
    // any-agent's OpenAI Agents run as console spans, without its outputs and arguments: the first model call's input is left.
    const run = loadAgentTrace(at('any-agent-openai-agents.json'));
    for (const span of run.spans) for (const key of ['gen_ai.output', 'gen_ai.tool.args']) delete span.attributes[key];
    const error = refusal(consoleLines(run));
    assert.equal(error.kind, 'no-content');
    assert.equal(error.field, 'gen_ai.output.messages');
    assert.match(error.message, /^found 1 agent invocation span\(s\) but only the user's request \(the task\), no reply, tool call or tool result: GenAI instrumentations record content only on opt-in/);
    assert.doesNotMatch(error.message, /"message" lines/);
  });

  it('rejects a log cut mid-line, and with lenient skips that line with a warning', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-import-'));
    try {
      const file = path.join(dir, 'runtime.log');
      const text = readFileSync(at('ag2-runtime.log'), 'utf8');
      writeFileSync(file, text + '{"source_id": 1, "source_name": "coder", "event_na');
      const lines = text.split('\n').length;
      const error = await failure(file);
      assert.deepEqual([error.kind, error.line], ['invalid-json', lines]);
      const trace = await readAnyTrace(file, { lenient: true });
      assert.ok(trace.warnings.some((w) => w.code === 'skipped-line' && w.line === lines));
      assert.equal(trace.messages.length, 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a truncated OTLP document with the line where it ends', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-import-'));
    try {
      const file = path.join(dir, 'cut.json');
      const text = JSON.stringify(JSON.parse(readFileSync(at('otlp-genai.json'), 'utf8')), null, 2);
      writeFileSync(file, text.slice(0, Math.floor(text.length * 0.6)));
      const error = await failure(file);
      assert.equal(error.kind, 'invalid-json');
      assert.ok((error.line ?? 0) > 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
