// Propagation monitoring in the editor: Information diagnostics (advisory) on the files agents persist to
// (monitor.globs: SKILL.md, SOUL.md, memory files...; the text of a skill's folder; a plugin's commands and agents), for
// open documents as they change and for files on disk.
import * as path from 'node:path';
import { globMatcher } from '../../core/globs';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { resolveMonitorConfig, SKILL_FILE, SKILL_TEXT, SKILL_TEXT_GLOB, type MonitorConfig } from '../../core/monitor/config';
import { describeMonitorFinding, MONITOR_FINDINGS } from '../../core/monitor/findings';
import { monitorLog } from '../../core/monitor/messages';
import { propagationRequest } from '../../core/monitor/propagationRequest';
import type { MonitorFinding } from '../../core/monitor/types';
import { viralPersona } from '../../core/monitor/viralPersona';
import { PLUGIN_MANIFEST, PLUGIN_PROMPT_FILE, PLUGIN_PROMPT_FOLDERS, pluginFolderOf, pluginFoldersAbove } from '../../core/promptFiles';
import { loadProjectConfig } from '../../node/config';
import { decodeText } from '../../node/monitor/collect';
import { findingDiagnostic } from '../diagnostics';
import { holdsPluginManifest } from '../pluginManifest';
import { DocumentChecker } from '../documentChecker';
import { affects, setting } from '../settings';

/** Most files read from disk on a workspace pass; open documents are always checked. */
const MAX_FILES = 2000;
/** A plugin's prompt files, from its folder. */
const PLUGIN_PROMPT_GLOB = `{${PLUGIN_PROMPT_FOLDERS.join(',')}}/**/*.md`;
/** Skill and plugin folders searched for the files loaded with them at once on a workspace pass. */
const SEARCHES_AT_ONCE = 16;

/** A folder's monitor config and its glob matchers. */
interface FolderMonitor {
  config: MonitorConfig;
  matches(relative: string): boolean;
  /** Whether a path is a skill's other text (SKILL_TEXT, not ignored): read when a folder above it holds a SKILL.md the globs take. */
  maySkillText(relative: string): boolean;
  /** Whether the globs take the SKILL.md of this folder. */
  takesSkill(folderRelative: string): boolean;
  /** Whether a path may be a plugin's prompt (Markdown, not ignored): read when the folder above its commands/ or agents/ holds a manifest the globs take. */
  mayPluginPrompt(relative: string): boolean;
  /** Whether the globs take the plugin manifest of this folder. */
  takesPlugin(folderRelative: string): boolean;
}

/** The per-file signals (viralPersona, propagationRequest) over one text, as the core reports them. */
export function monitorText(subject: string, text: string, config: MonitorConfig): MonitorFinding[] {
  const document = { subject, text };
  const findings: MonitorFinding[] = [];
  if (config.signals.viralPersona) {
    const persona = viralPersona(document, config);
    if (persona) findings.push(persona);
  }
  if (config.signals.propagationRequest) {
    const request = propagationRequest(document);
    if (request) findings.push(request);
  }
  return findings;
}

/** Owns the monitor checker and the per-folder configs. */
export class MonitorDiagnostics implements vscode.Disposable {
  private readonly folders = new Map<string, Promise<FolderMonitor>>();
  private readonly checker: DocumentChecker<MonitorFinding[]>;

  constructor(private readonly output: vscode.LogOutputChannel) {
    this.checker = new DocumentChecker('monitor', 'Propagation monitor', (uri, document) => this.check(uri, document), output);
  }

  /** Subscribes to document, file and configuration events, then checks open documents and files on disk. */
  register(subscriptions: vscode.Disposable[]): void {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    subscriptions.push(
      this,
      watcher,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d.uri, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri, 300)),
      watcher.onDidCreate((uri) => {
        this.schedule(uri, 300);
        void this.scheduleLoadedWith(uri, 300);
      }),
      watcher.onDidChange((uri) => this.schedule(uri, 300)),
      watcher.onDidDelete((uri) => {
        this.checker.forget(uri);
        // A skill's other text (a plugin's prompts) is no longer read once its SKILL.md (manifest) is gone: check it again.
        void this.scheduleLoadedWith(uri, 300);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (path.basename(d.uri.fsPath) === 'agent-immune.config.json') void this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'monitor.enabled')) void this.reset();
      }),
    );
    void this.reset();
  }

  /** Drops cached configs and diagnostics, re-checks open documents and the persisted files on disk. */
  async reset(): Promise<void> {
    this.folders.clear();
    this.checker.clear();
    for (const document of vscode.workspace.textDocuments) this.schedule(document.uri, 0);
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      try {
        const { config } = await this.folderMonitor(folder);
        if (!setting('monitor.enabled', folder)) continue;
        // One search per glob: VS Code globs do not nest brace groups, and the defaults use them ("*.{md,txt}").
        const exclude = config.ignore.length ? new vscode.RelativePattern(folder, `{${config.ignore.join(',')}}`) : undefined;
        for (const glob of config.globs) {
          const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), exclude, MAX_FILES);
          for (const uri of found) this.schedule(uri, 0);
          for (let i = 0; i < found.length; i += SEARCHES_AT_ONCE) await Promise.all(found.slice(i, i + SEARCHES_AT_ONCE).map((uri) => this.scheduleLoadedWith(uri, 0)));
        }
      } catch (error) {
        this.output.error(monitorLog.cannotList(folder.name, errorMessage(error)));
      }
    }
  }

  dispose(): void {
    this.checker.dispose();
  }

  private folderMonitor(folder: vscode.WorkspaceFolder): Promise<FolderMonitor> {
    const key = folder.uri.toString();
    let entry = this.folders.get(key);
    if (!entry) {
      entry = (async () => {
        let config: MonitorConfig;
        try {
          config = resolveMonitorConfig((await loadProjectConfig(folder.uri.fsPath)).sections.monitor, 'agent-immune.config.json');
        } catch (error) {
          this.output.warn(monitorLog.defaults(errorMessage(error)));
          config = resolveMonitorConfig(undefined);
        }
        const included = globMatcher(config.globs, { nocase: true });
        const ignored = globMatcher(config.ignore, { nocase: true });
        return {
          config,
          matches: (relative: string) => included(relative) && !ignored(relative),
          maySkillText: (relative: string) => SKILL_TEXT.test(relative) && !ignored(relative),
          takesSkill: (folderRelative: string) => included(folderRelative ? `${folderRelative}/SKILL.md` : 'SKILL.md'),
          mayPluginPrompt: (relative: string) => PLUGIN_PROMPT_FILE.test(relative) && !ignored(relative),
          takesPlugin: (folderRelative: string) => included(folderRelative ? `${folderRelative}/${PLUGIN_MANIFEST}` : PLUGIN_MANIFEST),
        };
      })();
      this.folders.set(key, entry);
    }
    return entry;
  }

  /**
   * For a SKILL.md or a plugin manifest, checks the files loaded with it: the other text of the skill's folder, the
   * plugin's commands and agents (the check itself applies the globs).
   */
  private async scheduleLoadedWith(uri: vscode.Uri, delayMs: number): Promise<void> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return;
    const relative = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    const skill = SKILL_FILE.test(path.basename(uri.fsPath));
    if (!skill && pluginFolderOf(relative) === undefined) return;
    const { config } = await this.folderMonitor(folder);
    const exclude = config.ignore.length ? new vscode.RelativePattern(folder, `{${config.ignore.join(',')}}`) : undefined;
    const loaded = skill ? new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), SKILL_TEXT_GLOB) : new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..', '..'), PLUGIN_PROMPT_GLOB);
    for (const text of await vscode.workspace.findFiles(loaded, exclude, MAX_FILES)) this.schedule(text, delayMs);
  }

  /** Whether a file is a plugin's prompt: the folder above its commands/ or agents/ holds a manifest the globs take. */
  private async inPlugin(folder: vscode.WorkspaceFolder, relative: string, monitor: FolderMonitor): Promise<boolean> {
    if (!monitor.mayPluginPrompt(relative)) return false;
    for (const plugin of pluginFoldersAbove(relative)) {
      if (monitor.takesPlugin(plugin) && (await holdsPluginManifest(vscode.Uri.joinPath(folder.uri, plugin)))) return true;
    }
    return false;
  }

  /** Whether a file is a skill's other text: a folder above it, in the workspace folder, holds a SKILL.md the globs take. */
  private async inSkill(folder: vscode.WorkspaceFolder, relative: string, monitor: FolderMonitor): Promise<boolean> {
    if (!monitor.maySkillText(relative)) return false;
    for (let dir = path.posix.dirname(relative); ; dir = path.posix.dirname(dir)) {
      const at = dir === '.' ? '' : dir;
      if (monitor.takesSkill(at)) {
        // Named exactly SKILL.md, as scan reads it: on a case-insensitive disk the stat alone also finds a skill.md.
        const skill = vscode.Uri.joinPath(folder.uri, at);
        const found = await vscode.workspace.fs.stat(vscode.Uri.joinPath(skill, 'SKILL.md')).then((s) => (s.type & vscode.FileType.File) !== 0, () => false);
        if (found && (await vscode.workspace.fs.readDirectory(skill).then((entries) => entries.some(([name]) => SKILL_FILE.test(name)), () => false))) return true;
      }
      if (at === '') return false;
    }
  }

  private schedule(uri: vscode.Uri, delayMs: number): void {
    if (uri.scheme === 'file' || uri.scheme === 'untitled' || uri.scheme === 'vscode-remote') this.checker.schedule(uri, delayMs);
  }

  private async check(uri: vscode.Uri, open: vscode.TextDocument | undefined) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const monitor = await this.folderMonitor(folder);
    const relative = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    if (!setting('monitor.enabled', folder) || !(monitor.matches(relative) || (await this.inSkill(folder, relative, monitor)) || (await this.inPlugin(folder, relative, monitor)))) return undefined;
    // A file on disk is read as scan reads it (UTF-16 too; binary is left alone).
    const text = open ? open.getText() : decodeText(await vscode.workspace.fs.readFile(uri));
    if (text === undefined) return undefined;
    const findings = monitorText(relative, text, monitor.config);
    return { diagnostics: findings.map((f) => toDiagnostic(f, text)), value: findings };
  }
}

/** A diagnostic over the evidence span. */
function toDiagnostic(finding: MonitorFinding, text: string): vscode.Diagnostic {
  const range = new vscode.Range(positionAt(text, finding.evidence.start), positionAt(text, finding.evidence.end));
  const spec = MONITOR_FINDINGS[finding.code];
  return findingDiagnostic(range, describeMonitorFinding(finding), spec.severity, finding.code, spec.docs);
}

function positionAt(text: string, offset: number): vscode.Position {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return new vscode.Position(line, offset - lineStart);
}
