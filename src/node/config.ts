// Loads the project config file (agent-immune.config.json) from disk.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME, defaultConfig, resolveConfig, type ProjectConfig } from '../core/config';
import { InputError } from '../core/errors';

/** Reads `file` if given, else `<root>/agent-immune.config.json` when it exists, else the defaults. */
export async function loadProjectConfig(root: string, file?: string): Promise<ProjectConfig> {
  const target = file ?? path.join(root, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(target, 'utf8');
  } catch (error) {
    if (!file && (error as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig();
    throw new InputError('invalid-config', `cannot read config: ${(error as Error).message}`, target);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InputError('invalid-config', `config is not valid JSON (${(error as Error).message})`, target);
  }
  return resolveConfig(raw, target);
}
