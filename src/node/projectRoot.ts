// Finds the project a scanned path belongs to, so config is read from and logs are written to that project, not to
// whatever folder the user happens to stand in.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME } from '../core/config';

/** Files whose folder marks a project root. */
const ROOT_MARKERS = [CONFIG_FILE_NAME, 'agent-immune.lock', '.git'];

/** The nearest folder at or above `target` (a file or folder) holding a root marker; else the target's own folder. */
export async function findProjectRoot(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const start = (await stat(absolute)).isDirectory() ? absolute : path.dirname(absolute);
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const marker of ROOT_MARKERS) {
      if (await stat(path.join(dir, marker)).then(() => true, () => false)) return dir;
    }
    if (path.dirname(dir) === dir) return start;
  }
}
