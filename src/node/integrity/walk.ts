// Walks a workspace for the integrity scope: never enters node_modules/.git or excluded folders, never follows a
// symlink out of the root (it is reported instead), never descends through directory symlinks (no loops).
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ScopeMatcher } from '../../core/integrity/scope';
import { classifyWorkspacePath } from '../workspaceFs';

/** What the walk found: regular files (and in-root file symlinks), and symlinks whose target is outside the root. */
export interface WalkResult {
  files: string[];
  outside: string[];
}

/** Converts an absolute path under root to the POSIX relative form used in the lockfile. */
export function toPosixRelative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** How a path under the root resolves (every component): 'file', 'outside', or undefined (missing, folder, FIFO, device). */
export async function classifyPath(rootReal: string, abs: string): Promise<'file' | 'outside' | undefined> {
  const kind = await classifyWorkspacePath(rootReal, abs);
  return kind === 'file' || kind === 'outside' ? kind : undefined;
}

/**
 * Walks `root` (absolute, real path) and lists files as POSIX relative paths. With `nestedGitignores`, each folder's
 * .gitignore is added to the matcher before its entries are tested (the root's is already in it).
 */
export async function walkWorkspace(root: string, matcher: ScopeMatcher, nestedGitignores: boolean): Promise<WalkResult> {
  const files: string[] = [];
  const outside: string[] = [];
  const pending: Promise<void>[] = [];
  const visit = async (dirRel: string): Promise<void> => {
    const dirAbs = dirRel ? path.join(root, dirRel) : root;
    const entries = await readdir(dirAbs, { withFileTypes: true }).catch(() => []);
    if (nestedGitignores && dirRel && entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      matcher.addGitignore(dirRel, await readFile(path.join(dirAbs, '.gitignore'), 'utf8').catch(() => ''));
    }
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!matcher.isExcluded(rel, true)) pending.push(visit(rel));
      } else if (entry.isFile()) {
        if (!matcher.isExcluded(rel, false)) files.push(rel);
      } else if (entry.isSymbolicLink() && !matcher.isExcluded(rel, false)) {
        const kind = await classifyPath(root, path.join(root, rel));
        if (kind === 'file') files.push(rel);
        else if (kind === 'outside') outside.push(rel);
      }
    }
  };
  pending.push(visit(''));
  for (let i = 0; i < pending.length; i++) await pending[i];
  return { files, outside };
}
