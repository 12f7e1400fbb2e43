// The one file-system layer for paths inside a workspace root, which a hostile repository controls: every read and
// write resolves the real path of each component, refuses what leaves the root or is not a regular file, opens with
// no-follow and non-blocking semantics, and checks what it opened. Paths the user names on the command line are theirs.
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

/** Why a workspace path was refused. */
/** Flags for writing a report the user named: create or replace it, never through a link at its name. */
export const NO_FOLLOW_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

export type UnsafePathReason = 'outside-root' | 'symlink' | 'not-a-file' | 'not-a-folder' | 'hard-link' | 'too-large';

const REASON_TEXT: Record<UnsafePathReason, string> = {
  'outside-root': 'it leads outside the workspace',
  symlink: 'it is a symbolic link (Agent Immune writes only through real folders and files)',
  'not-a-file': 'it is not a regular file',
  'not-a-folder': 'a component of it is not a folder',
  'hard-link': 'it is a hard link to another file',
  'too-large': 'it is larger than the limit',
};

/** Thrown when a workspace path is refused; `file` is the path as the caller named it. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  readonly kind = 'unsafe-path';
  constructor(
    readonly file: string,
    readonly reason: UnsafePathReason,
  ) {
    super(`refused ${file}: ${REASON_TEXT[reason]}`);
  }
}

/** True when `target` is `root` or inside it (both absolute, already real paths). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Where a path under the root leads once every component is resolved. */
export type PathKind = 'file' | 'outside' | 'missing' | 'other';

/**
 * Resolves `abs` (under the real root) through every symlink: 'file' for a regular file inside the root, 'outside'
 * when it (or a dangling link on the way) leads out of the root, 'other' for folders, FIFOs, devices and sockets.
 */
export async function classifyWorkspacePath(rootReal: string, abs: string): Promise<PathKind> {
  if (!isInside(rootReal, path.resolve(abs))) return 'outside';
  const real = await realpath(abs).catch(() => undefined);
  if (real === undefined) return (await danglingLeadsOutside(rootReal, abs)) ? 'outside' : 'missing';
  if (!isInside(rootReal, real)) return 'outside';
  const info = await stat(real).catch(() => undefined);
  if (!info) return 'missing';
  return info.isFile() ? 'file' : 'other';
}

/** For a path that does not resolve: true when its deepest existing ancestor, or a dangling link in it, points outside. */
async function danglingLeadsOutside(rootReal: string, abs: string): Promise<boolean> {
  let current = path.resolve(abs);
  while (current !== rootReal && isInside(rootReal, current)) {
    const info = await lstat(current).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      const target = await realpath(current).catch(async () => path.resolve(path.dirname(current), await readlink(current).catch(() => '')));
      if (!isInside(rootReal, target)) return true;
    }
    if (info) {
      const real = await realpath(current).catch(() => undefined);
      return real !== undefined && !isInside(rootReal, real);
    }
    current = path.dirname(current);
  }
  return false;
}

/** Opens a regular file inside the root for reading: never follows a link out, never waits on a FIFO. */
export async function openWorkspaceFile(rootReal: string, abs: string): Promise<{ handle: FileHandle; info: Stats }> {
  const kind = await classifyWorkspacePath(rootReal, abs);
  if (kind === 'outside') throw new UnsafePathError(abs, 'outside-root');
  if (kind === 'other') throw new UnsafePathError(abs, 'not-a-file');
  const real = kind === 'file' ? await realpath(abs) : abs;
  // kind 'missing': open fails with ENOENT below, which callers treat as absent.
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? new UnsafePathError(abs, 'symlink') : error;
  });
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new UnsafePathError(abs, 'not-a-file');
  }
  return { handle, info };
}

/** Reads a regular file inside the root whole, refusing one larger than `maxBytes`. */
export async function readWorkspaceFile(rootReal: string, abs: string, maxBytes: number): Promise<Buffer> {
  const { handle, info } = await openWorkspaceFile(rootReal, abs);
  try {
    if (info.size > maxBytes) throw new UnsafePathError(abs, 'too-large');
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = (await handle.read(buffer, length, buffer.length - length, length)).bytesRead) > 0; ) length += n;
    if (length > info.size) throw new UnsafePathError(abs, 'too-large');
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * Creates `absDir` under the root one component at a time; every component that exists must be a real folder (not a
 * symlink, not a file), so nothing written below it can land outside the root.
 */
export async function ensureWorkspaceDir(rootReal: string, absDir: string): Promise<void> {
  const relative = path.relative(rootReal, path.resolve(absDir));
  if (!isInside(rootReal, path.resolve(absDir))) throw new UnsafePathError(absDir, 'outside-root');
  let current = rootReal;
  for (const part of relative.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    let info = await lstat(current).catch(() => undefined);
    if (!info) {
      await mkdir(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      info = await lstat(current);
    }
    if (info.isSymbolicLink()) throw new UnsafePathError(current, 'symlink');
    if (!info.isDirectory()) throw new UnsafePathError(current, 'not-a-folder');
  }
}

/** Opens a file under a checked folder for writing without following a link; checks it is a plain, singly linked file. */
async function openForWrite(abs: string, flags: number): Promise<FileHandle> {
  const handle = await open(abs, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? new UnsafePathError(abs, 'symlink') : error.code === 'ENXIO' ? new UnsafePathError(abs, 'not-a-file') : error;
  });
  const info = await handle.stat();
  const refused: UnsafePathReason | undefined = !info.isFile() ? 'not-a-file' : info.nlink > 1 ? 'hard-link' : undefined;
  if (refused) {
    await handle.close();
    throw new UnsafePathError(abs, refused);
  }
  return handle;
}

/** Writes all of `bytes` through `handle`, failing loudly on a short write (a full disk). */
async function writeAll(handle: FileHandle, bytes: Buffer, file: string): Promise<void> {
  const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
  if (bytesWritten !== bytes.length) throw new Error(`short write to ${file} (${bytesWritten} of ${bytes.length} bytes); the disk may be full`);
}

/**
 * Appends each chunk with its own write() on an O_APPEND descriptor (concurrent writers never interleave a chunk) to
 * a log inside the root, creating its folders; refuses a log or folder that is a symlink, a hard link or not a file.
 */
export async function appendWorkspaceFile(rootReal: string, abs: string, chunks: readonly Buffer[]): Promise<void> {
  await ensureWorkspaceDir(rootReal, path.dirname(abs));
  const handle = await openForWrite(abs, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    for (const chunk of chunks) await writeAll(handle, chunk, abs);
  } finally {
    await handle.close();
  }
}

/** Replaces a file inside the root atomically (a fresh temp file renamed over it); refuses a target that is a symlink. */
export async function writeWorkspaceFileAtomic(rootReal: string, abs: string, data: string | Buffer): Promise<void> {
  await ensureWorkspaceDir(rootReal, path.dirname(abs));
  const existing = await lstat(abs).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new UnsafePathError(abs, 'symlink');
  if (existing && !existing.isFile()) throw new UnsafePathError(abs, 'not-a-file');
  const temp = `${abs}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  const handle = await openForWrite(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    await writeAll(handle, Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'), abs);
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, abs).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined);
    throw error;
  });
}

/** Rewrites an existing regular file inside the root in place (keeping its mode and identity), without following a link. */
export async function rewriteWorkspaceFile(rootReal: string, abs: string, data: string): Promise<void> {
  const kind = await classifyWorkspacePath(rootReal, path.dirname(abs));
  if (kind === 'outside') throw new UnsafePathError(abs, 'outside-root');
  const handle = await openForWrite(abs, constants.O_WRONLY);
  try {
    await handle.truncate(0);
    await writeAll(handle, Buffer.from(data, 'utf8'), abs);
  } finally {
    await handle.close();
  }
}
