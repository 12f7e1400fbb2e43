// Finds the files to harden under the paths a user names, reads them (and the rest of their project, for imports,
// callers and state keys) through the workspace file-system layer, runs the analysis, and (with write) saves the
// fixed text. Each path is scanned from its own project root, wherever it is: globs, config and lockfile are that
// root's. A file or folder that cannot be read is reported as skipped, never silently dropped and never a crash.
import { errorMessage } from '../../core/errors';
import { readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { analyzeProject, fixAll, type ProjectFile } from '../../core/harden/analyze';
import { fileKindOf, PromptFileMatcher, type HardenConfig } from '../../core/harden/config';
import type { FileAnalysis, HardenFinding, PromptFileKind } from '../../core/harden/types';
import type { AuditWriter } from '../integrity/auditLog';
import { repinFile, type RepinResult } from '../integrity/lock';
import { readLockfile } from '../integrity/lockfileIo';
import { openIntegrityWorkspace } from '../integrity/scan';
import { findProjectRoot } from '../projectRoot';
import { readWorkspaceFile, rewriteWorkspaceFile, UnsafePathError } from '../workspaceFs';

/** Files larger than this are skipped (generated bundles, data), and reported as such. */
export const MAX_PROMPT_FILE_BYTES = 4 * 1024 * 1024;

/** Files read at once (reads are independent; the analysis starts when all are in). */
const READ_CONCURRENCY = 32;

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Passes of fix-and-recheck in --write (a fix that re-quotes a YAML scalar can make room for the next one). */
const MAX_FIX_PASSES = 3;

/** One file hardening read and reports on. */
export interface HardenedFile {
  /** The path to show: relative to the current directory, POSIX. */
  path: string;
  /** The project root the file was scanned from, and its path relative to that root (POSIX). */
  root: string;
  rel: string;
  kind: PromptFileKind;
  /** The text as read (before any fix). */
  text: string;
  analysis: FileAnalysis;
  /** After write: findings left (no safe edit), and whether the file was rewritten. */
  unfixed?: HardenFinding[];
  changed?: boolean;
}

/** A file or folder that could not be read, and why. */
export interface SkippedPath {
  path: string;
  reason: string;
}

/** What one run read, found and skipped. */
export interface HardenRun {
  files: HardenedFile[];
  skipped: SkippedPath[];
}

/** A path the user named that harden cannot read as a prompt file (an error, not a pass). */
export class UnsupportedFileError extends Error {
  override readonly name = 'UnsupportedFileError';
  constructor(readonly file: string) {
    super(`${file} is not a file harden reads (Markdown prompt files, TypeScript/JavaScript, Python, YAML agent configs, Jupyter notebooks)`);
  }
}

const NEVER_DESCEND = new Set(['node_modules', '.git']);

function posix(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/') || '.';
}

/** Why a read failed, in words. */
function readFailure(error: unknown): string {
  if (error instanceof UnsafePathError) return error.reason === 'too-large' ? `larger than ${MAX_PROMPT_FILE_BYTES / 1024 / 1024} MiB` : error.message.replace(/^refused [^:]*: /, 'refused: ');
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ? `cannot be read (${code})` : `cannot be read (${errorMessage(error)})`;
}

/** The files under `dir` the matcher takes, matching paths relative to `base`; unreadable folders are reported, not fatal. */
async function walk(dir: string, base: string, matcher: PromptFileMatcher, skipped: SkippedPath[], cwd: string): Promise<Map<string, PromptFileKind>> {
  const found = new Map<string, PromptFileKind>();
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (error) {
      skipped.push({ path: posix(cwd, current), reason: readFailure(error) });
      continue;
    }
    for (const entry of entries) {
      const abs = path.join(current, entry.name);
      const rel = posix(base, abs);
      // The walk never enters a folder symlink and never reads a file symlink: both can lead outside the root.
      if (entry.isDirectory()) {
        if (!NEVER_DESCEND.has(entry.name) && !matcher.skipsFolder(rel)) pending.push(abs);
      } else if (entry.isFile()) {
        const kind = matcher.kindOf(rel);
        if (kind) found.set(abs, kind);
      }
    }
  }
  return found;
}

/** Reads a file as UTF-8 text, or says why it cannot be analysed (too large, binary, not UTF-8, unreadable). */
export async function readPromptFile(rootReal: string, abs: string): Promise<{ text: string } | { reason: string }> {
  let bytes: Buffer;
  try {
    bytes = await readWorkspaceFile(rootReal, abs, MAX_PROMPT_FILE_BYTES);
  } catch (error) {
    return { reason: readFailure(error) };
  }
  if (bytes.includes(0)) return { reason: 'contains a NUL byte (binary)' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { reason: 'not valid UTF-8' };
  }
}

interface RootScan {
  root: string;
  config: HardenConfig;
  /** Every file of the project the matcher takes (context), absolute path -> kind. */
  context: Map<string, PromptFileKind>;
  /** The files to report on. */
  report: Set<string>;
}

/**
 * Hardens the files under `targets` (absolute paths): `configFor(root)` gives the config of each project root.
 * A named file of a kind harden does not read throws UnsupportedFileError; a missing path throws as `stat` does.
 */
export async function hardenPaths(workingDir: string, targets: readonly string[], configFor: (root: string) => Promise<HardenConfig>, write: boolean): Promise<HardenRun> {
  const skipped: SkippedPath[] = [];
  const roots = new Map<string, RootScan>();
  // Real paths throughout, so a root reached through a symlink (macOS /tmp) still contains its files.
  const cwd = await realpath(workingDir).catch(() => workingDir);
  for (const named of targets) {
    const info = await stat(named);
    const target = await realpath(named);
    const root = await realpath(await findProjectRoot(target));
    let scan = roots.get(root);
    if (!scan) {
      const config = await configFor(root);
      const matcher = new PromptFileMatcher(config);
      scan = { root, config, context: await walk(root, root, matcher, skipped, cwd), report: new Set() };
      roots.set(root, scan);
    }
    const matcher = new PromptFileMatcher(scan.config);
    if (info.isDirectory()) {
      // A folder named explicitly is walked even when it sits under an excluded one (`harden tests/fixtures/crew`):
      // the globs then apply below it.
      const relTarget = posix(root, target);
      const named = relTarget !== '.' && matcher.skipsFolder(relTarget) ? await walk(target, target, matcher, skipped, cwd) : undefined;
      for (const [file, kind] of named ?? []) scan.context.set(file, kind);
      const prefix = target.endsWith(path.sep) ? target : target + path.sep;
      for (const file of named?.keys() ?? scan.context.keys()) if (file === target || file.startsWith(prefix) || target === root) scan.report.add(file);
    } else {
      const kind = fileKindOf(target) ?? scan.context.get(target);
      if (!kind) throw new UnsupportedFileError(posix(cwd, target));
      scan.context.set(target, kind);
      scan.report.add(target);
    }
  }
  const files: HardenedFile[] = [];
  for (const scan of roots.values()) files.push(...(await hardenRoot(scan, cwd, skipped, write)));
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, skipped };
}

async function hardenRoot(scan: RootScan, cwd: string, skipped: SkippedPath[], write: boolean): Promise<HardenedFile[]> {
  const texts = new Map<string, string>();
  const sources: ProjectFile[] = [];
  const byRel = new Map<string, string>();
  const entries = [...scan.context].sort(([a], [b]) => a.localeCompare(b));
  const reads = await mapLimit(entries, READ_CONCURRENCY, ([abs]) => readPromptFile(scan.root, abs));
  for (const [index, [abs, kind]] of entries.entries()) {
    const read = reads[index];
    if ('reason' in read) {
      if (scan.report.has(abs)) skipped.push({ path: posix(cwd, abs), reason: read.reason });
      continue;
    }
    const rel = posix(scan.root, abs);
    texts.set(rel, read.text);
    byRel.set(rel, abs);
    sources.push({ path: rel, kind, text: read.text });
  }
  const reported = (rel: string) => scan.report.has(byRel.get(rel) ?? '');
  const analyses = analyzeProject(sources, scan.config, reported);
  const results: HardenedFile[] = [];
  for (const analysis of analyses) {
    const abs = byRel.get(analysis.path)!;
    if (analysis.error) skipped.push({ path: posix(cwd, abs), reason: analysis.error });
    results.push({ path: posix(cwd, abs), root: scan.root, rel: analysis.path, kind: analysis.kind, text: texts.get(analysis.path)!, analysis });
  }
  if (!write) return results;

  // Fix, re-analyse the project with the fixed texts, and repeat while a pass still changes something.
  let current = new Map(texts);
  let latest = analyses;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    let changedAny = false;
    const next = new Map(current);
    for (const analysis of latest) {
      if (analysis.error || analysis.findings.length === 0) continue;
      const fixed = fixAll(current.get(analysis.path)!, analysis.findings).text;
      if (fixed !== current.get(analysis.path)) {
        next.set(analysis.path, fixed);
        changedAny = true;
      }
    }
    if (!changedAny) break;
    current = next;
    latest = analyzeProject(sources.map((s) => ({ ...s, text: current.get(s.path)! })), scan.config, reported);
  }
  const finalByPath = new Map(latest.map((a) => [a.path, a]));
  for (const result of results) {
    const fixed = current.get(result.rel)!;
    result.unfixed = finalByPath.get(result.rel)?.findings ?? [];
    result.changed = fixed !== result.text;
    if (result.changed) {
      const abs = byRel.get(result.rel)!;
      await rewriteWorkspaceFile(scan.root, abs, fixed);
    }
  }
  return results;
}

/** Which of `files` (POSIX, relative to root) are pinned in the integrity lockfile; `corrupt` when the lockfile cannot be read. */
export async function pinnedAmong(root: string, files: readonly string[]): Promise<{ pinned: string[]; lockfile: 'absent' | 'corrupt' | 'ok' }> {
  const ws = await openIntegrityWorkspace(root);
  const read = await readLockfile(ws.root, ws.config.lockfile);
  if (read.state !== 'ok') return { pinned: [], lockfile: read.state };
  return { pinned: files.filter((file) => Object.hasOwn(read.lock.files, file)), lockfile: 'ok' };
}

/** Re-pins hardened files to their new content, one audit record (event repin, decision approve) each. */
export async function repinHardened(root: string, files: readonly string[], writer: AuditWriter): Promise<RepinResult[]> {
  const results: RepinResult[] = [];
  for (const file of files) results.push(await repinFile(root, file, writer));
  return results;
}

/** The prompt files under a folder as the editor's Harden All sees them (absolute paths and kinds). */
export async function listPromptFiles(root: string, matcher: PromptFileMatcher): Promise<{ files: { file: string; kind: PromptFileKind }[]; skipped: SkippedPath[] }> {
  const skipped: SkippedPath[] = [];
  const found = await walk(root, root, matcher, skipped, root);
  return { files: [...found].sort(([a], [b]) => a.localeCompare(b)).map(([file, kind]) => ({ file, kind })), skipped };
}
