// Which integrity workspace a folder belongs to, for the commands run without --root (as git finds its repository):
// the nearest folder at or above it that holds the lockfile or the project config, or where git tracks a lockfile that
// is gone (a deleted lockfile is no reason to check against another). A bare .git is no marker (a dotfiles repository
// in the home folder would make every project under it one workspace). Above the current folder, only this user's
// folders count, and only markers this user owns: the search stops at the home folder, at a filesystem root, at a
// folder another user owns, and at a folder others may write to (/tmp), as git's safe.directory stops at others' repositories.
// A skill folder with no workspace above is its repository's (the nearest .git above, within the same stops).
import { realpath, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG_FILE_NAME } from '../../core/config';
import { DEFAULT_LOCKFILE } from '../../core/integrity/types';
import { isTrackedByGit } from './gitBlob';

/** The default skill marker: a folder holding one is a skill's, never a workspace of its own inside a repository. */
const SKILL_MARKER = 'SKILL.md';

const OTHERS_WRITE = 0o002;
const STICKY = 0o1000;

/**
 * The integrity workspace `cwd` is in (above); `cwd` itself when no folder up to the stop marks one, unless `cwd` is a
 * skill folder (it holds a SKILL.md) inside a repository: then the repository's folder, since a skill folder as the root
 * would pin its SKILL.md alone and leave the scripts beside it unseen.
 */
export async function integrityRootOf(cwd: string): Promise<string> {
  const start = path.resolve(cwd);
  const homes = await homeFolders();
  const uid = process.getuid?.();
  const ownedHere = async (file: string) => {
    const info = await stat(file).catch(() => undefined);
    return info !== undefined && info.isFile() && (uid === undefined || info.uid === uid);
  };
  const inSkill = await stat(path.join(start, SKILL_MARKER)).then((info) => info.isFile(), () => false);
  let repository: string | undefined;
  const unmarked = () => repository ?? start;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const above = dir !== start;
    if (above && (path.dirname(dir) === dir || homes.some((home) => isHomeOrAbove(dir, home)) || !(await isOwnFolder(dir, uid)))) return unmarked();
    const marked = above ? ownedHere : (file: string) => stat(file).then((info) => info.isFile(), () => false);
    if ((await marked(path.join(dir, DEFAULT_LOCKFILE))) || (await marked(path.join(dir, CONFIG_FILE_NAME)))) return dir;
    if (await isTrackedByGit(dir, DEFAULT_LOCKFILE)) return dir;
    if (inSkill && above && repository === undefined && (await stat(path.join(dir, '.git')).then(() => true, () => false))) repository = dir;
    if (path.dirname(dir) === dir) return unmarked();
  }
}

/**
 * Why a folder is no project to pin, or undefined: the home folder, a filesystem root, a shared folder as `/tmp`,
 * unless it holds the lockfile or the config. The search above the current folder stops at each; run in one, `lock`
 * pinned all of it (a stranger's files in /tmp), and `audit key` refused its own key in `~/.config` as inside the
 * workspace.
 */
export async function notAProject(dir: string): Promise<string | undefined> {
  const abs = path.resolve(dir);
  // A folder that holds the lockfile or the config was made a project on purpose.
  if (await holdsLockfileOrConfig(abs)) return undefined;
  if (path.dirname(abs) === abs) return 'a filesystem root';
  const real = await realpath(abs).catch(() => abs);
  if ((await homeFolders()).some((home) => home === abs || home === real)) return 'your home folder';
  // A shared folder as /tmp is (the sticky bit); not another user's, nor one every mode lets all write to (a CI container
  // runs as another user than the checkout's owner; WSL's and FAT drives show every folder as 0777).
  const info = await stat(abs).catch(() => undefined);
  if (process.getuid !== undefined && info !== undefined && (info.mode & STICKY) !== 0 && (info.mode & OTHERS_WRITE) !== 0) return 'a shared folder others may write to (as /tmp)';
  return undefined;
}

/** Whether integrityRootOf chose `root` as a skill folder's repository: it holds neither the lockfile nor the config. */
export async function isSkillRepository(root: string): Promise<boolean> {
  return !(await holdsLockfileOrConfig(root)) && !(await isTrackedByGit(root, DEFAULT_LOCKFILE));
}

/** Whether a folder holds the lockfile or the project config as a file. */
async function holdsLockfileOrConfig(dir: string): Promise<boolean> {
  const isFile = (name: string) => stat(path.join(dir, name)).then((info) => info.isFile(), () => false);
  return (await isFile(DEFAULT_LOCKFILE)) || (await isFile(CONFIG_FILE_NAME));
}

/** The home folder as named and as it really is (a symlinked HOME names another path than the folders walked). */
async function homeFolders(): Promise<string[]> {
  const home = path.resolve(os.homedir());
  return [...new Set([home, await realpath(home).catch(() => home)])];
}

/** True for a folder this user owns that no one else may write to (no owner to check on Windows). */
async function isOwnFolder(dir: string, uid: number | undefined): Promise<boolean> {
  if (uid === undefined) return true;
  const info = await stat(dir).catch(() => undefined);
  return info !== undefined && info.uid === uid && (info.mode & (OTHERS_WRITE | STICKY)) === 0;
}

/** True when `dir` is `home` or one of the folders above it (the search never goes there). */
function isHomeOrAbove(dir: string, home: string): boolean {
  const fold = (p: string) => (process.platform === 'win32' ? p.toLowerCase() : p);
  const [d, h] = [fold(dir), fold(home)];
  return h === d || h.startsWith(d.endsWith(path.sep) ? d : d + path.sep);
}
