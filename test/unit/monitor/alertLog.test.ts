// The alert log: records as documented, concurrent writers in two processes lose and interleave nothing, the ledger.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ALERT_SCHEMA, alertRecord, appendAlertRecords, readCooldownLedger } from '../../../src/node/monitor/alertLog';

const root = path.resolve(__dirname, '../../..');

function runWorker(logRoot: string, file: string, writer: string, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(__dirname, 'helpers/appendWorker.ts'), logRoot, file, writer, String(count)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('monitor: alert log', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-alerts-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one JSON object per line with time, signal, subject, evidence, markers and cooldown key', async () => {
    const file = path.join(dir, 'nested/anomalies.ndjson');
    const finding = { signal: 'viralPersona' as const, code: 'viral-persona' as const, subject: 'a0', evidence: { text: 'node', start: 1, end: 5, round: 2 }, markers: ['node'], cooldownKey: 'viralPersona:a0', at: 3 };
    await appendAlertRecords(dir, [alertRecord(finding, 'run.jsonl', new Date('2026-01-02T03:04:05Z'), true)], 'nested/anomalies.ndjson');
    const [line, ...rest] = readFileSync(file, 'utf8').split('\n');
    assert.deepEqual(rest, ['']);
    assert.deepEqual(JSON.parse(line), { schema: ALERT_SCHEMA, time: '2026-01-02T03:04:05.000Z', signal: 'viralPersona', code: 'viral-persona', subject: 'a0', evidence: { text: 'node', start: 1, end: 5, round: 2 }, markers: ['node'], cooldownKey: 'viralPersona:run.jsonl#a0', source: 'run.jsonl' });
  });

  it('two processes appending at once lose no line and interleave none', async function () {
    this.timeout(120_000);
    const file = path.join(dir, 'anomalies.ndjson');
    const codes = await Promise.all([runWorker(dir, 'anomalies.ndjson', 'left', 300), runWorker(dir, 'anomalies.ndjson', 'right', 300)]);
    assert.deepEqual(codes, [0, 0]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 600);
    const subjects = new Set(lines.map((l) => (JSON.parse(l) as { subject: string }).subject));
    assert.equal(subjects.size, 600);
  });

  it('the ledger keeps the latest time per cooldown key and skips torn lines', async () => {
    const file = path.join(dir, 'anomalies.ndjson');
    writeFileSync(file, ['{"cooldownKey":"k","time":"2026-01-01T00:00:00Z"}', '{"cooldownKey":"k","time":"2026-01-01T00:00:10Z"}', '{"cooldownKey":"j","ti', ''].join('\n'));
    const ledger = await readCooldownLedger(dir, 'anomalies.ndjson');
    assert.deepEqual([...ledger], [['k', Date.parse('2026-01-01T00:00:10Z')]]);
    assert.equal((await readCooldownLedger(dir, 'missing.ndjson')).size, 0);
  });
});
