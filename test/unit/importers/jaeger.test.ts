// Jaeger's trace JSON (the Jaeger UI's download): its spans are the OTLP spans they were stored from, read by the OTLP
// importer: a real kagent export, and a real Strands trace as Jaeger stores it (its span events as logs).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { InputError } from '../../../src/core/errors';
import { importTraceText } from '../../../src/core/importers';
import { readAnyTrace } from '../../../src/node/readAnyTrace';
import { flow } from './flow';
import type { OtlpDocument, OtlpValue } from './otlpShapes';

const fixtures = path.resolve(__dirname, '../../fixtures/importers');

/** An OTLP JSON document as Jaeger stores and exports it: tags, logs with an `event` field, references, microseconds. */
function asJaegerExport(otlp: OtlpDocument): string {
  const tag = ({ key, value }: { key: string; value: OtlpValue }) => ({ key, type: 'string', value: value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue });
  const micros = (nanos: string) => Number(BigInt(nanos) / 1000n);
  const spans = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  return JSON.stringify({
    data: [
      {
        traceID: spans[0].traceId,
        spans: spans.map((s) => ({
          traceID: s.traceId,
          spanID: s.spanId,
          operationName: s.name,
          references: s.parentSpanId ? [{ refType: 'CHILD_OF', traceID: s.traceId, spanID: s.parentSpanId }] : [],
          startTime: micros(s.startTimeUnixNano),
          duration: micros(s.endTimeUnixNano) - micros(s.startTimeUnixNano),
          tags: (s.attributes ?? []).map(tag),
          logs: (s.events ?? []).map((e) => ({ timestamp: micros(e.timeUnixNano), fields: [{ key: 'event', type: 'string', value: e.name }, ...(e.attributes ?? []).map(tag)] })),
          processID: 'p1',
        })),
        processes: { p1: { serviceName: 'agent', tags: [] } },
      },
    ],
    total: 0,
    limit: 0,
    offset: 0,
    errors: null,
  });
}

describe('importers: Jaeger trace JSON', () => {
  it("reads a real kagent export: the agent's tool call, the result, its answer (was: \"cannot tell the trace format\")", async () => {
    const trace = await readAnyTrace(path.join(fixtures, 'jaeger-kagent-helm.json'));
    assert.equal(trace.task?.question, 'list all Helm releases');
    assert.deepEqual(flow(trace, 24), [
      '0 helm_agent>tool:helm_list_releases: helm_list_releases()',
      '1 tool:helm_list_releases>helm_agent: NAME       \tNAMESPACE\tRE',
      '2 helm_agent>user: There are two Helm relea',
    ]);
  });

  it('reads a Strands trace stored by Jaeger (its message events as logs) as the OTLP file: the poisoned page is the source', async () => {
    const otlp = readFileSync(path.join(fixtures, 'otlp-strands-events.json'), 'utf8');
    const fromJaeger = importTraceText(asJaegerExport(JSON.parse(otlp)));
    assert.deepEqual(flow(fromJaeger, 40), flow(importTraceText(otlp), 40));
    assert.deepEqual((await analyzeTrace(fromJaeger)).sources, ['tool:fetch_page']);
  });

  it('reads times written as digit strings, and JSON Lines of whole downloads, one a line (was: times dropped and the calls out of order; the lines refused; review)', () => {
    const otlp = readFileSync(path.join(fixtures, 'otlp-strands-team.json'), 'utf8');
    const expected = flow(importTraceText(otlp), 30);
    const download = JSON.parse(asJaegerExport(JSON.parse(otlp))) as { data: { spans: { startTime: number | string; duration: number | string }[] }[] };
    for (const span of download.data[0].spans) {
      span.startTime = String(span.startTime);
      span.duration = String(span.duration);
    }
    download.data[0].spans.reverse();
    assert.deepEqual(flow(importTraceText(JSON.stringify(download)), 30), expected);
    const another = JSON.stringify(download).replaceAll(JSON.parse(otlp).resourceSpans[0].scopeSpans[0].spans[0].traceId, 'another-trace');
    const lines = `${JSON.stringify(download)}\n${another}\n`;
    assert.deepEqual(flow(importTraceText(lines, { from: 'jaeger' }), 30), expected);
    assert.deepEqual(flow(importTraceText(lines, { from: 'jaeger', episode: 1 }), 30), expected);
  });

  it('detects a large download whose traces list their traceID after their spans (keys sorted, as jq -S writes them; was: refused as not read)', () => {
    const otlp = readFileSync(path.join(fixtures, 'otlp-strands-events.json'), 'utf8');
    const download = JSON.parse(asJaegerExport(JSON.parse(otlp))) as { data: Record<string, unknown>[] };
    const { traceID, spans, processes } = download.data[0];
    const sorted = JSON.stringify({ data: [{ processes, spans, traceID }], padding: 'x'.repeat(100_000) }, null, 2);
    assert.deepEqual(flow(importTraceText(sorted), 30), flow(importTraceText(otlp), 30));
  });

  it('refuses a trace of spans without ids, and reads odd times and a "__proto__" tag without harm', () => {
    const doc = (spans: object[]) => JSON.stringify({ data: [{ traceID: 't', spans, processes: {} }] });
    assert.throws(() => importTraceText(doc([{ operationName: 'x', tags: [] }])), (e: unknown) => e instanceof InputError && /span without "spanID"; expected Jaeger spans/.test(e.message));
    assert.throws(() => importTraceText(doc([])), (e: unknown) => e instanceof InputError && /no spans found; expected a Jaeger trace export/.test(e.message), 'in its own words (was: OTLP\'s)');
    const odd = importTraceText(
      doc([
        { traceID: 't', spanID: 'a', operationName: 'invoke_agent helper', startTime: 'soon', duration: -5, tags: [{ key: '__proto__', value: 'x' }, { key: 'gen_ai.operation.name', value: 'invoke_agent' }, { key: 'gen_ai.agent.name', value: 'helper' }, { key: 'gen_ai.output.messages', value: '[{"role": "assistant", "content": "Hi."}]' }] },
      ]),
    );
    assert.deepEqual(flow(odd), ['0 helper>user: Hi.']);
  });
});
