// Reads and writes the lockfile on disk: a lockfile path (or symlink) outside the root is reported, never read;
// an unreadable or invalid lockfile becomes a corrupt-lockfile finding; writes are atomic (temp file + rename).
import { readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseLockfile, serializeLockfile } from '../../core/integrity/lockfile';
import type { IntegrityFinding, Lockfile } from '../../core/integrity/types';
import { InputError } from '../../core/errors';
import { classifyPath, isInside, toPosixRelative } from './walk';
import { withFileLock } from './fileLock';
import { nodeSri } from './hashFile';

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
  const kind = await classifyPath(rootReal, abs);
  if (kind === 'outside') return corrupt('outside-root', 'the lockfile is a symlink to a target outside the workspace; it was not read');
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && kind === undefined) return { state: 'absent', path: shown };
    return corrupt('unreadable', (error as Error).message);
  }
  const parsed = parseLockfile(text, shown, nodeSri);
  return parsed.ok ? { state: 'ok', path: shown, lock: parsed.lock } : { state: 'corrupt', path: shown, finding: parsed.finding };
}

/** Writes the lockfile atomically under a cross-process lock; refuses a path outside the root. */
export async function writeLockfile(rootReal: string, configured: string, lock: Lockfile): Promise<string> {
  const abs = resolveLockPath(rootReal, configured);
  if (!abs || (await classifyPath(rootReal, abs)) === 'outside') {
    throw new InputError('invalid-config', `the lockfile path "${configured}" is outside the workspace; refusing to write it`, undefined, undefined, 'integrity.lockfile');
  }
  const temp = `${abs}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, serializeLockfile(lock));
  await rename(temp, abs);
  return toPosixRelative(rootReal, abs);
}

/** Runs a read-modify-write of the lockfile while holding its cross-process lock. */
export async function withLockfileLock<T>(rootReal: string, configured: string, fn: () => Promise<T>): Promise<T> {
  const abs = resolveLockPath(rootReal, configured) ?? path.join(rootReal, '.agent-immune-lockfile');
  return withFileLock(abs, fn);
}
