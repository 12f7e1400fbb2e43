// The integrity settings of a workspace folder (agentImmune.integrity.*), as overrides over agent-immune.config.json.
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { IntegrityConfig } from '../../core/integrity/scope';
import { setting, userSetting } from '../settings';

/** Config overrides from the settings: strict when the setting is on, a lockfile path when one is set. */
export function integrityOverrides(folder: vscode.WorkspaceFolder): Partial<IntegrityConfig> {
  const lockfile = setting('integrity.lockfile', folder).trim();
  return { ...(setting('integrity.strict', folder) ? { strict: true } : {}), ...(lockfile ? { lockfile } : {}) };
}

/** Extra roots to verify besides the workspace folders (user setting; `~` is the home folder), as absolute paths. */
export function extraRoots(): string[] {
  const roots = userSetting('integrity.extraRoots');
  return [...new Set(roots.filter((r) => typeof r === 'string' && r.trim() !== '').map((r) => path.resolve(r.trim().replace(/^~(?=$|[\\/])/, os.homedir()))))];
}
