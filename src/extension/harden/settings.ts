// The effective hardening config of a workspace folder: agent-immune.config.json's "harden" section, with the
// editor settings agentImmune.harden.* winning where the user set them.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { globsRefused } from '../../core/globs';
import { PromptFileMatcher, resolveHardenConfig, type HardenConfig } from '../../core/harden/config';
import { HARDEN_CODES } from '../../core/harden/findings';
import { hardenLog } from '../../core/harden/messages';
import type { PromptFileKind } from '../../core/harden/types';
import { loadProjectConfig } from '../../node/config';
import { severitySetting } from '../ids';
import { explicitSetting } from '../settings';

/** The config and file matcher for one workspace folder (defaults when the config file is invalid: the error is logged). */
export async function hardenConfigFor(folder: vscode.WorkspaceFolder | undefined, output: vscode.LogOutputChannel): Promise<{ config: HardenConfig; matcher: PromptFileMatcher }> {
  let config: HardenConfig;
  try {
    const project = folder ? await loadProjectConfig(folder.uri.fsPath) : undefined;
    config = resolveHardenConfig(project?.sections.harden, 'agent-immune.config.json');
  } catch (error) {
    output.warn(hardenLog.defaults(errorMessage(error)));
    config = resolveHardenConfig(undefined);
  }
  // Workspace settings come with the repository too: a glob too complex to match in bounded time keeps the config's.
  for (const key of ['include', 'exclude'] as const) {
    const globs = explicitSetting(`harden.${key}`, folder);
    const refused = globs && globsRefused(globs);
    if (refused) output.warn(hardenLog.settingIgnored(`agentImmune.harden.${key}`, refused));
    else if (globs) config[key] = globs;
  }
  for (const code of HARDEN_CODES) {
    const level = explicitSetting(severitySetting(code), folder);
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
