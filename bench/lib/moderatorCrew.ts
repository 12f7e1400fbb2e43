// A recorded debate replayed as a moderator-led crew over OpenTelemetry: the moderator invokes each debater in turn,
// every round, and hands it the other debaters' previous answers, as a hub-and-spoke crew (CrewAI's hierarchical
// process, a LangGraph supervisor) records it with the GenAI semantic conventions. Used to check that the OTLP
// importer reads such a crew as the debate it relays.
import type { Trace } from '../../src/core/trace/types';

const MODERATOR = 'moderator';
/** Nanoseconds per simulated second of the replay. */
const SECOND = 1_000_000_000n;
const START = 1_767_225_600n * SECOND;

/** One OTLP span with string attributes. */
function span(traceId: string, spanId: string, parentSpanId: string | undefined, start: bigint, end: bigint, attributes: Record<string, string>) {
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: `invoke_agent ${attributes['gen_ai.agent.name']}`,
    kind: 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(end),
    attributes: Object.entries(attributes).map(([key, stringValue]) => ({ key, value: { stringValue } })),
  };
}

const messages = (role: string, text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/** The OTLP JSON document of `trace`'s debate run by a moderator (the debaters' labels are not carried). */
export function moderatorCrewOtlp(trace: Trace, conversation: string): unknown {
  const question = trace.task?.question ?? '';
  const debaters = trace.agents.map((a) => a.id);
  const rounds = trace.messages.reduce((max, m) => Math.max(max, m.round + 1), 0);
  const said = (agent: string, round: number) =>
    trace.messages
      .filter((m) => m.from === agent && m.round === round)
      .map((m) => m.content)
      .join('\n\n');
  const traceId = conversation.padEnd(32, '0').slice(0, 32).replace(/[^0-9a-f]/g, 'a');
  const conversationId = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': conversation };
  const spans = [];
  let clock = START + SECOND;
  for (let round = 0; round < rounds; round++) {
    for (const [i, debater] of debaters.entries()) {
      const others = debaters.filter((d) => d !== debater).map((d) => `${d}: ${said(d, round - 1)}`);
      const input =
        round === 0
          ? question
          : `These are the solutions to the problem from other agents:\n${others.join('\n\n')}\nUsing the reasoning from other agents as additional advice, give an updated answer.`;
      const spanId = `${round.toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`;
      spans.push(
        span(traceId, spanId, 'f'.repeat(16), clock, clock + SECOND, {
          ...conversationId,
          'gen_ai.agent.name': debater,
          'gen_ai.input.messages': messages('user', input),
          'gen_ai.output.messages': messages('assistant', said(debater, round)),
        }),
      );
      clock += 2n * SECOND;
    }
  }
  spans.unshift(
    span(traceId, 'f'.repeat(16), undefined, START, clock, {
      ...conversationId,
      'gen_ai.agent.name': MODERATOR,
      'gen_ai.input.messages': messages('user', question),
      'gen_ai.output.messages': messages('assistant', 'The debate is over.'),
    }),
  );
  return { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'debate-crew' } }] }, scopeSpans: [{ scope: { name: 'crew' }, spans }] }] };
}
