// Hardening diagnostics: re-checks prompt files as they open and change (throttled, stale results dropped) and keeps
// each document's findings, with their fixes, for the code actions.
import * as vscode from 'vscode';
import { analyzeProject } from '../../core/harden/analyze';
import type { HardenConfig, PromptFileMatcher } from '../../core/harden/config';
import { describeFinding, HARDEN_FINDINGS } from '../../core/harden/findings';
import type { HardenFinding, PromptFileKind, PromptSite } from '../../core/harden/types';
import { SEVERITY } from '../diagnostics';
import { SettingKey } from '../ids';
import { FolderSources } from './folderSources';
import { documentKind, hardenConfigFor, hardenEnabled } from './settings';

/** Source shown on every hardening diagnostic. */
export const DIAGNOSTIC_SOURCE = 'Agent Immune';

/** A document's findings at one version, and the prompts found in it. */
export interface DocumentFindings {
  version: number;
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

/** Owns the diagnostic collection and the per-document findings. */
export class HardenDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('agent-immune-harden');
  private readonly results = new Map<string, DocumentFindings>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();
  private readonly configs = new Map<string, Promise<{ config: HardenConfig; matcher: PromptFileMatcher }>>();
  private readonly sources = new Map<string, Promise<FolderSources>>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after a document's diagnostics were published. */
  readonly onDidUpdate = this.emitter.event;

  constructor(private readonly output: vscode.LogOutputChannel) {}

  /** Subscribes to document and configuration events and checks the documents already open. */
  register(subscriptions: vscode.Disposable[]): void {
    subscriptions.push(
      this,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 300)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.uri.path.endsWith('/agent-immune.config.json')) this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SettingKey.Section}.harden`)) this.reset();
      }),
    );
    this.reset();
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
   * The files of the folder of `uri` as the analysis reads them (cached; a change on disk re-checks the open
   * documents of the folder, whose findings may depend on it).
   */
  sourcesFor(folder: vscode.WorkspaceFolder): Promise<FolderSources> {
    const key = folder.uri.toString();
    let entry = this.sources.get(key);
    if (!entry) {
      entry = this.configFor(folder.uri).then(({ matcher }) => {
        const sources = new FolderSources(folder, matcher);
        sources.onDidChange(() => {
          for (const document of vscode.workspace.textDocuments) if (vscode.workspace.getWorkspaceFolder(document.uri) === folder) this.schedule(document, 300);
        });
        return sources;
      });
      this.sources.set(key, entry);
    }
    return entry;
  }

  /** Findings of the document at its current version (computed now when missing or stale). */
  async findingsFor(document: vscode.TextDocument): Promise<DocumentFindings | undefined> {
    const known = this.results.get(document.uri.toString());
    if (known && known.version === document.version) return known;
    return this.check(document);
  }

  /** Drops cached configs and re-checks every open document. */
  reset(): void {
    this.configs.clear();
    for (const entry of this.sources.values()) void entry.then((s) => s.dispose());
    this.sources.clear();
    this.collection.clear();
    this.results.clear();
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(document).catch((error: unknown) => this.output.error(`Hardening check of ${document.uri.fsPath} failed: ${(error as Error).message}`));
      }, delayMs),
    );
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.results.delete(key);
    this.collection.delete(uri);
  }

  private async check(document: vscode.TextDocument): Promise<DocumentFindings | undefined> {
    const key = document.uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const { config, matcher } = await this.configFor(document.uri);
    const kind = documentKind(document, folder, matcher);
    if (this.generations.get(key) !== generation || document.isClosed) return undefined;
    if (!kind || !hardenEnabled(folder)) {
      this.results.delete(key);
      this.collection.delete(document.uri);
      return undefined;
    }
    const version = document.version;
    const sources = await this.sourcesFor(folder!);
    const files = await sources.files();
    if (this.generations.get(key) !== generation || document.isClosed || document.version !== version) return undefined;
    const rel = sources.pathOf(document.uri);
    const analysis = analyzeProject(files, config, (p) => p === rel, sources.cache)[0];
    const result = { version, kind, findings: analysis?.findings ?? [], prompts: analysis?.prompts ?? [] };
    const findings = result.findings;
    this.results.set(key, result);
    this.collection.set(
      document.uri,
      findings.map((finding) => {
        const diagnostic = new vscode.Diagnostic(findingRange(document, finding), describeFinding(finding), SEVERITY[finding.severity]);
        diagnostic.source = DIAGNOSTIC_SOURCE;
        diagnostic.code = finding.code;
        return diagnostic;
      }),
    );
    this.emitter.fire(document.uri);
    return result;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const entry of this.sources.values()) void entry.then((s) => s.dispose());
    this.collection.dispose();
    this.emitter.dispose();
  }
}
