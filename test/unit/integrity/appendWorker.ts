// Child process for the concurrent-append test: appends N audit events to the log under argv[2] as fast as it can.
import { appendAuditEvents } from '../../../src/node/integrity/auditLog';

async function main(): Promise<void> {
  const [root, tag, count] = process.argv.slice(2);
  for (let i = 0; i < Number(count); i++) {
    await appendAuditEvents(root, [{ event: 'drift', decision: 'warn', path: `${tag}/${i}.md`, detail: 'x'.repeat(i % 7 === 0 ? 5000 : 10) }], { actor: { tool: tag, version: 'test' } });
  }
}

void main();
