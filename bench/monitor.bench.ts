// Propagation monitoring (issue 6): viralPersona + propagationRequest recall on the mind-virus payloads we wrote
// (development set and a held-out set written afterwards), false positives on benign text (BIPIA e-mails, README and
// docs files from node_modules, technical near misses), and `scan` throughput over 10,000 files / 100 MB.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../src/cli/main';
import { resolveMonitorConfig } from '../src/core/monitor/config';
import { propagationRequest } from '../src/core/monitor/propagationRequest';
import { viralPersona } from '../src/core/monitor/viralPersona';
import type { BenchModule, BenchSection } from './types';

const root = path.resolve(__dirname, '..');
const data = path.join(__dirname, 'data/mind-virus');
const BIPIA_EMAILS = path.resolve(root, '../shared/data/bipia/email_train.jsonl');
const config = resolveMonitorConfig(undefined);

/** Blocks of a corpus file: `--- <label>` then the text. */
function blocks(file: string): { label: string; text: string }[] {
  const parts = readFileSync(file, 'utf8').split(/^--- ([\w-]+)\n/m).slice(1);
  const out: { label: string; text: string }[] = [];
  for (let i = 0; i < parts.length; i += 2) out.push({ label: parts[i], text: parts[i + 1].trim() });
  return out;
}

/** README and docs Markdown files of the packages in node_modules (real open-source documentation). */
function nodeModulesDocs(): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.isFile() && /\.md$/i.test(entry.name) && (/^readme/i.test(entry.name) || full.includes(`${path.sep}docs${path.sep}`))) found.push(full);
    }
  };
  walk(path.join(root, 'node_modules'), 0);
  return found.sort();
}

const detected = (text: string) => {
  const document = { subject: 'doc', text };
  return { persona: viralPersona(document, config) !== undefined, request: propagationRequest(document) !== undefined };
};

function detection(): BenchSection {
  const rows: BenchSection['rows'] = [];
  const recallOf = (name: string, items: { label: string; text: string }[]) => {
    const byStyle = new Map<string, { n: number; hit: number; persona: number; request: number }>();
    for (const { label, text } of items) {
      const d = detected(text);
      const s = byStyle.get(label) ?? { n: 0, hit: 0, persona: 0, request: 0 };
      s.n++;
      s.hit += d.persona || d.request ? 1 : 0;
      s.persona += d.persona ? 1 : 0;
      s.request += d.request ? 1 : 0;
      byStyle.set(label, s);
    }
    let n = 0;
    let hit = 0;
    for (const [style, s] of [...byStyle].sort()) {
      rows.push({ corpus: name, kind: `payload/${style}`, documents: s.n, viralPersona: s.persona, propagationRequest: s.request, flagged: s.hit, rate: s.hit / s.n });
      n += s.n;
      hit += s.hit;
    }
    return hit / n;
  };
  const recall = recallOf('payloads (dev)', blocks(path.join(data, 'payloads.txt')));
  const heldout = recallOf('payloads (held-out)', blocks(path.join(data, 'heldout.txt')));

  const benign: { corpus: string; text: string }[] = [];
  for (const { text } of [...blocks(path.join(data, 'technical.txt')), ...blocks(path.join(data, 'heldout-technical.txt'))]) benign.push({ corpus: 'technical near misses', text });
  const notes: string[] = [];
  if (existsSync(BIPIA_EMAILS)) {
    for (const line of readFileSync(BIPIA_EMAILS, 'utf8').split('\n').filter(Boolean)) benign.push({ corpus: 'BIPIA email_train (MIT)', text: (JSON.parse(line) as { context: string }).context });
  } else notes.push(`BIPIA e-mails not found at ${BIPIA_EMAILS}; benign figures exclude them`);
  for (const file of nodeModulesDocs()) benign.push({ corpus: 'node_modules README/docs', text: readFileSync(file, 'utf8') });
  let falsePositives = 0;
  for (const corpus of [...new Set(benign.map((b) => b.corpus))]) {
    const docs = benign.filter((b) => b.corpus === corpus);
    let persona = 0;
    let request = 0;
    let flagged = 0;
    for (const { text } of docs) {
      const d = detected(text);
      persona += d.persona ? 1 : 0;
      request += d.request ? 1 : 0;
      flagged += d.persona || d.request ? 1 : 0;
    }
    falsePositives += flagged;
    rows.push({ corpus, kind: 'benign', documents: docs.length, viralPersona: persona, propagationRequest: request, flagged, rate: flagged / docs.length });
  }
  const fpRate = falsePositives / benign.length;
  notes.push(
    `target: viralPersona + propagationRequest recall >= 0.9 on the payloads: ${recall >= 0.9 ? 'met' : 'NOT met'} (${recall.toFixed(3)}); held-out ${heldout.toFixed(3)}`,
    `target: false positives <= 1% of benign documents: ${fpRate <= 0.01 ? 'met' : 'NOT met'} (${(fpRate * 100).toFixed(2)}% of ${benign.length})`,
    'the held-out payloads and near misses were written after the lexicon was tuned on the dev set; their first blind run scored recall 0.821 (23/28) with 1 false positive in 68 benign documents, and the misses then fed four rule fixes, so the held-out figure above is no longer blind',
  );
  return { title: 'Monitor: mind-virus detection (viralPersona + propagationRequest)', rows, figures: { recall, heldoutRecall: heldout, benignDocuments: benign.length, falsePositives, fpRate }, notes };
}

/**
 * A generated workspace: `files` persisted files of `bytes` each, cut from a long stream of real benign text (README and
 * docs files from node_modules, BIPIA e-mails, one technical near miss between documents); 1 % carry a payload.
 */
export function generateWorkspace(dir: string, files: number, bytes: number): number {
  const docs = nodeModulesDocs().map((f) => readFileSync(f, 'utf8'));
  const emails = existsSync(BIPIA_EMAILS) ? readFileSync(BIPIA_EMAILS, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { context: string }).context) : [];
  const technical = blocks(path.join(data, 'technical.txt')).map((b) => b.text);
  const parts: string[] = [];
  docs.forEach((doc, i) => parts.push(doc, emails[i % Math.max(1, emails.length)] ?? '', technical[i % technical.length]));
  const stream = parts.join('\n\n');
  const payloads = blocks(path.join(data, 'payloads.txt')).map((b) => b.text);
  let total = 0;
  let offset = 0;
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, `agents/agent-${Math.floor(i / 100)}/memory`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    if (offset + bytes > stream.length) offset = (offset * 7 + 1) % (stream.length - bytes);
    let text = stream.slice(offset, offset + bytes);
    offset += bytes;
    if (i % 100 === 42) text = text.slice(0, bytes / 2) + '\n\n' + payloads[i % payloads.length] + '\n\n' + text.slice(bytes / 2);
    writeFileSync(path.join(folder, `notes-${i % 100}.md`), text);
    total += Buffer.byteLength(text);
  }
  return total;
}

async function throughput(quick: boolean): Promise<BenchSection> {
  const files = quick ? 1000 : 10_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-scan-bench-'));
  try {
    const bytes = generateWorkspace(dir, files, 10_000);
    let stdout = '';
    const io = { stdout: (t: string) => (stdout += t), stderr: () => undefined, cwd: dir, env: {} };
    const runs: { seconds: number; cpuSeconds: number; load: number }[] = [];
    const byCode: Record<string, number> = {};
    for (let r = 0; r < 3; r++) {
      stdout = '';
      const load = loadavg()[0];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const code = await runCli(['scan', '.', '--json', '--no-log'], io);
      const cpu = process.cpuUsage(cpu0);
      runs.push({ seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, load });
      if (code !== 0) throw new Error(`scan exited ${code}`);
      if (r === 0) for (const alert of (JSON.parse(stdout) as { alerts: { code: string }[] }).alerts) byCode[alert.code] = (byCode[alert.code] ?? 0) + 1;
    }
    const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    return {
      title: 'Monitor: scan throughput',
      rows: runs.map((run, i) => ({ run: i + 1, files, megabytes: bytes / 1e6, seconds: run.seconds, cpuSeconds: run.cpuSeconds, loadAverage: run.load, mbPerSecond: bytes / 1e6 / run.seconds })),
      figures: { files, megabytes: Math.round(bytes / 1e5) / 10, bestSeconds: Math.round(best.seconds * 100) / 100, cpuSecondsOfBest: Math.round(best.cpuSeconds * 100) / 100, loadAverageAtBest: Math.round(best.load * 10) / 10, payloadFiles: Math.floor(files / 100), alerts: JSON.stringify(byCode) },
      notes: [
        `target: scan over 10,000 files / 100 MB in <= 5 s: ${quick ? 'not measured (--quick)' : best.seconds <= 5 ? 'met' : 'NOT met'} (best of 3 in-process runs: ${best.seconds.toFixed(2)} s wall, ${best.cpuSeconds.toFixed(2)} s CPU, 1-minute load average ${best.load.toFixed(1)} on ${cpus().length} cores)`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const monitorBench: BenchModule = async ({ quick }) => [detection(), await throughput(quick)];
export default monitorBench;
