// Fetches a pinned file's content from git by its blob id, for "show pinned vs current".
import { execFile } from 'node:child_process';

/** The blob's bytes from the repository at `root`, or undefined when git or the blob is not available. */
export function readGitBlob(root: string, blobId: string): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{40}$/.test(blobId)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile('git', ['cat-file', 'blob', blobId], { cwd: root, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 10_000 }, (error, stdout) => {
      resolve(error ? undefined : stdout);
    });
  });
}
