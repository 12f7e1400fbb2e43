// The integrity settings of a workspace folder (agentImmune.integrity.*), as overrides over agent-immune.config.json.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IntegrityConfig } from '../../core/integrity/scope';
import { SettingKey } from '../ids';

/** True unless the user turned the integrity watcher off. */
export function integrityEnabled(folder: vscode.WorkspaceFolder): boolean {
  return vscode.workspace.getConfiguration(SettingKey.Section, folder).get<boolean>(SettingKey.IntegrityEnabled, true);
}

/** Config overrides from the settings: strict when the setting is on, a lockfile path when one is set. */
export function integrityOverrides(folder: vscode.WorkspaceFolder): Partial<IntegrityConfig> {
  const section = vscode.workspace.getConfiguration(SettingKey.Section, folder);
  const lockfile = section.get<string>(SettingKey.IntegrityLockfile, '').trim();
  return { ...(section.get<boolean>(SettingKey.IntegrityStrict, false) ? { strict: true } : {}), ...(lockfile ? { lockfile } : {}) };
}

/** Extra roots to verify besides the workspace folders (user setting; `~` is the home folder), as absolute paths. */
export function extraRoots(): string[] {
  const roots = vscode.workspace.getConfiguration(SettingKey.Section).get<string[]>(SettingKey.IntegrityExtraRoots, []);
  return [...new Set(roots.filter((r) => typeof r === 'string' && r.trim() !== '').map((r) => path.resolve(r.trim().replace(/^~(?=$|[\\/])/, os.homedir()))))];
}
