// Hardening diagnostics: re-checks prompt files as they open and change (debounced, stale results dropped by the
// shared DocumentChecker) and keeps each document's findings, with their fixes, for the code actions. A document is
// analysed with the rest of its workspace folder (imports, callers, state keys), the same project the CLI reads.
import * as vscode from 'vscode';
import { analyzeProject } from '../../core/harden/analyze';
import type { HardenConfig, PromptFileMatcher } from '../../core/harden/config';
import { describeFinding, HARDEN_FINDINGS, NOT_CHECKED_CODE } from '../../core/harden/findings';
import { hardenNotice } from '../../core/harden/messages';
import type { FileAnalysis, HardenFinding, PromptFileKind, PromptSite } from '../../core/harden/types';
import { findingDiagnostic } from '../diagnostics';
import { DocumentChecker } from '../documentChecker';
import { affects, setting } from '../settings';
import { FolderSources } from './folderSources';
import { documentKind, hardenConfigFor } from './settings';
import { PLUGIN_MANIFEST, PLUGIN_SUBAGENT_FOLDER, pluginFoldersAbove } from '../../core/promptFiles';
import { holdsPluginManifest } from '../pluginManifest';
import { mayBeReadAtRunTime } from '../../node/harden/scan';

/** A document's findings at the version they were computed for, and the prompts found in it. */
export interface DocumentFindings {
  kind: PromptFileKind;
  findings: HardenFinding[];
  prompts: PromptSite[];
}

/** The range a finding is shown on: the interpolation, the literal(s), or the first line of a Markdown prompt. */
export function findingRange(document: vscode.TextDocument, finding: HardenFinding): vscode.Range {
  const start = document.positionAt(finding.start);
  if (finding.site.kind === 'markdown' && HARDEN_FINDINGS[finding.code].attach === 'prompt') return document.lineAt(start.line).range;
  return new vscode.Range(start, document.positionAt(finding.end));
}

/** The diagnostic of one finding. */
function toDiagnostic(document: vscode.TextDocument, finding: HardenFinding): vscode.Diagnostic {
  return findingDiagnostic(findingRange(document, finding), describeFinding(finding), finding.severity, finding.code, HARDEN_FINDINGS[finding.code].docs);
}

/** Information diagnostics on what the analysis could not check: each unreadable prompt sink, or the whole file. */
function notCheckedDiagnostics(document: vscode.TextDocument, analysis: FileAnalysis): vscode.Diagnostic[] {
  const at = (range: vscode.Range, message: string) => findingDiagnostic(range, message, 'information', NOT_CHECKED_CODE, 'hardening');
  if (analysis.error) return [at(document.lineAt(0).range, hardenNotice.fileNotChecked(analysis.error))];
  return analysis.unread.map((u) => {
    const start = document.positionAt(u.start);
    return at(new vscode.Range(start, document.lineAt(start.line).range.end), hardenNotice.sinkNotChecked(u.anchor, u.reason));
  });
}

/** The kinds of file whose code may read a prompt file at run time. */
const CODE_KINDS: ReadonlySet<PromptFileKind> = new Set(['python', 'typescript', 'notebook']);

/**
 * The analysis of one document (`rel`) with the rest of its folder, and with the prompt files the code reads at run
 * time, as the CLI reads them. A document the globs leave out (`kind` undefined) is a Markdown prompt file when the
 * code reads it into a system prompt (`system_prompt.md` beside its agent): only the files that name it are analysed
 * to know. Undefined when the document is no prompt file.
 */
async function analyseDocument(
  sources: FolderSources,
  config: HardenConfig,
  rel: string,
  kind: PromptFileKind | undefined,
): Promise<{ kind: PromptFileKind; analysis: FileAnalysis | undefined } | undefined> {
  // Any other document (a JSON or CSS file) is no prompt file: the folder is not even read for it.
  if (!kind && !mayBeReadAtRunTime(rel)) return undefined;
  const files = await sources.files();
  let analyses: FileAnalysis[];
  if (kind) analyses = analyzeProject(files, config, (p) => p === rel, sources.cache);
  else {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    const readers = new Set(files.filter((f) => CODE_KINDS.has(f.kind) && f.text.includes(name)).map((f) => f.path));
    if (readers.size === 0) return undefined;
    analyses = analyzeProject(files, config, (p) => readers.has(p), sources.cache);
  }
  const extra = await sources.readAtRunTime(files, analyses);
  if (!kind && !extra.some((f) => f.path === rel)) return undefined;
  const final = extra.length > 0 ? analyzeProject([...files, ...extra], config, (p) => p === rel, sources.cache) : analyses;
  return { kind: kind ?? 'markdown', analysis: final.find((a) => a.path === rel) };
}

/** How often the plugin manifests the open documents' checks looked for are looked for again. */
const MANIFEST_POLL_MS = 2_000;

/** Owns the hardening checker and the per-folder configs. */
export class HardenDiagnostics implements vscode.Disposable {
  private readonly configs = new Map<string, Promise<{ config: HardenConfig; matcher: PromptFileMatcher }>>();
  private readonly sources = new Map<string, Promise<FolderSources>>();
  /**
   * Whether each plugin folder an open document's check looked in held its manifest then. The watcher's event for a
   * manifest made or deleted is not dependable (the test host let a deletion pass unreported in two CI runs of ten), so
   * they are looked for again every MANIFEST_POLL_MS, and a change re-checks.
   */
  private readonly manifests = new Map<string, boolean>();
  private manifestPoll: ReturnType<typeof setInterval> | undefined;
  private readonly checker: DocumentChecker<DocumentFindings>;

  constructor(private readonly output: vscode.LogOutputChannel) {
    this.checker = new DocumentChecker('harden', 'Hardening', (uri, document) => this.check(uri, document), output);
  }

  /** Subscribes to document and configuration events and checks the documents already open. */
  register(subscriptions: vscode.Disposable[]): void {
    // A plugin manifest made or deleted (or its folder, which deletes it in one event) makes or unmakes prompt files of
    // the plugin's subagents: start afresh.
    const [manifestFolder] = PLUGIN_MANIFEST.split('/');
    const manifests = vscode.workspace.createFileSystemWatcher(`**/${PLUGIN_MANIFEST}`);
    const manifestFolders = vscode.workspace.createFileSystemWatcher(`**/${manifestFolder}`, true, true, false);
    subscriptions.push(
      this,
      manifests,
      manifestFolders,
      manifests.onDidCreate(() => this.reset()),
      manifests.onDidDelete(() => this.reset()),
      manifestFolders.onDidDelete(() => this.reset()),
      { dispose: () => clearInterval(this.manifestPoll) },
      vscode.workspace.onDidOpenTextDocument((d) => this.checker.schedule(d.uri, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.checker.schedule(e.document.uri, 300)),
      vscode.workspace.onDidCloseTextDocument((d) => this.checker.forget(d.uri)),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.uri.path.endsWith('/agent-immune.config.json')) this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'harden')) this.reset();
      }),
    );
    this.reset();
    this.manifestPoll = setInterval(() => void this.pollManifests(), MANIFEST_POLL_MS);
  }

  /** Re-checks every open document when a plugin manifest a check looked for was made or deleted since. */
  private async pollManifests(): Promise<void> {
    for (const [plugin, held] of this.manifests) {
      if ((await holdsPluginManifest(vscode.Uri.parse(plugin))) !== held) return this.reset();
    }
  }

  /** The config and matcher for the folder of `uri` (cached until settings or the config file change). */
  configFor(uri: vscode.Uri): Promise<{ config: HardenConfig; matcher: PromptFileMatcher }> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const key = folder?.uri.toString() ?? '';
    let entry = this.configs.get(key);
    if (!entry) {
      entry = hardenConfigFor(folder, this.output);
      this.configs.set(key, entry);
    }
    return entry;
  }

  /**
   * The files of a workspace folder as the analysis reads them (cached; a change on disk re-checks the folder's
   * open documents, whose findings may depend on it).
   */
  sourcesFor(folder: vscode.WorkspaceFolder): Promise<FolderSources> {
    const key = folder.uri.toString();
    let entry = this.sources.get(key);
    if (!entry) {
      entry = this.configFor(folder.uri).then(({ matcher }) => {
        const sources = new FolderSources(folder, matcher);
        sources.onDidChange(() => {
          for (const document of vscode.workspace.textDocuments) if (vscode.workspace.getWorkspaceFolder(document.uri) === folder) this.checker.schedule(document.uri, 300);
        });
        return sources;
      });
      this.sources.set(key, entry);
    }
    return entry;
  }

  /** Findings of the document at its current version (computed now when missing or stale). */
  findingsFor(document: vscode.TextDocument): Promise<DocumentFindings | undefined> {
    return this.checker.valueFor(document);
  }

  /** Drops cached configs and re-checks every open document. */
  reset(): void {
    this.configs.clear();
    this.manifests.clear();
    for (const entry of this.sources.values()) void entry.then((s) => s.dispose());
    this.sources.clear();
    this.checker.clear();
    for (const document of vscode.workspace.textDocuments) this.checker.schedule(document.uri, 0);
  }

  private async check(uri: vscode.Uri, document: vscode.TextDocument | undefined) {
    if (!document) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const { config, matcher } = await this.configFor(uri);
    if (!folder || !setting('harden.enabled', folder)) return undefined;
    const sources = await this.sourcesFor(folder);
    // A plugin's subagent is a prompt file: its plugin, made since the folder was walked perhaps, is looked for on disk.
    for (const plugin of pluginFoldersAbove(sources.pathOf(uri), [PLUGIN_SUBAGENT_FOLDER])) {
      const pluginUri = vscode.Uri.joinPath(folder.uri, plugin);
      const held = await holdsPluginManifest(pluginUri);
      this.manifests.set(pluginUri.toString(), held);
      if (held) matcher.addPlugin(plugin);
    }
    const checked = await analyseDocument(sources, config, sources.pathOf(uri), documentKind(document, folder, matcher));
    if (!checked) return undefined;
    const { kind, analysis } = checked;
    const findings = analysis?.findings ?? [];
    const diagnostics = [...findings.map((finding) => toDiagnostic(document, finding)), ...(analysis ? notCheckedDiagnostics(document, analysis) : [])];
    return { diagnostics, value: { kind, findings, prompts: analysis?.prompts ?? [] } };
  }

  dispose(): void {
    for (const entry of this.sources.values()) void entry.then((s) => s.dispose());
    this.checker.dispose();
  }
}
