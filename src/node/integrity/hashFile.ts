// Hashes one file: SRI sha256, git blob id and size, from a stable snapshot: the file's size, mtime and ctime must be
// the same before and after the read (a file written meanwhile is read again, a few times, then reported). Small files
// in one read, big files streamed so memory stays flat. Opens are non-blocking and only regular files are read (a FIFO
// or device never stalls a verify; it is reported as a path that cannot be pinned).
import { errorMessage } from '../../core/errors';
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import type { ContentDigest, FileDigest, UnpinnableReason } from '../../core/integrity/types';

/** Files above this size are streamed in chunks instead of read whole. */
export const STREAM_THRESHOLD = 1 << 20;

/** Reads of a file that keeps changing before it is reported as `changing`. */
export const HASH_ATTEMPTS = 3;

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Why a file could not be hashed. */
export interface HashProblem {
  reason: UnpinnableReason;
  detail: string;
}

/** What hashing one path gave: its digest, why it cannot be hashed, or undefined when it is gone. */
export type HashOutcome = FileDigest | HashProblem | undefined;

/** True when the outcome is a digest. */
export function isDigest(outcome: HashOutcome): outcome is FileDigest {
  return outcome !== undefined && 'integrity' in outcome;
}

/** One read's result: a digest, the file is bigger than STREAM_THRESHOLD, it changed during the read, or a problem. */
type ReadResult = FileDigest | HashProblem | 'big' | 'changed' | undefined;

const changing: HashProblem = { reason: 'changing', detail: `its content changed while it was read, ${HASH_ATTEMPTS} times in a row` };

/** The problem an open or read error means (undefined: the file is gone). */
function errorOutcome(error: unknown): HashProblem | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  return { reason: 'unreadable', detail: code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `cannot be read (${code ?? errorMessage(error)})` };
}

function notAFile(info: Stats): HashProblem {
  const kind = info.isFIFO() ? 'a named pipe (FIFO)' : info.isSocket() ? 'a socket' : info.isDirectory() ? 'a folder' : 'a device';
  return { reason: 'not-a-file', detail: `it is ${kind}, not a regular file` };
}

function unchanged(a: Stats, b: Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function contentDigest(content: Buffer): ContentDigest {
  return { integrity: nodeSri(content), gitBlob: createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex'), size: content.length };
}

/** The digest of `content`; of a file's (`file` given) whose pin is another hash, also its digest with the other line
 * endings where those are no change (hashed only then: most files match their pin). */
function digestOf(content: Buffer, file?: string, pin?: string): FileDigest {
  const digest = contentDigest(content);
  const otherLineEndings = file !== undefined && pin !== undefined && pin !== digest.integrity ? otherLineEndingsDigest(content, file) : undefined;
  return otherLineEndings ? { ...digest, otherLineEndings } : digest;
}

function otherLineEndingsDigest(content: Buffer, file: string): ContentDigest | undefined {
  // A script's first line names its interpreter: `#!/usr/bin/env python3\r` runs a program named "python3\r".
  const script = content[0] === 0x23 && content[1] === 0x21;
  const other = endingsCarryNoMeaning(file) && !script && content.length <= STREAM_THRESHOLD ? withOtherLineEndings(content) : undefined;
  return other && contentDigest(other);
}

/** The hashes a pin of this file content may hold: its own, and with its line endings the other way where those carry
 * no meaning (a pin made on a checkout with other line-ending settings). */
export function pinnableHashes(content: Buffer, file: string): string[] {
  const other = otherLineEndingsDigest(content, file);
  return other ? [nodeSri(content), other.integrity] : [nodeSri(content)];
}

// Files whose meaning a CR before each LF does not change: prompts and data (Markdown, text, YAML and JSON, whose parsers
// normalise line breaks or allow none in strings) and Python, whose parser reads CRLF as LF. Never a shell or batch
// script, nor a file without an extension: there `cd dir\r` fails and the next line runs somewhere else; nor TOML, whose
// multi-line strings may keep the CR (tomlkit does).
const ENDINGS_FREE_EXTENSIONS = new Set(['.md', '.mdc', '.markdown', '.txt', '.rst', '.yaml', '.yml', '.json', '.py']);
const ENDINGS_FREE_NAMES = new Set(['.cursorrules', '.windsurfrules', '.clinerules']);

function endingsCarryNoMeaning(file: string): boolean {
  const name = path.basename(file).toLowerCase();
  return ENDINGS_FREE_NAMES.has(name) || ENDINGS_FREE_EXTENSIONS.has(path.extname(name));
}

/**
 * The text with every line ending the other way, as a checkout with other git settings holds it (core.autocrlf: CRLF
 * on Windows, LF elsewhere): all CRLF as LF, or all LF as CRLF. Undefined for binary content (a NUL byte), no line
 * break, or mixed endings (a CR before some lines only is an edit, never a checkout's).
 */
function withOtherLineEndings(content: Buffer): Buffer | undefined {
  if (content.includes(0) || !content.includes(10)) return undefined;
  const text = content.toString('latin1');
  if (!text.includes('\r')) return Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1');
  return /\r(?!\n)|(?<!\r)\n/.test(text) ? undefined : Buffer.from(text.replace(/\r\n/g, '\n'), 'latin1');
}

/** Digest of a symbolic link as git stores one: its target path is its content (a re-pointed link is drift). */
export async function hashLink(link: string): Promise<HashOutcome> {
  try {
    return digestOf(Buffer.from(await readlink(link), 'utf8'));
  } catch (error) {
    return errorOutcome(error);
  }
}

/** Digest of a file of any size (big files streamed), from a stable snapshot; `pin`: the hash its lockfile entry holds. */
export async function hashFile(file: string, pin?: string): Promise<HashOutcome> {
  for (let attempt = 1; attempt <= HASH_ATTEMPTS; attempt++) {
    const result = await readOnce(file, pin);
    if (result !== 'changed') return result;
  }
  return changing;
}

async function readOnce(file: string, pin: string | undefined): Promise<HashOutcome | 'changed'> {
  let handle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    return errorOutcome(error);
  }
  try {
    const before = await handle.stat();
    if (!before.isFile()) return notAFile(before);
    const sha256 = createHash('sha256');
    const sha1 = createHash('sha1').update(`blob ${before.size}\0`);
    // A small file is kept whole and digested as a synchronous read digests it (with its other line endings); a big
    // one is hashed as it streams.
    const kept: Buffer[] | undefined = before.size <= STREAM_THRESHOLD ? [] : undefined;
    let read = 0;
    for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
      if (kept) kept.push(chunk);
      else {
        sha256.update(chunk);
        sha1.update(chunk);
      }
      read += chunk.length;
    }
    const after = await handle.stat();
    if (read !== before.size || !unchanged(before, after)) return 'changed';
    if (kept) return digestOf(Buffer.concat(kept), file, pin);
    return { integrity: 'sha256-' + sha256.digest('base64'), gitBlob: sha1.digest('hex'), size: read };
  } catch (error) {
    return errorOutcome(error);
  } finally {
    await handle.close();
  }
}

/**
 * Digest of a small file read synchronously (no thread-pool round trips: about 3x faster for thousands of 4 KB
 * files); 'big' when the file is above STREAM_THRESHOLD (hash it with hashFile).
 */
export function hashSmallFileSync(file: string, pin?: string): HashOutcome | 'big' {
  for (let attempt = 1; attempt <= HASH_ATTEMPTS; attempt++) {
    const result = readOnceSync(file, pin);
    if (result !== 'changed') return result;
  }
  return changing;
}

function readOnceSync(file: string, pin: string | undefined): ReadResult {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (error) {
    return errorOutcome(error);
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile()) return notAFile(before);
    if (before.size > STREAM_THRESHOLD) return 'big';
    const buffer = Buffer.allocUnsafe(before.size + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; ) length += n;
    if (length !== before.size || !unchanged(before, fstatSync(fd))) return 'changed';
    return digestOf(buffer.subarray(0, length), file, pin);
  } catch (error) {
    return errorOutcome(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Hashes many files: small ones synchronously in slices that yield to the event loop between them (the editor stays
 * responsive), big ones streamed. `pins[i]`: the hash the lockfile holds for `files[i]`.
 */
export async function hashFiles(files: readonly string[], pins: readonly (string | undefined)[] = [], slice = 128): Promise<HashOutcome[]> {
  const out = new Array<HashOutcome>(files.length);
  const big: number[] = [];
  for (let start = 0; start < files.length; start += slice) {
    for (let i = start; i < Math.min(files.length, start + slice); i++) {
      const outcome = hashSmallFileSync(files[i], pins[i]);
      if (outcome === 'big') big.push(i);
      else out[i] = outcome;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await mapLimit(big, 4, async (i) => {
    out[i] = await hashFile(files[i], pins[i]);
  });
  return out;
}

/** SRI sha256 of UTF-8 text (or of bytes) with node:crypto, injected into the core's tree hashing. */
export function nodeSri(text: string | Buffer): string {
  return 'sha256-' + createHash('sha256').update(text).digest('base64');
}

/** Maps `items` through `fn` with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
