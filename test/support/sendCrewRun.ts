// Sends the crew run's spans to a receiver with the real OTel exporter, as an instrumented app would:
//   npx tsx test/support/sendCrewRun.ts http://127.0.0.1:4318 [--json] [--conversation ID] [--pace MS]
// --pace waits MS between the run's cycles of invocations, so a watcher sees the rounds arrive one after another.
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { crewProvider, crewRun, emitCrewRun } from './otlpRuns';

async function main(): Promise<void> {
  const [base = 'http://127.0.0.1:4318', ...rest] = process.argv.slice(2);
  const flag = (name: string) => rest.indexOf(name);
  const conversation = flag('--conversation') >= 0 ? rest[flag('--conversation') + 1] : 'conv-moons';
  const pace = flag('--pace') >= 0 ? Number(rest[flag('--pace') + 1]) : 0;
  const Exporter = flag('--json') >= 0 ? JsonExporter : ProtoExporter;
  const provider = crewProvider(new BatchSpanProcessor(new Exporter({ url: `${base}/v1/traces` }), { scheduledDelayMillis: 20 }));
  const run = crewRun({ workers: 5, cycles: 3, attacker: 1 });
  const epoch = Date.now() - 60_000;
  if (pace > 0) {
    // Real time: each span is emitted when its invocation ends, so rounds close one after another.
    const start = Date.now();
    await emitCrewRun(provider.getTracer('crew'), run, conversation, epoch, async (offset) => {
      await provider.forceFlush();
      const due = start + offset * pace;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    });
  } else await emitCrewRun(provider.getTracer('crew'), run, conversation, epoch);
  await provider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
