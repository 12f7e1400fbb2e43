// Asks git about the workspace: a pinned file's content by its blob id (for "show pinned vs current"), whether git
// tracks the lockfile (a project that commits its lockfile has adopted it), and the lockfile's tracked content (to
// restore a deleted one). The repository may be hostile and a check writes nothing: git runs with the repository's
// fsmonitor hook and hooks switched off, without optional locks, and with no transport allowed, so that a
// partial-clone "promisor" remote in its config cannot make a read fetch (and run the remote's upload-pack command).
import { execFile } from 'node:child_process';

const SAFE_GIT = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];
const SAFE_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'none', GIT_NO_LAZY_FETCH: '1' };
const GIT_TIMEOUT_MS = 10_000;

/** The blob's bytes from the repository at `root`, or undefined when git or the blob is not available. */
export async function readGitBlob(root: string, blobId: string): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{40}$/.test(blobId)) return undefined;
  const result = await gitOutput(root, ['cat-file', 'blob', blobId], 64 * 1024 * 1024);
  return result.ok ? result.stdout : undefined;
}

/**
 * The content git tracks for `file` (POSIX, relative to `root`, read as a path, never as revision syntax): the index's
 * copy, else HEAD's, with where it came from; undefined when git has neither (or there is no repository); `failure`
 * when git could not answer (not installed, timed out, the copy larger than `maxBytes`, the repository refused).
 */
export async function readTrackedFile(root: string, file: string, maxBytes: number): Promise<{ content: Buffer; from: 'index' | 'HEAD' } | { failure: string } | undefined> {
  for (const from of ['index', 'HEAD'] as const) {
    // "./" makes the path relative to root (git reads ":path" from the top of the work tree) and literal ("0:x" is a stage).
    const result = await gitOutput(root, ['cat-file', 'blob', `${from === 'index' ? '' : 'HEAD'}:./${file}`], maxBytes);
    if (result.ok) return { content: result.stdout, from };
    if (result.failure !== undefined) return { failure: result.failure };
  }
  return undefined;
}

/** git's output, or why there is none: `failure` undefined when git answered that there is no such thing. */
function gitOutput(root: string, args: string[], maxBytes: number): Promise<{ ok: true; stdout: Buffer } | { ok: false; failure: string | undefined }> {
  return new Promise((resolve) => {
    execFile('git', [...SAFE_GIT, ...args], { cwd: root, env: SAFE_ENV, encoding: 'buffer', maxBuffer: maxBytes, timeout: GIT_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      resolve({ ok: false, failure: gitFailure(error as NodeJS.ErrnoException & { killed?: boolean }, stderr.toString('utf8'), maxBytes) });
    });
  });
}

/** Why git failed, in words, when it was not an answer ("no such path") but git itself. */
function gitFailure(error: NodeJS.ErrnoException & { killed?: boolean }, stderr: string, maxBytes: number): string | undefined {
  if (error.code === 'ENOENT') return 'git is not installed';
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `git's copy is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`;
  if (error.killed) return `git did not answer within ${GIT_TIMEOUT_MS / 1000} s`;
  if (/dubious ownership/i.test(stderr)) return 'git refuses this repository (it belongs to another user; see git config safe.directory)';
  return undefined;
}

/** True when git tracks `file` (POSIX, relative to `root`) in the index or in HEAD; false when it does not, or when
 * there is no git or no repository. */
export async function isTrackedByGit(root: string, file: string): Promise<boolean> {
  return (await gitSucceeds(root, ['ls-files', '--error-unmatch', '--', `:(literal)${file}`])) || gitSucceeds(root, ['cat-file', '-e', `HEAD:./${file}`]);
}

/** Which of `files` (POSIX, relative to `root`) git ignores and does not track: a clone will not have them. Empty when
 * there is no git or no repository. */
export function ignoredByGit(root: string, files: readonly string[]): Promise<string[]> {
  if (files.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    const child = execFile('git', [...SAFE_GIT, 'check-ignore', '-z', '--stdin'], { cwd: root, env: SAFE_ENV, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      // Exit 1: none is ignored; any other failure (no repository, no git) says nothing either.
      resolve(error ? [] : stdout.split('\0').filter(Boolean));
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(files.map((file) => `${file}\0`).join(''));
  });
}

function gitSucceeds(root: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('git', [...SAFE_GIT, ...args], { cwd: root, env: SAFE_ENV, timeout: 10_000 }, (error) => resolve(!error));
  });
}
