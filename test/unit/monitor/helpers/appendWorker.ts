// Child process for the concurrent-append test: appends N alert records to a log under a root, one call per record.
import { alertRecord, appendAlertRecords } from '../../../../src/node/monitor/alertLog';

const [root, file, writer, count] = process.argv.slice(2);
const padding = 'x'.repeat(3000);

async function main(): Promise<void> {
  for (let i = 0; i < Number(count); i++) {
    const finding = { signal: 'viralPersona' as const, code: 'viral-persona' as const, subject: `${writer}-${i}`, evidence: { text: padding, start: 0, end: 1 }, markers: [writer], cooldownKey: `viralPersona:${writer}-${i}` };
    await appendAlertRecords(root, [alertRecord(finding, 'test', new Date(), false)], file);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
