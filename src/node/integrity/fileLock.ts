// A cross-process lock file (O_EXCL create) so two writers of the audit log or the lockfile never interleave. The lock
// names its owner (pid, host, time); a lock whose owner is no longer running (a killed writer) is taken over at once,
// under a second short-lived lock so two processes never both break it and one of them remove the other's fresh lock.
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import * as os from 'node:os';

/** Who holds a lock. */
export interface LockOwner {
  pid: number;
  host: string;
  time: string;
}

/** Thrown when the lock could not be taken in time because a running process holds it. */
export class FileLockTimeoutError extends Error {
  override readonly name = 'FileLockTimeoutError';
  readonly kind = 'lock-timeout';
  constructor(
    readonly lockPath: string,
    readonly owner: LockOwner | undefined,
  ) {
    const who = owner ? `process ${owner.pid} on ${owner.host} (since ${owner.time})` : 'another process';
    const state = owner && owner.host !== os.hostname() ? 'which cannot be checked from this host' : 'which is still running';
    super(`${lockPath} is held by ${who}, ${state}; try again when it has finished`);
  }
}

/** A lock whose owner cannot be read (a writer killed between create and write) is stale after this long. */
const UNREADABLE_STALE_MS = 2_000;
/** A lock held from another host (a shared folder) cannot be checked; it is stale after this long. */
const OTHER_HOST_STALE_MS = 60_000;
/** This host's writers hold a lock for seconds (hashing a 3 GB skill file: 13 s); one recorded longer ago is stale. */
const LOCAL_HELD_MAX_MS = 10 * 60_000;
/** The breaker lock is held for milliseconds; one older than this was left by a killed breaker. */
const BREAKER_STALE_MS = 5_000;

const CREATE = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW;

/** Runs `fn` while holding `<target>.lock`; waits up to `timeoutMs` for a running holder, takes over a stale lock. */
export async function withFileLock<T>(target: string, fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const lockPath = target + '.lock';
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (await tryCreate(lockPath)) break;
    const held = await readLock(lockPath);
    if (held === 'gone') continue;
    if (isStale(held)) {
      await breakStale(lockPath, held);
      continue;
    }
    if (Date.now() > deadline) throw new FileLockTimeoutError(lockPath, held.owner);
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt) * (0.5 + Math.random())));
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

/** Creates the lock with this process as its owner; false when it exists. */
async function tryCreate(lockPath: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, CREATE, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    const owner: LockOwner = { pid: process.pid, host: os.hostname(), time: new Date().toISOString() };
    await handle.write(JSON.stringify(owner) + '\n');
  } finally {
    await handle.close();
  }
  return true;
}

/** What is at the lock path: its owner (undefined when unreadable), identity and age; 'gone' when nothing is. */
type HeldLock = { owner: LockOwner | undefined; text: string; ino: number; ageMs: number; mtimeMs: number; regular: boolean };

async function readLock(lockPath: string): Promise<HeldLock | 'gone'> {
  const info = await lstat(lockPath).catch(() => undefined);
  if (!info) return 'gone';
  const ageMs = Date.now() - info.mtimeMs;
  if (!info.isFile()) return { owner: undefined, text: '', ino: info.ino, ageMs, mtimeMs: info.mtimeMs, regular: false };
  let text = '';
  const handle = await open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (handle) {
    try {
      const buffer = Buffer.alloc(512);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  }
  return { owner: parseOwner(text), text, ino: info.ino, ageMs, mtimeMs: info.mtimeMs, regular: true };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const raw = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(raw.pid) && (raw.pid as number) > 0 && typeof raw.host === 'string' && typeof raw.time === 'string') return raw as LockOwner;
  } catch {
    // an empty or foreign lock file: judged by its age
  }
  return undefined;
}

/** True when the lock's owner is gone: a process of this host that no longer runs, or an old lock that cannot be checked. */
function isStale(held: HeldLock): boolean {
  if (!held.regular) return true;
  // A lock dated in the future (a file shipped with a 2030 mtime) is judged by how far off it is: it would never age.
  const age = Math.abs(held.ageMs);
  if (!held.owner) return age > UNREADABLE_STALE_MS;
  // This host's lock is judged by its process and by its recorded time on this host's own clock, never by its file's
  // date (a file system on another clock, NFS or a WSL mount, dates files apart: that let two writers in at once). A
  // writer holds a lock for seconds, so one dated far from now (a committed lock naming this host and pid 1, which
  // always runs) was written by no writer here.
  if (held.owner.host === os.hostname()) return !processRuns(held.owner.pid) || !(Math.abs(Date.now() - Date.parse(held.owner.time)) <= LOCAL_HELD_MAX_MS);
  // Another host's cannot be checked. A writer writes its owner line as it creates the file: one whose time is far
  // from its file's (a lock committed to the repository, dated by the checkout) was written by no writer and is
  // broken at once (it turned auditing off for each CI run); else it is stale once old.
  const written = Date.parse(held.owner.time);
  if (!Number.isFinite(written) || Math.abs(held.mtimeMs - written) > OTHER_HOST_STALE_MS) return true;
  return age > OTHER_HOST_STALE_MS;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock, under `<lock>.break`, only if it is still the very lock judged stale. */
async function breakStale(lockPath: string, judged: HeldLock): Promise<void> {
  const breaker = lockPath + '.break';
  if (!(await tryCreate(breaker))) {
    const other = await readLock(breaker);
    if (other !== 'gone' && other.ageMs > BREAKER_STALE_MS) await unlink(breaker).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return;
  }
  try {
    const now = await readLock(lockPath);
    if (now !== 'gone' && now.ino === judged.ino && now.text === judged.text) {
      await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}
