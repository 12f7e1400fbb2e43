// The audit trail: chain building and verification, tampering caught at the right line, concurrent appends intact.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AUDIT_LOG, AuditChainVerifier, buildAuditRecords, type AuditEvent } from '../../../src/core/integrity/audit';
import { appendAuditEvents, verifyAuditLog } from '../../../src/node/integrity/auditLog';

const actor = { tool: 'test', version: '0' };
const events: AuditEvent[] = [
  { event: 'drift', decision: 'warn', path: 'skills/a/SKILL.md', old: 'sha256-old', new: 'sha256-new' },
  { event: 'repin', decision: 'approve', path: 'skills/a/SKILL.md', old: 'sha256-old', new: 'sha256-new' },
  { event: 'block', decision: 'block', detail: 'verify --strict refused: AGENTS.md' },
];

function verifyLines(lines: string[]) {
  const verifier = new AuditChainVerifier();
  lines.forEach((line, i) => verifier.push(line, i + 1));
  return verifier.result();
}

describe('integrity: audit chain', () => {
  const { text, records, head } = buildAuditRecords(events, actor, '2026-01-01T00:00:00.000Z', undefined);
  const lines = text.trimEnd().split('\n');

  it('writes a decision and a provenance record per event, chained from null', () => {
    assert.equal(records.length, 6);
    assert.deepEqual(records.map((r) => r.type), ['decision', 'provenance', 'decision', 'provenance', 'decision', 'provenance']);
    assert.equal(records[0].prev, null);
    assert.equal(records[1].prev, records[0].hash);
    assert.equal(records[1].old, 'sha256-old');
    assert.deepEqual(records[1].actor, actor);
    assert.deepEqual(head, { seq: 6, hash: records[5].hash });
    assert.deepEqual(verifyLines(lines), { records: 6, head, broken: undefined });
  });

  it('continues a chain from its head', () => {
    const more = buildAuditRecords(events.slice(0, 1), actor, '2026-01-02T00:00:00.000Z', head);
    assert.equal(more.records[0].seq, 7);
    assert.equal(verifyLines([...lines, ...more.text.trimEnd().split('\n')]).broken, undefined);
  });

  const tampers: [string, (l: string[]) => string[], number, string][] = [
    ['a hash edited', (l) => l.map((x, i) => (i === 3 ? x.replace('"sha256-new"', '"sha256-NEW"') : x)), 4, 'hash-mismatch'],
    ['a decision changed', (l) => l.map((x, i) => (i === 4 ? x.replace('"block"', '"warn"') : x)), 5, 'hash-mismatch'],
    ['one line deleted', (l) => l.filter((_, i) => i !== 2), 3, 'chain-broken'],
    ['two lines swapped', (l) => [l[0], l[2], l[1], ...l.slice(3)], 2, 'chain-broken'],
    ['a line cut short', (l) => l.map((x, i) => (i === 3 ? x.slice(0, 40) : x)), 4, 'not-json'],
    ['a blank line inserted', (l) => [l[0], '', ...l.slice(1)], 2, 'not-json'],
    ['a foreign record', (l) => [l[0], '{"hello":1}', ...l.slice(1)], 2, 'bad-record'],
  ];
  for (const [name, tamper, line, reason] of tampers) {
    it(`catches ${name} at line ${line} (${reason})`, () => {
      const broken = verifyLines(tamper(lines)).broken;
      assert.equal(broken?.reason, reason);
      assert.equal(broken?.line, line);
    });
  }
});

describe('integrity: audit log on disk', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-audit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends chained batches and verifies; a tampered line is named', async () => {
    await appendAuditEvents(dir, events.slice(0, 2), actor);
    await appendAuditEvents(dir, events.slice(2), actor);
    const file = path.join(dir, AUDIT_LOG);
    const ok = await verifyAuditLog(file);
    assert.equal(ok.records, 6);
    assert.equal(ok.broken, undefined);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[4] = lines[4].replace('"block"', '"warn"');
    writeFileSync(file, lines.join('\n'));
    const bad = await verifyAuditLog(file);
    assert.equal(bad.broken?.line, 5);
    assert.equal(bad.broken?.reason, 'hash-mismatch');
  });

  it('reports a log that ends in a torn line', async () => {
    await appendAuditEvents(dir, events, actor);
    const file = path.join(dir, AUDIT_LOG);
    writeFileSync(file, readFileSync(file, 'utf8').trimEnd());
    assert.equal((await verifyAuditLog(file)).broken?.reason, 'partial-line');
  });

  it('loses nothing and interleaves nothing when two processes append at once', async () => {
    const count = 60;
    const worker = path.join(__dirname, 'appendWorker.ts');
    const run = (tag: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ['--require', 'tsx/cjs', worker, dir, tag, String(count)], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code ?? -1));
      });
    assert.deepEqual(await Promise.all([run('p1'), run('p2')]), [0, 0]);
    const result = await verifyAuditLog(path.join(dir, AUDIT_LOG));
    assert.equal(result.broken, undefined);
    assert.equal(result.records, 2 * count * 2);
    const paths = readFileSync(path.join(dir, AUDIT_LOG), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).path as string);
    for (const tag of ['p1', 'p2']) assert.equal(new Set(paths.filter((p) => p.startsWith(tag))).size, count);
  });
});
