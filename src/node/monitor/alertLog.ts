// The alert log (.agent-immune/alerts/anomalies.ndjson): one JSON object per line, each record one write() on an
// O_APPEND descriptor so concurrent writers never lose or interleave a line; the tail gives the cooldown ledger.
// Both go through the workspace file layer: a log or folder the repository made a symlink is refused, never followed.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import type { MonitorFinding } from '../../core/monitor/types';
import { appendWorkspaceFile, openWorkspaceFile } from '../workspaceFs';

/** Where alerts go, relative to the workspace root. */
export const ALERT_LOG = '.agent-immune/alerts/anomalies.ndjson';
export const ALERT_SCHEMA = 'agent-immune/alert/v1';

/** One line of the alert log (a documented contract: docs/monitoring.md). */
export interface AlertRecord extends Omit<MonitorFinding, 'at'> {
  schema: typeof ALERT_SCHEMA;
  /** When the alert was recorded (ISO 8601). */
  time: string;
  /** The file or trace the alert came from. */
  source: string;
}

/** The record for a finding; trace-level subjects (agent ids) get their cooldown key scoped by the trace. */
export function alertRecord(finding: MonitorFinding, source: string, time: Date, scopeKeyBySource: boolean): AlertRecord {
  const rest: Partial<MonitorFinding> = { ...finding };
  delete rest.at;
  return {
    schema: ALERT_SCHEMA,
    time: time.toISOString(),
    ...(rest as Omit<MonitorFinding, 'at'>),
    source,
    cooldownKey: scopeKeyBySource ? `${finding.signal}:${source}#${finding.subject}` : finding.cooldownKey,
  };
}

/** The log's absolute path and the real root it must stay inside (`logPath` relative to `root`, or absolute inside it). */
async function locate(root: string, logPath: string): Promise<{ rootReal: string; file: string }> {
  const rootReal = await realpath(root);
  return { rootReal, file: path.resolve(rootReal, logPath) };
}

/** Appends records to `<root>/<logPath>`, one O_APPEND write() per record, creating its folders inside the root. */
export async function appendAlertRecords(root: string, records: readonly AlertRecord[], logPath = ALERT_LOG): Promise<void> {
  if (records.length === 0) return;
  const { rootReal, file } = await locate(root, logPath);
  await appendWorkspaceFile(rootReal, file, records.map((record) => Buffer.from(JSON.stringify(record) + '\n', 'utf8')));
}

/** Bytes of the log's tail read for the cooldown ledger: records older than that are long past any cooldown. */
const LEDGER_TAIL_BYTES = 4 * 1024 * 1024;

/** The last recorded time (ms) per cooldown key, from the log's tail; empty when there is no log. Unparsable lines are skipped. */
export async function readCooldownLedger(root: string, logPath = ALERT_LOG): Promise<Map<string, number>> {
  const ledger = new Map<string, number>();
  const { rootReal, file } = await locate(root, logPath);
  const opened = await openWorkspaceFile(rootReal, file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!opened) return ledger;
  const { handle, info } = opened;
  try {
    const size = info.size;
    const start = Math.max(0, size - LEDGER_TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    if (start > 0) lines.shift();
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as Partial<AlertRecord>;
        const time = Date.parse(record.time ?? '');
        if (typeof record.cooldownKey === 'string' && Number.isFinite(time)) ledger.set(record.cooldownKey, Math.max(time, ledger.get(record.cooldownKey) ?? 0));
      } catch {
        // A torn or foreign line: the ledger only loses one entry, the alert is recorded again.
      }
    }
  } finally {
    await handle.close();
  }
  return ledger;
}
