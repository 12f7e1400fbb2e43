// Loads the project config file (agent-immune.config.json) from disk. The root's own config is read through the
// workspace file layer (a symlink out of the root is refused); a file the user names is theirs to choose.
import { readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME, configWarnings, defaultConfig, resolveConfig, type ProjectConfig } from '../core/config';
import { errorMessage, InputError } from '../core/errors';
import { resolveHardenConfig } from '../core/harden/config';
import { resolveIntegrityConfig } from '../core/integrity/scope';
import { parseStrictJson } from '../core/integrity/strictJson';
import { resolveMonitorConfig } from '../core/monitor/config';
import { readWorkspaceFile, UnsafePathError } from './workspaceFs';

/** The largest config file read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads `file` if given, else `<root>/agent-immune.config.json` when it exists, else the defaults. */
export async function loadProjectConfig(root: string, file?: string): Promise<ProjectConfig> {
  // The root's own config is looked for under its real path: a root reached through a symlink (macOS /var) holds it too.
  const rootReal = file ? root : await realpath(root).catch(() => root);
  const target = file ?? path.join(rootReal, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = file ? await readFile(file, 'utf8') : (await readWorkspaceFile(rootReal, target, MAX_CONFIG_BYTES)).toString('utf8');
  } catch (error) {
    if (!file && (error as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig();
    if (error instanceof UnsafePathError) throw new InputError('invalid-config', `cannot read config: ${error.message}`, target);
    throw new InputError('invalid-config', `cannot read config: ${errorMessage(error)}`, target);
  }
  let raw: unknown;
  try {
    // A byte-order mark (Windows editors write one) is no JSON error: it was refused as "line 1: not JSON".
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new InputError('invalid-config', `config is not valid JSON (${jsonErrorWhere(text)}); fix the file or remove it`, target);
  }
  return resolveConfig(raw, target);
}

/**
 * The project config with every feature's section checked, as the CLI reads it: a bad key or value fails whichever
 * command reads the file, not only the feature it belongs to, and `warn` hears what is valid but cannot be meant (a glob
 * that never matches). (The editor checks each section where it is used, so a bad harden section cannot switch its
 * drift checks off.)
 */
export async function loadCheckedConfig(root: string, file: string | undefined, warn: (line: string) => void): Promise<ProjectConfig> {
  const config = await loadProjectConfig(root, file);
  const where = file ?? path.join(root, CONFIG_FILE_NAME);
  resolveIntegrityConfig(config.sections.integrity, where);
  resolveHardenConfig(config.sections.harden, where);
  resolveMonitorConfig(config.sections.monitor, where);
  for (const warning of configWarnings(config)) warn(`warning: ${path.basename(where)} ${warning}`);
  return config;
}

/** Where JSON parsing failed, by line, without echoing the file's text (JSON.parse's message quotes it). */
function jsonErrorWhere(text: string): string {
  const parsed = parseStrictJson(text);
  if (parsed.ok) return 'not JSON';
  const why = { truncated: 'the file ends too early', 'too-deep': 'nested too deeply', 'duplicate-key': 'not JSON', 'not-json': 'not JSON' }[parsed.error.reason];
  return `line ${parsed.error.line}: ${why}`;
}
