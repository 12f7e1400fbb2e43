// Skill integrity: verify 10,000 pinned 4 KB files cold (also 10,000 Markdown files pinned with LF and checked out with
// CRLF, each hashed with its other line endings), re-verify after one change, memory while hashing a big file, and
// 100,000 lockfile entries parsed and compared when they all share one hash (the worst case for rename pairing).
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { compareToLock } from '../src/core/integrity/compare';
import { buildLockfile, parseLockfile, serializeLockfile } from '../src/core/integrity/lockfile';
import type { FileDigest } from '../src/core/integrity/types';
import { hashFile, nodeSri } from '../src/node/integrity/hashFile';
import { lockWorkspace } from '../src/node/integrity/lock';
import { reverifyPaths, verifyWorkspace } from '../src/node/integrity/verify';
import type { BenchModule } from './types';

/** Writes `skills` skill folders of `perSkill` files (SKILL.md + scripts), each `size` bytes. */
function makeWorkspace(root: string, skills: number, perSkill: number, size: number): void {
  const filler = 'x'.repeat(size);
  for (let s = 0; s < skills; s++) {
    const dir = path.join(root, 'skills', `s${s}`);
    mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), `# skill ${s}\n${filler}`.slice(0, size));
    for (let f = 1; f < perSkill; f++) writeFileSync(path.join(dir, 'scripts', `f${f}.sh`), `# ${s}/${f}\n${filler}`.slice(0, size));
  }
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Verifies `root` cold three times (after one warm-up): the median wall and CPU milliseconds, and the last result. */
async function coldVerify(root: string): Promise<{ wallMs: number; cpuMs: number; state: Awaited<ReturnType<typeof verifyWorkspace>> }> {
  const wall: number[] = [];
  const cpuMs: number[] = [];
  let state = await verifyWorkspace(root);
  for (let i = 0; i < 3; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    state = await verifyWorkspace(root);
    wall.push(ms(t0));
    const cpu = process.cpuUsage(cpu0);
    cpuMs.push((cpu.user + cpu.system) / 1000);
  }
  return { wallMs: median(wall), cpuMs: median(cpuMs), state };
}

/** Writes `files` Markdown files of `size` bytes (a SKILL.md and references per skill folder, twenty lines each), pins
 * them with LF, then rewrites every one with CRLF, as a Windows checkout (core.autocrlf) holds them. */
async function makeCrlfCheckout(root: string, files: number, size: number): Promise<void> {
  const line = 'Read the request, then answer in plain words.'.padEnd(size / 20 - 1, '.') + '\n';
  const written: string[] = [];
  for (let s = 0; s < files / 20; s++) {
    const dir = path.join(root, 'skills', `s${s}`);
    mkdirSync(path.join(dir, 'references'), { recursive: true });
    for (let f = 0; f < 20; f++) {
      const file = path.join(dir, f === 0 ? 'SKILL.md' : `references/r${f}.md`);
      writeFileSync(file, `# ${s}/${f}\n${line.repeat(19)}`);
      written.push(file);
    }
  }
  await lockWorkspace(root, undefined);
  for (const file of written) writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
}

/** Parses and compares a lockfile of `entries` pinned files that all have the same content, against a workspace where
 * every one of them is gone and half as many new files have that content: each new file pairs with a missing entry. */
function compareSharedHash(entries: number): { parseMs: number; compareMs: number; compareCpuMs: number; findings: number } {
  const same: FileDigest = { integrity: nodeSri('same'), gitBlob: '0'.repeat(40), size: 4 };
  const pinned = new Map<string, FileDigest>();
  for (let i = 0; i < entries; i++) pinned.set(`skills/s${i % 1000}/f${i}.md`, same);
  const text = serializeLockfile(buildLockfile(pinned, new Set(), nodeSri));
  let t0 = process.hrtime.bigint();
  const parsed = parseLockfile(text, 'agent-immune.lock', nodeSri);
  const parseMs = ms(t0);
  if (!parsed.ok) throw new Error(`bench lockfile did not parse: ${parsed.finding.detail}`);
  const current = new Map<string, FileDigest>();
  for (let i = 0; i < entries / 2; i++) current.set(`moved/g${i}.md`, same);
  const cpu0 = process.cpuUsage();
  t0 = process.hrtime.bigint();
  const findings = compareToLock(parsed.lock, current, { lockfile: 'agent-immune.lock', skillDirs: new Set() });
  const compareMs = ms(t0);
  const cpu = process.cpuUsage(cpu0);
  return { parseMs, compareMs, compareCpuMs: (cpu.user + cpu.system) / 1000, findings: findings.length };
}

const bench: BenchModule = async ({ quick }) => {
  const files = quick ? 2_000 : 10_000;
  const root = mkdtempSync(path.join(tmpdir(), 'ai-bench-integrity-'));
  try {
    makeWorkspace(root, files / 20, 20, 4096);
    let t0 = process.hrtime.bigint();
    const locked = await lockWorkspace(root, undefined);
    const lockMs = ms(t0);
    const cold = await coldVerify(root);
    let state = cold.state;
    if (state.report.status !== 'clean') throw new Error(`bench workspace not clean: ${state.report.status}`);
    const changed = 'skills/s7/scripts/f3.sh';
    const reRuns: number[] = [];
    for (let i = 0; i < 20; i++) {
      appendFileSync(path.join(root, changed), 'y');
      t0 = process.hrtime.bigint();
      state = await reverifyPaths(state, [changed]);
      reRuns.push(ms(t0));
    }
    if (state.report.findings[0]?.code !== 'drift') throw new Error('re-verify missed the drift');

    const bigMb = quick ? 32 : 256;
    const big = path.join(root, 'big.bin');
    const chunk = Buffer.alloc(1 << 20, 7);
    for (let i = 0; i < bigMb; i++) appendFileSync(big, chunk);
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    t0 = process.hrtime.bigint();
    await hashFile(big);
    const bigMs = ms(t0);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);

    const crlfRoot = path.join(root, 'crlf');
    await makeCrlfCheckout(crlfRoot, files, 4096);
    const crlf = await coldVerify(crlfRoot);
    if (crlf.state.report.status !== 'clean') throw new Error(`CRLF checkout not clean: ${crlf.state.report.findings.length} findings`);

    const entries = quick ? 20_000 : 100_000;
    const shared = compareSharedHash(entries);
    if (shared.findings !== entries) throw new Error(`shared-hash comparison gave ${shared.findings} findings, expected ${entries}`);

    const coldMedian = cold.wallMs;
    const reMedian = median(reRuns);
    const growthMb = (peak - rss0) / 1048576;
    return {
      title: `Skill integrity (${files.toLocaleString('en')} pinned 4 KB files)`,
      rows: [
        { step: 'lock (hash sha256 + git blob, write)', ms: Math.round(lockMs) },
        { step: 'verify cold (walk + hash + compare), median of 3', ms: Math.round(coldMedian) },
        { step: 'verify cold: CPU time of this process (user + system)', ms: Math.round(cold.cpuMs) },
        { step: `verify cold, ${files.toLocaleString('en')} Markdown files pinned with LF, checked out with CRLF, median of 3`, ms: Math.round(crlf.wallMs) },
        { step: 'verify cold of the CRLF checkout: CPU time', ms: Math.round(crlf.cpuMs) },
        { step: 're-verify after one change, median of 20', ms: Number(reMedian.toFixed(2)) },
        { step: `hash a ${bigMb} MB file (streamed)`, ms: Math.round(bigMs) },
        { step: `parse a lockfile of ${entries.toLocaleString('en')} entries`, ms: Math.round(shared.parseMs) },
        { step: `compare ${entries.toLocaleString('en')} entries sharing one hash (all missing, half renamed)`, ms: Math.round(shared.compareMs) },
      ],
      figures: {
        integrity_files: locked.files,
        integrity_verify_cold_ms: Math.round(coldMedian),
        integrity_verify_cold_cpu_ms: Math.round(cold.cpuMs),
        integrity_verify_crlf_checkout_ms: Math.round(crlf.wallMs),
        integrity_verify_crlf_checkout_cpu_ms: Math.round(crlf.cpuMs),
        load_average_1m: Number(loadavg()[0].toFixed(1)),
        integrity_reverify_one_ms: Number(reMedian.toFixed(2)),
        integrity_big_file_mb: bigMb,
        integrity_big_file_rss_growth_mb: Number(growthMb.toFixed(1)),
        integrity_lockfile_entries: entries,
        integrity_parse_entries_ms: Math.round(shared.parseMs),
        integrity_compare_entries_ms: Math.round(shared.compareMs),
        integrity_compare_entries_cpu_ms: Math.round(shared.compareCpuMs),
      },
      notes: [
        `verify cold <= 1500 ms for 10,000 files: ${coldMedian <= 1500 ? 'met' : 'NOT met'} (${Math.round(coldMedian)} ms wall, ${Math.round(cold.cpuMs)} ms CPU, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; page cache warm, files just written)`,
        `verify cold <= 1500 ms for ${files.toLocaleString('en')} Markdown files of a CRLF checkout pinned with LF, each also hashed with its other line endings: ${crlf.wallMs <= 1500 ? 'met' : 'NOT met'} (${Math.round(crlf.wallMs)} ms wall, ${Math.round(crlf.cpuMs)} ms CPU)`,
        `re-verify after one change <= 10 ms: ${reMedian <= 10 ? 'met' : 'NOT met'} (${reMedian.toFixed(2)} ms)`,
        `memory flat while hashing ${bigMb} MB: RSS grew ${growthMb.toFixed(1)} MB (1 MiB chunks)`,
        `${entries.toLocaleString('en')} lockfile entries compared <= 2000 ms: ${shared.compareMs <= 2000 ? 'met' : 'NOT met'} (${Math.round(shared.compareMs)} ms wall, ${Math.round(shared.compareCpuMs)} ms CPU; parsing them ${Math.round(shared.parseMs)} ms; load average ${loadavg()[0].toFixed(1)})`,
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

export default bench;
