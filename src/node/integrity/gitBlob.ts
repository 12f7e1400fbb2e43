// Asks git about the workspace: a pinned file's content by its blob id (for "show pinned vs current"), whether git
// tracks the lockfile (a project that commits its lockfile has adopted it), and the lockfile's tracked content (to
// restore a deleted one). git runs with the repository's fsmonitor hook switched off and without taking optional
// locks: the repository may be hostile, and a check writes nothing.
import { execFile } from 'node:child_process';

const SAFE_GIT = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];
const SAFE_ENV = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };

/** The blob's bytes from the repository at `root`, or undefined when git or the blob is not available. */
export function readGitBlob(root: string, blobId: string): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{40}$/.test(blobId)) return Promise.resolve(undefined);
  return gitOutput(root, ['cat-file', 'blob', blobId], 64 * 1024 * 1024);
}

/** The content git tracks for `file` (POSIX, relative to `root`): the index's copy, else HEAD's, with where it came
 * from; undefined when git has neither (or there is no git or no repository). At most `maxBytes`. */
export async function readTrackedFile(root: string, file: string, maxBytes: number): Promise<{ content: Buffer; from: 'index' | 'HEAD' } | undefined> {
  for (const from of ['index', 'HEAD'] as const) {
    const content = await gitOutput(root, ['cat-file', 'blob', from === 'index' ? `:${file}` : `HEAD:${file}`], maxBytes);
    if (content) return { content, from };
  }
  return undefined;
}

function gitOutput(root: string, args: string[], maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile('git', [...SAFE_GIT, ...args], { cwd: root, env: SAFE_ENV, encoding: 'buffer', maxBuffer: maxBytes, timeout: 10_000 }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

/** True when git tracks `file` (POSIX, relative to `root`) in the index or in HEAD; false when it does not, or when
 * there is no git or no repository. */
export async function isTrackedByGit(root: string, file: string): Promise<boolean> {
  return (await gitSucceeds(root, ['ls-files', '--error-unmatch', '--', `:(literal)${file}`])) || gitSucceeds(root, ['cat-file', '-e', `HEAD:./${file}`]);
}

function gitSucceeds(root: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('git', [...SAFE_GIT, ...args], { cwd: root, env: SAFE_ENV, timeout: 10_000 }, (error) => resolve(!error));
  });
}
