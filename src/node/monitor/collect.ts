// Finds what `scan` reads under a folder: files agents persist to (monitor.globs, the text of a skill's folder, a Claude
// Code plugin's commands and agents) and trace files (monitor.traceGlobs), skipping monitor.ignore; reads persisted files
// as text (UTF-8, and UTF-16 where its mark or its bytes suggest it), skipping binary and oversized ones with a note.
// A folder or file that cannot be read (EACCES, EPERM, gone meanwhile) is skipped with its reason; the rest is scanned.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import { globMatcher } from '../../core/globs';
import { SKILL_FILE, SKILL_TEXT } from '../../core/monitor/config';
import type { MonitorDocument } from '../../core/monitor/types';
import { PLUGIN_MANIFEST, PLUGIN_PROMPT_FILE, PLUGIN_PROMPT_FOLDERS } from '../../core/promptFiles';
import { isPluginFolder } from '../pluginFolder';
import { unmarkedUtf16Text, utf16Of } from '../utf16';

/** What a folder holds for the monitor, and the folders inside it that could not be listed. */
export interface Collected {
  documents: string[];
  traces: string[];
  skipped: Skipped[];
  /**
   * Symbolic links the globs take: never followed (they can lead outside the folder), so listed as not read; not one
   * whose target is a file read anyway (`CLAUDE.md -> AGENTS.md` beside it, a common set-up), whose text is scanned there.
   */
  links: string[];
  /** JSON and JSON Lines files neither glob takes: traces when their content is in a format `convert` reads. */
  candidates: string[];
}

/**
 * Walks `root` (absolute) and sorts files into persisted documents and traces by glob (case-insensitive, dotfiles
 * included), matched against paths from the project root: `base` is `root`'s path from it, so `scan examples/traces`
 * takes the traces under its `traces` folder (the default trace glob names those).
 */
export async function collectMonitored(root: string, globs: readonly string[], traceGlobs: readonly string[], ignore: readonly string[], base = ''): Promise<Collected> {
  const fromProject = (rel: string) => (base ? `${base}/${rel}` : rel);
  const documentGlobs = globMatcher(globs, { nocase: true });
  const traceGlobsMatch = globMatcher(traceGlobs, { nocase: true });
  const isDocument = (rel: string) => documentGlobs(fromProject(rel));
  const isTrace = (rel: string) => traceGlobsMatch(fromProject(rel));
  const isIgnored = globMatcher(ignore, { nocase: true });
  const result: Collected = { documents: [], traces: [], skipped: [], links: [], candidates: [] };
  // Besides what the globs take, the text loaded with a file they take: a skill's other text (in a folder holding a
  // SKILL.md the globs take) and a plugin's commands and agents (beside a plugin manifest the globs take).
  const walk = async (dir: string, rel: string, alsoRead: RegExp | undefined): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      // The folder asked for must be readable (the caller reports it); one inside it only costs its own subtree.
      if (rel === '') throw error;
      result.skipped.push({ file: dir, reason: 'unreadable', detail: errorCode(error) });
      return;
    }
    const childOf = (name: string) => (rel ? `${rel}/${name}` : name);
    // A linked SKILL.md still makes a skill (the link itself is listed as not followed, as any link is).
    const skill = entries.some((entry) => (entry.isFile() || entry.isSymbolicLink()) && SKILL_FILE.test(entry.name) && isDocument(childOf(entry.name)));
    const here = skill ? SKILL_TEXT : alsoRead;
    const plugin = isDocument(childOf(PLUGIN_MANIFEST)) && (await isPluginFolder(dir, entries));
    const pluginPrompts = (name: string) => plugin && PLUGIN_PROMPT_FOLDERS.includes(name);
    const isRead = (childRel: string) => isDocument(childRel) || (here?.test(childRel) ?? false);
    await Promise.all(
      entries.map(async (entry) => {
        const childRel = childOf(entry.name);
        if (entry.isDirectory()) {
          if (!isIgnored(`${childRel}/_`)) await walk(path.join(dir, entry.name), childRel, here ?? (pluginPrompts(entry.name) ? PLUGIN_PROMPT_FILE : undefined));
        } else if (entry.isFile() && !isIgnored(childRel)) {
          if (isTrace(childRel)) result.traces.push(path.join(dir, entry.name));
          else if (isRead(childRel)) result.documents.push(path.join(dir, entry.name));
          else if (/\.jsonl?$/i.test(entry.name)) result.candidates.push(path.join(dir, entry.name));
        } else if (entry.isSymbolicLink() && !isIgnored(childRel) && (isTrace(childRel) || isRead(childRel) || here || pluginPrompts(entry.name))) {
          // In a skill or a plugin's prompt folder, a linked folder too (`references -> …`): its text would be loaded.
          result.links.push(path.join(dir, entry.name));
        } else if (!entry.isSymbolicLink() && !isIgnored(childRel) && (isTrace(childRel) || isRead(childRel))) {
          // A FIFO, socket or device the globs take: never opened (a FIFO would wait for a writer), and listed.
          result.skipped.push({ file: path.join(dir, entry.name), reason: 'not-a-file', detail: 'a FIFO, socket or device' });
        }
      }),
    );
  };
  await walk(root, '', undefined);
  const read = new Set([...result.documents, ...result.traces]);
  result.links = (await Promise.all(result.links.map(async (link) => ((await readsFileRead(link, read)) ? undefined : link)))).filter((link) => link !== undefined);
  result.documents.sort();
  result.traces.sort();
  result.links.sort();
  result.candidates.sort();
  result.skipped.sort((a, b) => a.file.localeCompare(b.file));
  return result;
}

/** Whether a link names, without following anything, a file the walk reads anyway (its target read as text, not resolved). */
async function readsFileRead(link: string, read: ReadonlySet<string>): Promise<boolean> {
  const target = await readlink(link).catch(() => undefined);
  return target !== undefined && read.has(path.resolve(path.dirname(link), target));
}

/** True for a failed system call (EACCES, EPERM, EISDIR, ENOENT...), as opposed to a bug or bad content. */
export function isSystemError(error: unknown): boolean {
  return /^E[A-Z]+$/.test((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** The system error code of a failed read (EACCES, EPERM, ENOENT...), or "error" when there is none. */
export function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'error';
}

/** A file or folder left out of the scan and why. */
export interface Skipped {
  file: string;
  reason: 'binary' | 'too-large' | 'unreadable' | 'not-a-file';
  /** For 'unreadable': the system error code (EACCES, EPERM, ENOENT...). */
  detail?: string;
}

/**
 * Reads files as monitor documents (subject: `subjectOf(file)`, time: mtime). Synchronous reads on purpose: for
 * thousands of small files they cost a fraction of the promise round trips (one open, fstat, read, close each).
 */
export async function readDocuments(
  files: readonly string[],
  subjectOf: (file: string) => string,
  maxBytes: number,
): Promise<{ documents: MonitorDocument[]; skipped: Skipped[] }> {
  const documents: MonitorDocument[] = [];
  const skipped: Skipped[] = [];
  for (const file of files) {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'r');
      const info = fstatSync(fd);
      if (info.size > maxBytes) {
        skipped.push({ file, reason: 'too-large' });
        continue;
      }
      const bytes = Buffer.allocUnsafe(info.size);
      let read = 0;
      while (read < bytes.length) {
        const n = readSync(fd, bytes, read, bytes.length - read, read);
        if (n === 0) break;
        read += n;
      }
      const text = decodeText(bytes.subarray(0, read));
      if (text === undefined) {
        skipped.push({ file, reason: 'binary' });
        continue;
      }
      documents.push({ subject: subjectOf(file), text, at: info.mtimeMs });
    } catch (error) {
      skipped.push({ file, reason: 'unreadable', detail: errorCode(error) });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return { documents, skipped };
}

/** A run of text a UTF-8 reader reads as text: 16 or more characters with no NUL, control byte or invalid sequence. */
const READABLE_RUN = /[^\x00-\x08\x0e-\x1f\x7f\ufffd]{16,}/g;

/**
 * A persisted file's text as the agents loading it may read it: UTF-8 with stray bytes replaced and NULs read as spaces
 * (one NUL byte or two bad bytes hid a payload from the scan). A file that looks like UTF-16 (its byte-order mark, NULs
 * beside its first characters, or, with few ASCII characters, a byte order that reads as text) is read both ways, the
 * UTF-16 reading first: a reader that takes it for UTF-8 sees what follows a UTF-16 opening, and UTF-8 with stray
 * bytes or Shift-JIS can pass for UTF-16, so no guess hides what either reading says (evidence found only in the
 * second reading points past the first; that reading keeps only its runs of readable text). Undefined for binary
 * content: more than a tenth of the first 8 KiB control bytes.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  const raw = new TextDecoder('utf-8').decode(bytes);
  const utf16 = utf16Of(bytes.subarray(0, 128));
  const wide = utf16 ? new TextDecoder(utf16.encoding).decode(bytes.subarray(utf16.marked ? 2 : 0)) : unmarkedUtf16Text(bytes);
  if (wide !== undefined) {
    // What a UTF-8 reader sees there: its runs of readable text (UTF-16 read as UTF-8 breaks at a NUL or a stray byte
    // every character or two, so a genuine UTF-16 file adds little; a payload written in UTF-8 is one run).
    const runs = raw.match(READABLE_RUN);
    return runs ? `${wide}\n${runs.join('\n')}` : wide;
  }
  const asUtf8 = raw.replace(/\0/g, ' ');
  const head = bytes.subarray(0, 8192);
  let controls = 0;
  for (const b of head) if (b < 9 || (b > 13 && b < 32 && b !== 27)) controls++;
  if (controls * 10 > head.length) return undefined;
  return asUtf8;
}
