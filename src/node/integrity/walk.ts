// Walks a workspace for the integrity scope: never enters node_modules/.git or excluded folders, never follows a
// symlink out of the root (it is reported instead), never descends through directory symlinks (no loops).
import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ScopeMatcher } from '../../core/integrity/scope';

/** What the walk found: regular files (and in-root file symlinks), and symlinks whose target is outside the root. */
export interface WalkResult {
  files: string[];
  outside: string[];
}

/** True when `target` is `root` or inside it (both absolute, already real paths). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Converts an absolute path under root to the POSIX relative form used in the lockfile. */
export function toPosixRelative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** How a symlink (or plain path) at `abs` resolves: 'file', 'outside', or undefined (missing, broken, dir, other). */
export async function classifyPath(rootReal: string, abs: string): Promise<'file' | 'outside' | undefined> {
  const info = await lstat(abs).catch(() => undefined);
  if (!info) return undefined;
  if (info.isFile()) return 'file';
  if (!info.isSymbolicLink()) return undefined;
  const target = await realpath(abs).catch(() => undefined);
  if (target === undefined) {
    const link = await readlink(abs).catch(() => '');
    return isInside(rootReal, path.resolve(path.dirname(abs), link)) ? undefined : 'outside';
  }
  if (!isInside(rootReal, target)) return 'outside';
  return (await stat(target).catch(() => undefined))?.isFile() ? 'file' : undefined;
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
