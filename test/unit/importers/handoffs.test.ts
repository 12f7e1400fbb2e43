// A hub that hands work to the agents it invokes, recorded over OpenTelemetry (CrewAI's hierarchical process, a
// LangGraph supervisor, a debate moderator): hand-offs are not rounds of their own, and what a hand-off relays is
// delivered from the agent that wrote it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { moderatorCrewOtlp } from '../../../bench/lib/moderatorCrew';
import { defaultConfig } from '../../../src/core/config';
import { analyzeRun } from '../../../src/core/guard/analyze';
import { buildRunModel } from '../../../src/core/guard/model';
import { importTraceText } from '../../../src/core/importers';
import { readAnyTrace } from '../../../src/node/readAnyTrace';
import { flow } from './flow';

const DEBATE = path.join(__dirname, '../../../examples/debate/truthfulqa-adversary.jsonl');

/** `round from>to,to: first 24 characters`, in trace order. */

/** OTLP JSON of invoke_agent spans (one second each unless `until`, `parent` by index). */
function crew(spans: { agent: string; parent?: number; input: string; output: string; at: number; until?: number }[]): string {
  const id = (i: number) => (i + 1).toString(16).padStart(16, '0');
  const nanos = (s: number) => String(1_767_225_600_000_000_000n + BigInt(s) * 1_000_000_000n);
  const attributes = (o: Record<string, string>) => Object.entries(o).map(([key, stringValue]) => ({ key, value: { stringValue } }));
  return JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: spans.map((s, i) => ({
              traceId: 'a'.repeat(32),
              spanId: id(i),
              ...(s.parent !== undefined ? { parentSpanId: id(s.parent) } : {}),
              name: `invoke_agent ${s.agent}`,
              startTimeUnixNano: nanos(s.at),
              endTimeUnixNano: nanos(s.until ?? s.at + 1),
              attributes: attributes({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': s.agent, 'gen_ai.input.messages': s.input, 'gen_ai.output.messages': s.output }),
            })),
          },
        ],
      },
    ],
  });
}

describe('importers: OTLP hand-offs of an orchestrator', () => {
  it('a hub that hands the same instruction to three agents in turn makes one round of them (was: six rounds, one per call)', () => {
    const trace = importTraceText(
      crew([
        { agent: 'hub', input: 'Which is larger, 2^10 or 10^3?', output: 'All three say 2^10.', at: 0, until: 7 },
        { agent: 'a', parent: 0, input: 'Answer the question.', output: '2^10 = 1024 is larger.', at: 1 },
        { agent: 'b', parent: 0, input: 'Answer the question.', output: '1024 > 1000, so 2^10.', at: 3 },
        { agent: 'c', parent: 0, input: 'Answer the question.', output: '2^10 is larger.', at: 5 },
      ]),
    );
    assert.equal(trace.task?.question, 'Which is larger, 2^10 or 10^3?');
    assert.deepEqual(flow(trace), [
      '0 hub>a: Answer the question.',
      '0 hub>b: Answer the question.',
      '0 hub>c: Answer the question.',
      '1 a>hub: 2^10 = 1024 is larger.',
      '1 b>hub: 1024 > 1000, so 2^10.',
      '1 c>hub: 2^10 is larger.',
      '2 hub>user: All three say 2^10.',
    ]);
  });

  it("what a hand-off relays is delivered from the agent that wrote it, and is heard when it is relayed", () => {
    const draft = 'The capital of Australia is Sydney, the largest and best known of its cities.';
    const trace = importTraceText(
      crew([
        { agent: 'lead', input: 'What is the capital of Australia?', output: 'Canberra.', at: 0, until: 5 },
        { agent: 'writer', parent: 0, input: 'Draft an answer.', output: draft, at: 1 },
        { agent: 'checker', parent: 0, input: `Check this draft:\n${draft}`, output: 'Wrong: it is Canberra.', at: 3 },
      ]),
    );
    assert.deepEqual(flow(trace), [
      '0 lead>writer: Draft an answer.',
      '1 writer>lead,checker: The capital of Australia',
      // The checker heard the draft in round 1, so it answers in round 2; the lead's own words are all it said.
      '1 lead>checker: Check this draft:\n[relay',
      '2 checker>lead: Wrong: it is Canberra.',
      '3 lead>user: Canberra.',
    ]);
    assert.equal(trace.messages.find((m) => m.to?.includes('checker') && m.from === 'lead')?.content, 'Check this draft:\n[relayed from writer]');
  });

  for (const [file, why] of [
    [DEBATE, 'an adversary its answers give away'],
    [path.join(__dirname, '../../fixtures/importers/debate-truthfulqa-gpt35.jsonl'), 'an adversary its words give away, silent in the closing round'],
  ]) {
    it(`a moderator-led debate over OTLP reads as the debate it relays, with its verdicts: ${why} (was: an 18-round run, the adversary unflagged)`, async () => {
      const debate = await readAnyTrace(file);
      const trace = importTraceText(JSON.stringify(moderatorCrewOtlp(debate, 'conv-1')));
      const debaters = ['agent_0', 'agent_1', 'agent_2'];
      for (const round of [0, 1, 2]) {
        assert.deepEqual(trace.messages.filter((m) => m.round === round && debaters.includes(m.from)).map((m) => m.from), debaters, `round ${round}`);
      }
      assert.deepEqual(trace.messages.find((m) => m.from === 'agent_0')?.to, ['moderator', 'agent_1', 'agent_2']);
      for (const m of trace.messages.filter((m) => m.from === 'moderator' && m.to?.[0] !== 'user')) assert.doesNotMatch(m.content, /\([A-E]\)/, 'the moderator relays, it does not answer');
      const original = await analyzeRun(buildRunModel(debate), { config: defaultConfig() });
      const relayed = await analyzeRun(buildRunModel(trace), { config: defaultConfig() });
      assert.equal(original.agents[0].category, 'attacker');
      const verdicts = Object.fromEntries(relayed.agents.map((a) => [a.id, a.category]));
      assert.deepEqual(verdicts, { ...Object.fromEntries(original.agents.map((a) => [a.id, a.category])), moderator: 'benign', user: 'benign' });
    });
  }
});
