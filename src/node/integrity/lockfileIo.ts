// Reads and writes the lockfile on disk through the workspace file layer: a lockfile path that leads outside the
// root (through any component) is reported, never read or written; a FIFO or device is refused without waiting; an
// unreadable or invalid lockfile becomes a corrupt-lockfile finding; writes are atomic (temp file + rename).
import * as path from 'node:path';
import { parseLockfile, serializeLockfile } from '../../core/integrity/lockfile';
import type { IntegrityFinding, Lockfile } from '../../core/integrity/types';
import { errorMessage, InputError } from '../../core/errors';
import { ensureWorkspaceDir, isInside, readWorkspaceFile, UnsafePathError, writeWorkspaceFileAtomic } from '../workspaceFs';
import { toPosixRelative } from './walk';
import { withFileLock } from './fileLock';
import { nodeSri } from './hashFile';

/** The largest lockfile read (100,000 entries take about 25 MiB). */
export const MAX_LOCKFILE_BYTES = 256 * 1024 * 1024;

/** The lockfile on disk: absent (check skipped), corrupt (fail closed) or parsed. */
export type LockfileState =
  | { state: 'absent'; path: string }
  | { state: 'corrupt'; path: string; finding: Extract<IntegrityFinding, { code: 'corrupt-lockfile' }> }
  | { state: 'ok'; path: string; lock: Lockfile };

/** Absolute lockfile path for `configured` (relative to root); undefined when it escapes the root. */
export function resolveLockPath(rootReal: string, configured: string): string | undefined {
  const abs = path.resolve(rootReal, configured);
  return isInside(rootReal, abs) && abs !== rootReal ? abs : undefined;
}

/** Reads the lockfile named by the config (relative to the real root). */
export async function readLockfile(rootReal: string, configured: string): Promise<LockfileState> {
  const abs = resolveLockPath(rootReal, configured);
  const shown = abs ? toPosixRelative(rootReal, abs) : configured;
  const corrupt = (reason: 'outside-root' | 'unreadable', detail: string): LockfileState => ({
    state: 'corrupt',
    path: shown,
    finding: { code: 'corrupt-lockfile', path: shown, reason, detail },
  });
  if (!abs) return corrupt('outside-root', 'the configured lockfile path is outside the workspace; it was not read');
  let text: string;
  try {
    text = (await readWorkspaceFile(rootReal, abs, MAX_LOCKFILE_BYTES)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent', path: shown };
    if (error instanceof UnsafePathError && error.reason === 'outside-root') return corrupt('outside-root', 'the lockfile path leads outside the workspace (through a symlink); it was not read');
    if (error instanceof UnsafePathError) return corrupt('unreadable', error.reason === 'too-large' ? `the lockfile is larger than ${MAX_LOCKFILE_BYTES / 1024 / 1024} MiB` : 'the lockfile is not a regular file');
    return corrupt('unreadable', errorMessage(error));
  }
  const parsed = parseLockfile(text, shown, nodeSri);
  return parsed.ok ? { state: 'ok', path: shown, lock: parsed.lock } : { state: 'corrupt', path: shown, finding: parsed.finding };
}

/** Writes the lockfile atomically; refuses a path that leads outside the root or through a symlink. */
export function writeLockfile(rootReal: string, configured: string, lock: Lockfile): Promise<string> {
  return writeLockfileText(rootReal, configured, serializeLockfile(lock));
}

/** Writes the lockfile's content as given (a restored copy keeps its bytes), as writeLockfile does. */
export async function writeLockfileText(rootReal: string, configured: string, text: string | Buffer): Promise<string> {
  const abs = resolveLockPath(rootReal, configured);
  const refuse = (why: string) => new InputError('invalid-config', `the lockfile path "${configured}" ${why}; refusing to write it`, undefined, undefined, 'integrity.lockfile');
  if (!abs) throw refuse('is outside the workspace');
  try {
    await writeWorkspaceFileAtomic(rootReal, abs, text);
  } catch (error) {
    if (error instanceof UnsafePathError) throw refuse(error.reason === 'outside-root' || error.reason === 'symlink' ? 'goes through a symlink' : 'is not a regular file');
    throw error;
  }
  return toPosixRelative(rootReal, abs);
}

/** Runs a read-modify-write of the lockfile while holding its cross-process lock. */
export async function withLockfileLock<T>(rootReal: string, configured: string, fn: () => Promise<T>): Promise<T> {
  const abs = resolveLockPath(rootReal, configured) ?? path.join(rootReal, '.agent-immune-lockfile');
  await ensureWorkspaceDir(rootReal, path.dirname(abs)).catch((error: unknown) => {
    if (error instanceof UnsafePathError) throw new InputError('invalid-config', `the lockfile path "${configured}" goes through a symlink or a file; refusing to lock it`, undefined, undefined, 'integrity.lockfile');
    throw error;
  });
  return withFileLock(abs, fn);
}
