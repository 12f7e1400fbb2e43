// The audit trail: chain building and verification, tampering caught at the right line, the keyed chain (what a
// forger without the key can and cannot do), recording each change of state once, concurrent appends intact, and a
// lock left by a killed writer taken over.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import { createHmac } from 'node:crypto';
import { AUDIT_LOG, AuditChainVerifier, auditKeyOf, buildAuditRecords, recordDigest, type AuditEvent, type AuditKey, type AuditRecord } from '../../../src/core/integrity/audit';
import { auditDelta, OpenFindings } from '../../../src/core/integrity/auditState';
import { sortKeys } from '../../../src/core/integrity/lockfile';
import { hmacSha256, toHex } from '../../../src/core/integrity/sha256';
import type { IntegrityFinding } from '../../../src/core/integrity/types';
import { appendAuditEvents, brokenTrailWarning, recordIntegrityRun, verifyAuditLog } from '../../../src/node/integrity/auditLog';
import { FileLockTimeoutError, withFileLock } from '../../../src/node/integrity/fileLock';

const actor = { tool: 'test', version: '0' };
const events: AuditEvent[] = [
  { event: 'drift', decision: 'warn', path: 'skills/a/SKILL.md', old: 'sha256-old', new: 'sha256-new' },
  { event: 'repin', decision: 'approve', path: 'skills/a/SKILL.md', old: 'sha256-old', new: 'sha256-new' },
  { event: 'block', decision: 'block', detail: 'verify --strict refused: AGENTS.md' },
];

function verifyLines(lines: string[], key?: AuditKey) {
  const verifier = new AuditChainVerifier(key);
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
    assert.deepEqual(verifyLines(lines), { records: 6, head, broken: undefined, guarantee: 'unkeyed', macs: { valid: 0, missing: 6, unchecked: 0, firstUnverified: 1 } });
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
    // 2^60 prints as 1152921504606846976 whatever the file says: no message could name the record as written.
    ['a seq past 2^53', (l) => l.map((x, i) => (i === 1 ? x.replace('"seq":2', '"seq":1152921504606846977') : x)), 2, 'bad-record'],
    ['a fractional seq', (l) => l.map((x, i) => (i === 1 ? x.replace('"seq":2', '"seq":2.5') : x)), 2, 'bad-record'],
    // A reader keeping the first of two values would see "warn" where the hash covers "block".
    ['a duplicate key', (l) => l.map((x, i) => (i === 4 ? x.replace('{', '{"decision":"warn",') : x)), 5, 'duplicate-key'],
    ['a record nested 10,000 deep', (l) => [l[0], '['.repeat(10_000) + ']'.repeat(10_000), ...l.slice(1)], 2, 'not-json'],
  ];
  for (const [name, tamper, line, reason] of tampers) {
    it(`catches ${name} at line ${line} (${reason})`, () => {
      const broken = verifyLines(tamper(lines)).broken;
      assert.equal(broken?.reason, reason);
      assert.equal(broken?.line, line);
    });
  }
});

/** Re-chains records after editing them, as a forger who can write the file but has no key would. */
function rechain(records: Omit<AuditRecord, 'hash' | 'prev'>[]): string[] {
  let prev: string | null = null;
  return records.map((body) => {
    const unhashed = { ...body, prev } as Omit<AuditRecord, 'hash'>;
    const hash = recordDigest(unhashed);
    prev = hash;
    return JSON.stringify(sortKeys({ ...unhashed, hash }));
  });
}

describe('integrity: keyed audit chain', () => {
  const key = auditKeyOf(new TextEncoder().encode('k'.repeat(40)));
  const other = auditKeyOf(new TextEncoder().encode('o'.repeat(40)));
  const keyed = buildAuditRecords(events, actor, '2026-01-01T00:00:00.000Z', undefined, key);
  const lines = keyed.text.trimEnd().split('\n');

  it('HMAC-SHA256 matches node:crypto, for short and long keys', () => {
    for (const secret of ['k', 'x'.repeat(64), 'y'.repeat(100)]) {
      assert.equal(toHex(hmacSha256(new TextEncoder().encode(secret), 'message')), createHmac('sha256', secret).update('message').digest('hex'));
    }
  });

  it('every record names the key by id (not the secret) and carries a MAC; verified with the key it is "keyed"', () => {
    assert.ok(keyed.records.every((r) => r.keyId === key.id && r.mac?.startsWith('hmac-sha256-')));
    assert.ok(!keyed.text.includes('k'.repeat(40)));
    const result = verifyLines(lines, key);
    assert.deepEqual([result.broken, result.guarantee, result.macs.valid], [undefined, 'keyed', 6]);
    assert.equal(verifyLines(lines).guarantee, 'unkeyed', 'without the key: order only');
    assert.deepEqual(verifyLines(lines, other).macs, { valid: 0, missing: 0, unchecked: 6, firstUnverified: 1 });
  });

  const forgeries: [string, (l: string[]) => string[], { reason?: string; line?: number; guarantee?: string; firstUnverified?: number }][] = [
    ['a record appended without the key', (l) => [...l, ...buildAuditRecords(events.slice(0, 1), actor, 't', verifyLines(l).head).text.trimEnd().split('\n')], { guarantee: 'unkeyed', firstUnverified: 7 }],
    ['the whole chain rewritten without the key (MACs dropped, hashes recomputed)', (l) => rechain(l.map((x) => JSON.parse(x)).map(({ hash: _h, prev: _p, mac: _m, keyId: _k, ...r }) => r)), { guarantee: 'unkeyed', firstUnverified: 1 }],
    ['an edited record with its hash recomputed and the old MAC kept', (l) => rechain(l.map((x) => JSON.parse(x)).map(({ hash: _h, prev: _p, ...r }, i) => (i === 2 ? { ...r, decision: 'warn' } : r))), { reason: 'bad-mac', line: 3 }],
    ['a record claiming another key', (l) => rechain(l.map((x) => JSON.parse(x)).map(({ hash: _h, prev: _p, ...r }, i) => (i === 5 ? { ...r, keyId: other.id } : r))), { guarantee: 'unkeyed', firstUnverified: 6 }],
  ];
  for (const [name, forge, expected] of forgeries) {
    it(`a forger without the key: ${name} is ${expected.reason ?? 'no longer "keyed"'}`, () => {
      const forged = forge(lines);
      assert.equal(verifyLines(forged).broken, undefined, 'the unkeyed chain itself is intact: that is all an unkeyed check proves');
      const result = verifyLines(forged, key);
      if (expected.reason) {
        assert.deepEqual([result.broken?.reason, result.broken?.line], [expected.reason, expected.line]);
      } else {
        assert.deepEqual([result.broken, result.guarantee, result.macs.firstUnverified], [undefined, expected.guarantee, expected.firstUnverified]);
      }
    });
  }
});

describe('integrity: audit trail records each change of state once', () => {
  const sri = (c: string) => `sha256-${c.repeat(43)}=`;
  const drift: IntegrityFinding = { code: 'drift', path: 'a/SKILL.md', expected: sri('A'), actual: sri('B') };
  const added: IntegrityFinding = { code: 'skill-file-added', path: 'a/x.sh', skill: 'a', actual: sri('C') };
  const replay = (text: string) => {
    const open = new OpenFindings();
    for (const line of text.trimEnd().split('\n').filter(Boolean)) open.push(JSON.parse(line));
    return open.events();
  };
  it('a finding seen again is not recorded; a finding gone is recorded as cleared; a changed one is both', () => {
    let text = '';
    let head: ReturnType<typeof buildAuditRecords>['head'];
    const run = (findings: IntegrityFinding[]) => {
      const delta = auditDelta(replay(text), findings, 'warn');
      const built = buildAuditRecords(delta, actor, 't', head);
      text += built.text;
      head = built.head;
      return delta.map((e) => `${e.event}:${e.decision}:${e.path}`);
    };
    assert.deepEqual(run([drift, added]), ['drift:warn:a/SKILL.md', 'skill-file-added:warn:a/x.sh']);
    assert.deepEqual(run([drift, added]), []);
    assert.deepEqual(run([drift]), ['skill-file-added:clear:a/x.sh']);
    assert.deepEqual(run([{ ...drift, actual: sri('D') }]), ['drift:warn:a/SKILL.md', 'drift:clear:a/SKILL.md']);
    assert.deepEqual(run([]), ['drift:clear:a/SKILL.md']);
    assert.deepEqual(run([]), []);
    assert.equal(verifyLines(text.trimEnd().split('\n')).broken, undefined);
  });
});

describe('integrity: audit log on disk', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-audit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends chained batches and verifies; a tampered line is named', async () => {
    await appendAuditEvents(dir, events.slice(0, 2), { actor });
    await appendAuditEvents(dir, events.slice(2), { actor });
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
    await appendAuditEvents(dir, events, { actor });
    const file = path.join(dir, AUDIT_LOG);
    writeFileSync(file, readFileSync(file, 'utf8').trimEnd());
    assert.equal((await verifyAuditLog(file)).broken?.reason, 'partial-line');
  });

  it('records a run once per change of state, creates no log for a clean run, and blocks each time', async () => {
    const drift: IntegrityFinding = { code: 'drift', path: 'a/SKILL.md', expected: 'sha256-old', actual: 'sha256-new' };
    const writer = { actor };
    assert.deepEqual(await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer), { records: [] });
    assert.equal(existsSync(path.join(dir, '.agent-immune')), false);
    assert.equal((await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, writer)).records.length, 2);
    assert.equal((await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, writer)).records.length, 0);
    const blocked = (await recordIntegrityRun(dir, { findings: [drift], decision: 'block', blockedBy: 'test run' }, writer)).records;
    assert.deepEqual(blocked.map((r) => r.event), ['block', 'block']);
    const cleared = (await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer)).records;
    assert.deepEqual(cleared.map((r) => `${r.event}:${r.decision ?? ''}`), ['drift:clear', 'drift:']);
    assert.equal((await verifyAuditLog(path.join(dir, AUDIT_LOG))).broken, undefined);
  });

  it('with a key, a forged "already recorded" record does not stop a finding from being recorded', async () => {
    const key = auditKeyOf(new TextEncoder().encode('k'.repeat(40)));
    const drift: IntegrityFinding = { code: 'drift', path: 'a/SKILL.md', expected: 'sha256-old', actual: 'sha256-evil' };
    // The forger appends the finding themselves, without the key, hoping the real one is taken as recorded.
    await appendAuditEvents(dir, [{ event: 'drift', decision: 'warn', path: drift.path, old: drift.expected, new: drift.actual }], { actor: { tool: 'forger', version: '0' } });
    assert.equal((await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, { actor })).records.length, 0, 'unkeyed, the forgery works');
    assert.equal((await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, { actor, key })).records.length, 2, 'keyed, it does not');
  });

  it('says when the trail\'s chain is broken (was silent: an edited record went unnoticed until audit verify), but not for a line a killed writer left torn', async () => {
    const drift: IntegrityFinding = { code: 'drift', path: 'a/SKILL.md', expected: 'sha256-old', actual: 'sha256-new' };
    const writer = { actor };
    const log = path.join(dir, AUDIT_LOG);
    assert.equal((await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, writer)).broken, undefined);
    // A writer killed mid-record, then runs that go on: no warning, and nothing recorded twice.
    writeFileSync(log, readFileSync(log, 'utf8') + '{"decision":"warn","event":"dri');
    const afterTear = await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer);
    assert.deepEqual([afterTear.broken, afterTear.records.map((r) => r.event)], [undefined, ['drift', 'drift']]);
    assert.deepEqual((await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer)).records, []);
    // Someone edits a recorded finding.
    writeFileSync(log, readFileSync(log, 'utf8').replace('"decision":"warn"', '"decision":"warn","detail":"approved"'));
    const edited = await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer);
    assert.equal(edited.broken?.reason, 'hash-mismatch');
    assert.match(brokenTrailWarning(edited.broken!), /^the audit trail's chain is broken at line 1 \(record 1 was edited after it was written\); "agent-immune audit verify" shows it/);
    assert.equal((await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer)).broken?.line, 1, 'said at every run until the trail is moved away');
  });

  it('a torn line cut inside a character is skipped like any torn line, and lines that are no record of the trail decide nothing (was: reading stopped there, re-recording at every run)', async () => {
    const drift: IntegrityFinding = { code: 'drift', path: 'skills/démo/SKILL.md', expected: 'sha256-old', actual: 'sha256-new' };
    const writer = { actor };
    const log = path.join(dir, AUDIT_LOG);
    await recordIntegrityRun(dir, { findings: [drift], decision: 'warn' }, writer);
    const text = readFileSync(log);
    const cut = text.indexOf(Buffer.from('é')) + 1;
    writeFileSync(log, Buffer.concat([text, text.subarray(0, cut)]));
    const cleared = await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer);
    assert.deepEqual([cleared.broken, cleared.records.map((r) => r.decision ?? '')], [undefined, ['clear', '']]);
    assert.deepEqual((await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer)).records, [], 'nothing recorded twice');
    // Lines that are JSON but no record of this trail: reported as a break, and no finding of theirs is cleared.
    writeFileSync(log, readFileSync(log, 'utf8') + JSON.stringify({ event: 'drift', decision: 'warn', path: { toString: 1 }, detail: ['x'] }) + '\n');
    const after = await recordIntegrityRun(dir, { findings: [], decision: 'warn' }, writer);
    assert.deepEqual([after.broken?.reason, after.records], ['bad-record', []]);
  });

  it('takes over a lock left by a killed writer at once; waits for a running one and names it', async () => {
    const file = path.join(dir, 'target');
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    writeFileSync(file + '.lock', JSON.stringify({ pid: dead, host: hostname(), time: new Date().toISOString() }) + '\n');
    const started = Date.now();
    assert.equal(await withFileLock(file, async () => 'ran', 5_000), 'ran');
    assert.ok(Date.now() - started < 4_000, 'did not wait for the timeout');
    assert.equal(existsSync(file + '.lock'), false);
    writeFileSync(file + '.lock', JSON.stringify({ pid: process.pid, host: hostname(), time: new Date().toISOString() }) + '\n');
    await assert.rejects(withFileLock(file, async () => 'ran', 200), (e: unknown) => e instanceof FileLockTimeoutError && e.owner?.pid === process.pid && e.message.includes(`process ${process.pid}`));
    assert.ok(existsSync(file + '.lock'), "a running owner's lock is never removed");
    rmSync(file + '.lock');
    writeFileSync(file + '.lock', '');
    utimesSync(file + '.lock', new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    assert.equal(await withFileLock(file, async () => 'ran', 5_000), 'ran', 'an empty lock (killed right after creating it) is stale once old');
  });

  it('takes over a lock from another host dated in the future (it never aged), and says another host cannot be checked', async () => {
    const file = path.join(dir, 'target');
    const now = new Date().toISOString();
    writeFileSync(file + '.lock', JSON.stringify({ pid: 1, host: 'other-host', time: now }) + '\n');
    await assert.rejects(withFileLock(file, async () => 'ran', 200), (e: unknown) => e instanceof FileLockTimeoutError && e.message.includes(`on other-host (since ${now}), which cannot be checked from this host`));
    const future = new Date(Date.UTC(2030, 0, 1));
    utimesSync(file + '.lock', future, future);
    const started = Date.now();
    assert.equal(await withFileLock(file, async () => 'ran', 5_000), 'ran');
    assert.ok(Date.now() - started < 4_000, 'did not wait for the timeout');
  });

  it('breaks at once a lock its writer did not write: one committed to the repository, its time not its file\'s (was: auditing off for 60 s after each checkout)', async () => {
    const file = path.join(dir, 'target');
    for (const owner of [{ pid: 1, host: 'other-host', time: '2020-01-01T00:00:00Z' }, { pid: 1, host: 'other-host', time: 'x' }]) {
      writeFileSync(file + '.lock', JSON.stringify(owner) + '\n');
      const started = Date.now();
      assert.equal(await withFileLock(file, async () => 'ran', 5_000), 'ran', JSON.stringify(owner));
      assert.ok(Date.now() - started < 4_000, 'did not wait for the timeout');
    }
    // This host's running writer is never broken, whatever its file's date (another clock: NFS, a WSL mount)...
    writeFileSync(file + '.lock', JSON.stringify({ pid: process.pid, host: hostname(), time: new Date().toISOString() }) + '\n');
    const skewed = new Date(Date.now() - 3_600_000);
    utimesSync(file + '.lock', skewed, skewed);
    await assert.rejects(withFileLock(file, async () => 'ran', 200), FileLockTimeoutError);
    rmSync(file + '.lock');
    // ...but a lock naming this host and a running pid, dated long ago, was written by no writer here.
    writeFileSync(file + '.lock', JSON.stringify({ pid: 1, host: hostname(), time: '2020-01-01T00:00:00Z' }) + '\n');
    assert.equal(await withFileLock(file, async () => 'ran', 5_000), 'ran');
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
