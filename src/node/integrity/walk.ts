// Walks a workspace for the integrity scope: never enters .git, excluded folders or a node_modules outside a skill,
// never follows a symlink out of the root (it is reported instead), never descends through directory symlinks (no
// loops), and lists what it cannot hash (FIFOs, sockets, devices, folder symlinks, folders it cannot read) so the scan can report them.
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import type { ScopeMatcher } from '../../core/integrity/scope';
import type { UnpinnableReason } from '../../core/integrity/types';
import { classifyWorkspacePath, readWorkspaceFile } from '../workspaceFs';

/** A path the walk found but cannot hash; `markers` (folder symlinks only): the target folder directly holds a file
 * the scope pins (a skill or prompt reached through the link). */
export interface WalkedUnpinnable {
  path: string;
  reason: UnpinnableReason;
  detail: string;
  isDir: boolean;
  markers?: boolean;
  /** Folder symlinks only: the folder it leads to, relative to the root (it is inside the root). */
  target?: string;
}

/** What the walk found: regular files (and in-root file symlinks), symlinks whose target is outside the root (and
 * which of those lead to a folder), and paths that cannot be hashed. */
export interface WalkResult {
  files: string[];
  outside: string[];
  /** The `outside` links that lead to a folder, or to nothing yet: what it holds is never read, so it may be a skill. */
  outsideFolders: Set<string>;
  unpinnable: WalkedUnpinnable[];
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

/** The largest .gitignore read; past it the file counts as empty, as one that cannot be read does. */
const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

/** A .gitignore's text, or '' where it is no regular file inside the root (a FIFO hung `verify` and `lock`), cannot be
 * read or is too large. */
export async function readGitignore(rootReal: string, abs: string): Promise<string> {
  return readWorkspaceFile(rootReal, abs, MAX_GITIGNORE_BYTES).then((bytes) => bytes.toString('utf8'), () => '');
}

/** What a directory entry that is neither a file, a folder nor a symlink is. */
function specialKind(entry: Dirent): string {
  return entry.isFIFO() ? 'a named pipe (FIFO)' : entry.isSocket() ? 'a socket' : 'a device';
}

/**
 * Walks `root` (absolute, real path) and lists files as POSIX relative paths. With `nestedGitignores`, each folder's
 * .gitignore is added to the matcher before its entries are tested (the root's is already in it). A .gitignore decides
 * which files are listed, never which folders are searched: what agents load whatever git says is listed (skill folders
 * found as the walk enters them, agents' folders, prompt files: ScopeMatcher.isExcluded).
 */
export async function walkWorkspace(root: string, matcher: ScopeMatcher, nestedGitignores: boolean): Promise<WalkResult> {
  const files: string[] = [];
  const outside: string[] = [];
  const outsideFolders = new Set<string>();
  const unpinnable: WalkedUnpinnable[] = [];
  const pending: Promise<void>[] = [];
  // `ignored`: the folder is one a .gitignore hides (or inside one); git reads no .gitignore there, nor does the walk.
  const visit = async (dirRel: string, ignored = false): Promise<void> => {
    const dirAbs = dirRel ? path.join(root, dirRel) : root;
    let entries: Dirent[];
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dirRel && code !== 'ENOENT' && code !== 'ENOTDIR') unpinnable.push({ path: dirRel, reason: 'unreadable', detail: `the folder cannot be listed (${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code})`, isDir: true });
      return;
    }
    if (nestedGitignores && dirRel && !ignored && entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      matcher.addGitignore(dirRel, await readGitignore(root, path.join(dirAbs, '.gitignore')));
    }
    // A skill folder is loaded whole, whatever git ignores in it: from here down no .gitignore hides a file.
    if (dirRel && entries.some((entry) => !entry.isDirectory() && matcher.isSkillMarker(`${dirRel}/${entry.name}`))) matcher.addSkillFolder(dirRel);
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // A folder a .gitignore hides is still searched: a prompt file or a skill marker in it, at any depth, is loaded by
        // agents whatever git says (its other files stay out, unless it is a skill folder).
        if (!matcher.isForcedOut(rel, true)) pending.push(visit(rel, ignored || matcher.isExcluded(rel, true)));
      } else if (entry.isFile()) {
        if (!matcher.isExcluded(rel, false)) files.push(rel);
      } else if (entry.isSymbolicLink()) {
        if (!matcher.isExcluded(rel, false)) await visitLink(rel);
      } else if (!matcher.isExcluded(rel, false)) {
        unpinnable.push({ path: rel, reason: 'not-a-file', detail: `it is ${specialKind(entry)}, not a regular file`, isDir: false });
      }
    }
  };
  const visitLink = async (rel: string): Promise<void> => {
    const abs = path.join(root, rel);
    const kind = await classifyWorkspacePath(root, abs);
    if (kind === 'file') files.push(rel);
    else if (kind === 'outside') {
      outside.push(rel);
      // stat reads the target's type only, never its content; a dangling link may become a folder when its target appears.
      const target = await stat(abs).catch(() => undefined);
      if (!target || target.isDirectory()) outsideFolders.add(rel);
    }
    else if (kind === 'other') {
      const info = await stat(abs).catch(() => undefined);
      if (info?.isDirectory()) {
        const names = await readdir(abs).catch(() => [] as string[]);
        const markers = names.some((name) => matcher.isSkillMarker(`${rel}/${name}`) || matcher.isPrompt(`${rel}/${name}`));
        const target = await realpath(abs).then((real) => toPosixRelative(root, real), () => undefined);
        unpinnable.push({ path: rel, reason: 'folder-symlink', detail: 'it is a symbolic link to a folder, which is never followed', isDir: true, markers, ...(target ? { target } : {}) });
      } else if (info) {
        unpinnable.push({ path: rel, reason: 'not-a-file', detail: 'it is a symbolic link to something that is not a regular file', isDir: false });
      }
    } else if (kind === 'missing') {
      // A link inside the root to nothing yet: whatever appears there later would be read through it.
      unpinnable.push({ path: rel, reason: 'not-a-file', detail: 'it is a symbolic link to nothing (its target does not exist, or the links loop)', isDir: false });
    }
  };
  pending.push(visit(''));
  for (let i = 0; i < pending.length; i++) await pending[i];
  return { files, outside, outsideFolders, unpinnable };
}
