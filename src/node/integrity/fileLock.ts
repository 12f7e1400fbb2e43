// A cross-process lock file (O_EXCL create) so two writers of the audit log or the lockfile never interleave;
// a lock left by a crashed process is broken after a timeout.
import { open, stat, unlink } from 'node:fs/promises';

/** Thrown when the lock could not be taken in time. */
export class FileLockTimeoutError extends Error {
  override readonly name = 'FileLockTimeoutError';
  readonly kind = 'lock-timeout';
  constructor(readonly lockPath: string) {
    super(`could not lock ${lockPath} in time; another agent-immune process holds it (delete it if none is running)`);
  }
}

/** Runs `fn` while holding `<target>.lock`; waits up to `timeoutMs`, breaking locks older than `staleMs`. */
export async function withFileLock<T>(target: string, fn: () => Promise<T>, timeoutMs = 10_000, staleMs = 30_000): Promise<T> {
  const lockPath = target + '.lock';
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.write(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lockPath).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > staleMs) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new FileLockTimeoutError(lockPath);
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt) * (0.5 + Math.random())));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
