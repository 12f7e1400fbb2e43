// Whether a folder is a Claude Code plugin, read as Claude Code finds one: a `.claude-plugin` folder (named exactly)
// holding `plugin.json` (a file, or a link, which is never followed).
import type { Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { PLUGIN_MANIFEST } from '../core/promptFiles';

const MANIFEST_FOLDER = PLUGIN_MANIFEST.split('/')[0];

/** Whether the folder `dir`, whose listing is `entries`, holds a plugin manifest. */
export async function isPluginFolder(dir: string, entries: readonly Dirent[]): Promise<boolean> {
  if (!entries.some((entry) => entry.isDirectory() && entry.name === MANIFEST_FOLDER)) return false;
  return lstat(path.join(dir, PLUGIN_MANIFEST)).then((info) => info.isFile() || info.isSymbolicLink(), () => false);
}
