// Finds the files to harden under the paths a user names, reads them (and the rest of their project, for imports,
// callers and state keys) through the workspace file-system layer, runs the analysis, and (with write) saves the
// fixed text. Each path is scanned from its own project root, wherever it is: globs, config and lockfile are that
// root's. A file or folder that cannot be read is reported as skipped, never silently dropped and never a crash.
import { errorMessage } from '../../core/errors';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { analyzeProject, fixAll, type ProjectFile } from '../../core/harden/analyze';
import { fileKindOf, PromptFileMatcher, type HardenConfig } from '../../core/harden/config';
import type { FileAnalysis, HardenFinding, PromptFileKind } from '../../core/harden/types';
import { LockfileStateError } from '../../core/integrity/errors';
import type { AuditWriter } from '../integrity/auditLog';
import { pinnableHashes } from '../integrity/hashFile';
import { repinFile, type RepinResult } from '../integrity/lock';
import { readLockfile } from '../integrity/lockfileIo';
import { openIntegrityWorkspace } from '../integrity/scan';
import { isPluginFolder } from '../pluginFolder';
import { findProjectRoot } from '../projectRoot';
import { classifyWorkspacePath, isInside, readWorkspaceFile, rewriteWorkspaceFile, UnsafePathError } from '../workspaceFs';

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
  /** The text as read (before any fix), without a byte-order mark; `bom`: the file opens with one. */
  text: string;
  bom: boolean;
  /** The hashes a pin of the bytes read may hold (pinnableHashes): a re-pin approves only harden's own edit on top of them. */
  hashes: string[];
  analysis: FileAnalysis;
  /** After a write or a diff: findings left (no safe edit), whether the fix changes the file, and its text after the fix. */
  unfixed?: HardenFinding[];
  changed?: boolean;
  fixed?: string;
}

/** What a run does: list the findings, fix the files in place, or work out the fix without writing (for a diff). */
export type HardenMode = 'check' | 'write' | 'diff';

/** A file or folder that could not be read, and why. */
export interface SkippedPath {
  path: string;
  reason: string;
}

/** What one run read, found and skipped. */
export interface HardenRun {
  files: HardenedFile[];
  skipped: SkippedPath[];
  /** Source files of languages harden does not read that mention instructions or a system prompt, by language. */
  otherLanguages: Record<string, number>;
}

/** Source languages harden does not read, by extension: their agents' prompts go unchecked, which a run says. */
const OTHER_LANGUAGES: Readonly<Record<string, string>> = {
  '.java': 'Java', '.kt': 'Kotlin', '.go': 'Go', '.cs': 'C#', '.rb': 'Ruby', '.rs': 'Rust', '.php': 'PHP', '.swift': 'Swift', '.scala': 'Scala',
};

/** What marks a source file as holding an agent's prompt: the words prompt sinks are named with. */
const PROMPT_WORDS = /instruction|system_?prompt|system_?message/i;

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

/** Why a symbolic link under a scanned folder is listed as not read. */
const LINK_NOT_FOLLOWED = 'a symbolic link: not followed (it can lead outside the project)';

/** What a walk found: the files the matcher takes, the symbolic links it met (never followed), and source files in
 * languages harden does not read. */
interface Walked {
  files: Map<string, PromptFileKind>;
  links: string[];
  others: string[];
}

/** The files under `dir` the matcher takes, matching paths relative to `base`; unreadable folders are reported, not fatal. */
async function walk(dir: string, base: string, matcher: PromptFileMatcher, skipped: SkippedPath[], cwd: string): Promise<Walked> {
  const found = new Map<string, PromptFileKind>();
  const links: string[] = [];
  const others: string[] = [];
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
    // A Claude Code plugin: its subagents are prompt files (the folder is met before the ones it holds).
    if (await isPluginFolder(current, entries)) {
      const rel = posix(base, current);
      matcher.addPlugin(rel === '.' ? '' : rel);
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
        else if (OTHER_LANGUAGES[path.extname(entry.name).toLowerCase()] && !matcher.excludes(rel)) others.push(abs);
      } else if (entry.isSymbolicLink() && !NEVER_DESCEND.has(entry.name)) {
        links.push(abs);
      } else if (!entry.isSymbolicLink() && matcher.kindOf(rel)) {
        // A FIFO, socket or device named like a prompt file: never opened (a FIFO would wait for a writer), and listed.
        skipped.push({ path: posix(cwd, abs), reason: 'not a regular file (a FIFO, socket or device)' });
      }
    }
  }
  return { files: found, links, others };
}

/** A prompt file as read: its text (a UTF-8 byte-order mark kept aside, to be written back), and the hashes a pin of
 * its bytes may hold. */
export interface PromptFileText {
  text: string;
  bom: boolean;
  hashes: string[];
}

/**
 * True for a link harden would have read and does not: one that leads out of the project, to a folder or to a file the
 * matcher takes. A link inside the project is not listed: what it leads to is read where it is (`CLAUDE.md -> AGENTS.md`).
 */
async function leadsOutToRead(root: string, link: string, matcher: PromptFileMatcher): Promise<boolean> {
  if ((await classifyWorkspacePath(root, link)) !== 'outside') return false;
  if (matcher.kindOf(posix(root, link))) return true;
  return (await stat(link).catch(() => undefined))?.isDirectory() ?? false;
}

/** Reads a file as UTF-8 text, or says why it cannot be analysed (too large, binary, not UTF-8, unreadable). */
export async function readPromptFile(rootReal: string, abs: string): Promise<PromptFileText | { reason: string }> {
  let bytes: Buffer;
  try {
    bytes = await readWorkspaceFile(rootReal, abs, MAX_PROMPT_FILE_BYTES);
  } catch (error) {
    return { reason: readFailure(error) };
  }
  if (bytes.includes(0)) return { reason: 'contains a NUL byte (binary)' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    const bom = text.startsWith('\uFEFF');
    return { text: bom ? text.slice(1) : text, bom, hashes: pinnableHashes(bytes, abs) };
  } catch {
    return { reason: 'not valid UTF-8' };
  }
}

interface RootScan {
  root: string;
  config: HardenConfig;
  /** The matcher the project's walk used: it knows the plugins that walk found. */
  matcher: PromptFileMatcher;
  /** Every file of the project the matcher takes (context), absolute path -> kind. */
  context: Map<string, PromptFileKind>;
  /** The project's symbolic links the walk did not follow. */
  links: string[];
  /** The project's source files in languages harden does not read. */
  others: string[];
  /** The files to report on, and the source files in other languages under the named paths. */
  report: Set<string>;
  reportOthers: Set<string>;
}

/**
 * Hardens the files under `targets` (absolute paths): `configFor(root)` gives the config of each project root.
 * A named file of a kind harden does not read throws UnsupportedFileError; a missing path throws as `stat` does.
 */
export async function hardenPaths(workingDir: string, targets: readonly string[], configFor: (root: string) => Promise<HardenConfig>, mode: HardenMode): Promise<HardenRun> {
  const skipped: SkippedPath[] = [];
  const roots = new Map<string, RootScan>();
  // Real paths throughout, so a root reached through a symlink (macOS /tmp) still contains its files.
  const cwd = await realpath(workingDir).catch(() => workingDir);
  for (const named of targets) {
    const info = await stat(named);
    // The project is the one the named path sits in (a named link: the one the link sits in); a link out of it is refused.
    const isLink = (await lstat(named)).isSymbolicLink();
    const root = await realpath(await findProjectRoot(isLink ? path.dirname(path.resolve(named)) : named));
    const target = await realpath(named);
    if (!isInside(root, target)) {
      skipped.push({ path: posix(cwd, path.resolve(named)), reason: 'refused: a symbolic link that leads outside its project' });
      continue;
    }
    let scan = roots.get(root);
    if (!scan) {
      const config = await configFor(root);
      const matcher = new PromptFileMatcher(config);
      const walked = await walk(root, root, matcher, skipped, cwd);
      scan = { root, config, matcher, context: walked.files, links: walked.links, others: walked.others, report: new Set(), reportOthers: new Set() };
      roots.set(root, scan);
    }
    const matcher = scan.matcher;
    if (info.isDirectory()) {
      // A folder named explicitly is walked even when it sits under an excluded one (`harden tests/fixtures/crew`):
      // the globs then apply below it (with a matcher of its own: the plugins it finds are known from that folder).
      const relTarget = posix(root, target);
      const named = relTarget !== '.' && matcher.skipsFolder(relTarget) ? await walk(target, target, new PromptFileMatcher(scan.config), skipped, cwd) : undefined;
      for (const [file, kind] of named?.files ?? []) scan.context.set(file, kind);
      const prefix = target.endsWith(path.sep) ? target : target + path.sep;
      const under = (file: string) => file === target || file.startsWith(prefix) || target === root;
      for (const file of named?.files.keys() ?? scan.context.keys()) if (under(file)) scan.report.add(file);
      for (const file of named?.others ?? scan.others) if (under(file)) scan.reportOthers.add(file);
      for (const link of named?.links ?? scan.links) {
        if (under(link) && (await leadsOutToRead(root, link, matcher))) skipped.push({ path: posix(cwd, link), reason: LINK_NOT_FOLLOWED });
      }
    } else {
      const kind = fileKindOf(target) ?? scan.context.get(target);
      if (!kind) throw new UnsupportedFileError(posix(cwd, target));
      scan.context.set(target, kind);
      scan.report.add(target);
    }
  }
  const files: HardenedFile[] = [];
  const otherLanguages: Record<string, number> = {};
  for (const scan of roots.values()) {
    files.push(...(await hardenRoot(scan, cwd, skipped, mode)));
    for (const [language, n] of Object.entries(await promptMentions(scan.root, [...scan.reportOthers]))) otherLanguages[language] = (otherLanguages[language] ?? 0) + n;
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, skipped, otherLanguages };
}

/** How many source files of languages harden does not read under `root` (a real path; walked as the CLI walks it,
 * never through a link) mention instructions or a system prompt, by language: what the editor's Harden All says. */
export async function otherLanguagesUnder(root: string, matcher: PromptFileMatcher): Promise<Record<string, number>> {
  return promptMentions(root, (await walk(root, root, matcher, [], root)).others);
}

/** How many of `others` (absolute paths of source files harden does not read) mention instructions or a system prompt,
 * by language (read within the root, as prompt files are; not hashed). */
async function promptMentions(root: string, others: readonly string[]): Promise<Record<string, number>> {
  const mentions = await mapLimit(others, READ_CONCURRENCY, async (abs) => {
    const bytes = await readWorkspaceFile(root, abs, MAX_PROMPT_FILE_BYTES).catch(() => undefined);
    return bytes !== undefined && PROMPT_WORDS.test(bytes.toString('utf8'));
  });
  const counts: Record<string, number> = {};
  for (const abs of others.filter((_, i) => mentions[i])) {
    const language = OTHER_LANGUAGES[path.extname(abs).toLowerCase()];
    if (language) counts[language] = (counts[language] ?? 0) + 1;
  }
  return counts;
}

async function hardenRoot(scan: RootScan, cwd: string, skipped: SkippedPath[], mode: HardenMode): Promise<HardenedFile[]> {
  const texts = new Map<string, PromptFileText>();
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
    texts.set(rel, read);
    byRel.set(rel, abs);
    sources.push({ path: rel, kind, text: read.text });
  }
  const reported = (rel: string) => scan.report.has(byRel.get(rel) ?? '');
  let analyses = analyzeProject(sources, scan.config, reported);
  // A file the code reads into a system prompt at run time (`system_prompt.md` beside the agent) is a prompt file:
  // read it as one, reported with the code that reads it, and analyse the project again.
  const readAtRunTime = await promptFilesReadAtRunTime(scan.root, scan.matcher, analyses, (rel) => byRel.has(rel));
  if (readAtRunTime.length > 0) {
    for (const { rel, abs, read, readers } of readAtRunTime) {
      texts.set(rel, read);
      byRel.set(rel, abs);
      sources.push({ path: rel, kind: 'markdown', text: read.text });
      if (readers.some((reader) => scan.report.has(byRel.get(reader) ?? ''))) scan.report.add(abs);
    }
    analyses = analyzeProject(sources, scan.config, reported);
  }
  const results: HardenedFile[] = [];
  for (const analysis of analyses) {
    const abs = byRel.get(analysis.path)!;
    if (analysis.error) skipped.push({ path: posix(cwd, abs), reason: analysis.error });
    const read = texts.get(analysis.path)!;
    results.push({ path: posix(cwd, abs), root: scan.root, rel: analysis.path, kind: analysis.kind, text: read.text, bom: read.bom, hashes: read.hashes, analysis });
  }
  if (mode === 'check') return results;

  // Fix, re-analyse the project with the fixed texts, and repeat while a pass still changes something.
  let current = new Map([...texts].map(([rel, read]) => [rel, read.text]));
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
    result.fixed = fixed;
    if (result.changed && mode === 'write') {
      const abs = byRel.get(result.rel)!;
      await rewriteWorkspaceFile(scan.root, abs, (result.bom ? '\uFEFF' : '') + fixed);
    }
  }
  return results;
}

/** What a prompt file read at run time may be named: Markdown, plain text, a Jinja template, a `.prompt` file. */
const RUNTIME_PROMPT_FILE = /\.(?:md|mdc|markdown|txt|j2|jinja2?|prompt)$/i;

/** Whether a file so named (POSIX, relative to the root) may be a prompt file the code reads at run time. */
export const mayBeReadAtRunTime = (rel: string) => RUNTIME_PROMPT_FILE.test(rel);

/** A prompt file the code reads at run time, read; `readers`: the analysed files whose code reads it. */
export interface RuntimePromptFile {
  rel: string;
  abs: string;
  read: PromptFileText;
  readers: string[];
}

/**
 * The files of the project (under `root`, real) that `analyses` say their code reads into system prompts and `known`
 * does not hold: regular files the globs do not exclude, read as prompt files. The CLI and the editor both read them so.
 */
export async function promptFilesReadAtRunTime(
  root: string,
  matcher: PromptFileMatcher,
  analyses: readonly FileAnalysis[],
  known: (rel: string) => boolean,
): Promise<RuntimePromptFile[]> {
  const wanted = new Map<string, string[]>();
  for (const analysis of analyses) {
    for (const rel of analysis.readsPromptsFrom ?? []) {
      if (known(rel) || !mayBeReadAtRunTime(rel) || matcher.excludes(rel)) continue;
      wanted.set(rel, [...(wanted.get(rel) ?? []), analysis.path]);
    }
  }
  const found = await mapLimit([...wanted], READ_CONCURRENCY, async ([rel, readers]) => {
    const abs = path.join(root, ...rel.split('/'));
    // A link is not followed, nor a linked folder on the way (`linked/system_prompt.md` into an excluded `vendor/`), as
    // the walk follows none: the file must be where its path says.
    const isFile = (await lstat(abs).catch(() => undefined))?.isFile() && (await realpath(abs).catch(() => undefined)) === abs;
    const read = isFile ? await readPromptFile(root, abs) : undefined;
    return read && !('reason' in read) ? { rel, abs, read, readers } : undefined;
  });
  return found.filter((file) => file !== undefined);
}

/** Which of `files` (POSIX, relative to root) are pinned in the integrity lockfile; `corrupt` when the lockfile cannot be read. */
export async function pinnedAmong(root: string, files: readonly string[]): Promise<{ pinned: string[]; lockfile: 'absent' | 'corrupt' | 'ok' }> {
  const { lockfile, entries } = await readPins(root);
  return { pinned: files.filter((file) => entries.some((entry) => entry.file === file)), lockfile };
}

/** A lockfile entry and the file it pins: itself, or for an in-root symlink the file it leads to (hashed through it). */
interface PinEntry {
  entry: string;
  file: string;
}

/** The lockfile's state and, when it is valid, each of its entries with the file it pins. */
async function readPins(root: string): Promise<{ lockfile: 'absent' | 'corrupt' | 'ok'; entries: PinEntry[] }> {
  const ws = await openIntegrityWorkspace(root);
  const read = await readLockfile(ws.root, ws.config.lockfile);
  if (read.state !== 'ok') return { lockfile: read.state, entries: [] };
  const entries = await Promise.all(
    Object.keys(read.lock.files).map(async (entry): Promise<PinEntry> => {
      const abs = path.join(ws.root, entry);
      if (!(await lstat(abs).catch(() => undefined))?.isSymbolicLink()) return { entry, file: entry };
      const target = await realpath(abs).catch(() => undefined);
      return { entry, file: target && isInside(ws.root, target) ? posix(ws.root, target) : entry };
    }),
  );
  return { lockfile: 'ok', entries };
}

/** A hardened file to re-pin: its path relative to the root and the hashes a pin of its content before harden's edit
 * may hold (undefined when that content is not known, as for an editor holding unsaved changes: then it is not re-pinned). */
export interface HardenedPin {
  rel: string;
  before: readonly string[] | undefined;
}

/**
 * Re-pins hardened files to their new content, one audit record (event repin, decision approve) each. A file whose
 * content before the edit no longer matched its pin is left drifted and listed in `drifted`: approving harden's edit
 * must not approve a change made before it.
 */
export async function repinHardened(root: string, files: readonly HardenedPin[], writer: AuditWriter): Promise<{ repinned: RepinResult[]; drifted: string[] }> {
  const repinned: RepinResult[] = [];
  const drifted: string[] = [];
  const { entries } = await readPins(root);
  for (const file of files) {
    // The file's own pin and the pins of the links to it (`CLAUDE.md -> AGENTS.md`): each held the same content.
    const pins = entries.filter((e) => e.file === file.rel).map((e) => e.entry);
    for (const entry of pins.length > 0 ? pins : [file.rel]) {
      if (file.before === undefined) {
        drifted.push(entry);
        continue;
      }
      try {
        repinned.push(await repinFile(root, entry, writer, {}, file.before));
      } catch (error) {
        if (!(error instanceof LockfileStateError && error.kind === 'drifted')) throw error;
        drifted.push(entry);
      }
    }
  }
  return { repinned, drifted };
}

/**
 * The prompt files under a folder as the editor's Harden All sees them (absolute paths and kinds), and what it could
 * not read (root-relative): unreadable folders, and the links leading out of the folder that `harden` lists too.
 */
export async function listPromptFiles(root: string, matcher: PromptFileMatcher): Promise<{ files: { file: string; kind: PromptFileKind }[]; skipped: SkippedPath[] }> {
  const skipped: SkippedPath[] = [];
  // A plugin whose manifest is gone no longer makes prompt files of its subagents (the editor keeps one matcher).
  matcher.forgetPlugins();
  const found = await walk(root, root, matcher, skipped, root);
  for (const link of found.links) if (await leadsOutToRead(root, link, matcher)) skipped.push({ path: posix(root, link), reason: LINK_NOT_FOLLOWED });
  return { files: [...found.files].sort(([a], [b]) => a.localeCompare(b)).map(([file, kind]) => ({ file, kind })), skipped };
}
