// The effective hardening config of a workspace folder: agent-immune.config.json's "harden" section, with the
// editor settings agentImmune.harden.* winning where the user set them.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveHardenConfig, type HardenConfig } from '../../core/harden/config';
import type { Severity } from '../../core/findings';
import type { HardenCode, PromptFileKind } from '../../core/harden/types';
import { PromptFileMatcher } from '../../core/harden/config';
import { loadProjectConfig } from '../../node/config';
import { SettingKey } from '../ids';

const SEVERITY_SETTINGS: Record<HardenCode, SettingKey> = {
  'missing-immunity-warning': SettingKey.HardenSeverityMissingWarning,
  'unbounded-delegation': SettingKey.HardenSeverityUnboundedDelegation,
};

function explicit<T>(section: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const inspected = section.inspect<T>(key);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}

/** The config and file matcher for one workspace folder (defaults when the config file is invalid: the error is logged). */
export async function hardenConfigFor(folder: vscode.WorkspaceFolder | undefined, output: vscode.LogOutputChannel): Promise<{ config: HardenConfig; matcher: PromptFileMatcher }> {
  let config: HardenConfig;
  try {
    const project = folder ? await loadProjectConfig(folder.uri.fsPath) : undefined;
    config = resolveHardenConfig(project?.sections.harden, 'agent-immune.config.json');
  } catch (error) {
    output.warn(`Hardening uses its defaults: ${(error as Error).message}`);
    config = resolveHardenConfig(undefined);
  }
  const section = vscode.workspace.getConfiguration(SettingKey.Section, folder);
  const include = explicit<string[]>(section, SettingKey.HardenInclude);
  const exclude = explicit<string[]>(section, SettingKey.HardenExclude);
  if (include) config.include = include;
  if (exclude) config.exclude = exclude;
  for (const [code, key] of Object.entries(SEVERITY_SETTINGS) as [HardenCode, SettingKey][]) {
    const level = explicit<Severity>(section, key);
    if (level) config.severity[code] = level;
  }
  return { config, matcher: new PromptFileMatcher(config) };
}

/** The prompt kind of a document in a folder, or undefined when the globs leave it out (or it is outside every folder). */
export function documentKind(document: vscode.TextDocument, folder: vscode.WorkspaceFolder | undefined, matcher: PromptFileMatcher): PromptFileKind | undefined {
  if (document.uri.scheme !== 'file' || !folder) return undefined;
  const relative = path.relative(folder.uri.fsPath, document.uri.fsPath).split(path.sep).join('/');
  return relative.startsWith('..') ? undefined : matcher.kindOf(relative);
}

/** True when prompt hardening diagnostics are on for the folder. */
export function hardenEnabled(folder: vscode.WorkspaceFolder | undefined): boolean {
  return vscode.workspace.getConfiguration(SettingKey.Section, folder).get<boolean>(SettingKey.HardenEnabled, true);
}
