// Which integrity workspace a folder belongs to, for the commands run without --root (as git finds its repository):
// the nearest folder at or above it that holds the lockfile or the project config, or where git tracks a lockfile that
// is gone (a deleted lockfile is no reason to check against another). A bare .git is no marker (a dotfiles repository
// in the home folder would make every project under it one workspace); the search stops below the home folder and at a
// folder another user owns (their lockfile must not vouch for this user's files).
import { stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG_FILE_NAME } from '../../core/config';
import { DEFAULT_LOCKFILE } from '../../core/integrity/types';
import { isTrackedByGit } from './gitBlob';

const isFile = (file: string) => stat(file).then((info) => info.isFile(), () => false);

/** The integrity workspace `cwd` is in (above); `cwd` itself when no folder up to the stop marks one. */
export async function integrityRootOf(cwd: string): Promise<string> {
  const start = path.resolve(cwd);
  const home = path.resolve(os.homedir());
  const uid = process.getuid?.();
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (dir !== start) {
      if (isHomeOrAbove(dir, home)) return start;
      const owner = await stat(dir).then((info) => info.uid, () => undefined);
      if (uid !== undefined && owner !== uid) return start;
    }
    if ((await isFile(path.join(dir, DEFAULT_LOCKFILE))) || (await isFile(path.join(dir, CONFIG_FILE_NAME)))) return dir;
    if (await isTrackedByGit(dir, DEFAULT_LOCKFILE)) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/** True when `dir` is `home` or one of the folders above it (the search never goes there). */
function isHomeOrAbove(dir: string, home: string): boolean {
  return home === dir || home.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}
