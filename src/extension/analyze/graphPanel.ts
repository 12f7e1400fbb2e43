// The infection-graph webview panel for one run: strict CSP shell, typed messages both ways, exports (HTML report, PNG);
// for a trace file, re-analysis (debounced, in a worker) while open when the file changes. A live run's panel is fed
// by Watch Live Runs instead. Owns its disposables (webview sample).
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GraphViewPayload } from '../../core/graphview/types';
import { errorMessage } from '../../core/errors';
import { analyzeLog, analyzeNotice } from '../../core/guard/messages';
import { computeLayout, reportHtmlFor, runAnalysisJob, topologyKey } from '../../node/engine';
import type { HostMessage } from '../../webview/protocol';
import { ViewId } from '../ids';
import { showError } from '../notify';
import type { Services } from '../services';
import { handlePageMessage } from './pageMessages';
import { panelHtml } from './panelHtml';
import { publishTraceDiagnostics } from './traceDiagnostics';
import { workerScript } from './worker';

/** Delay after the last change of the trace file before re-analysing. */
export const REANALYSE_DEBOUNCE_MS = 600;

/** What a panel needs from the command that opened it. */
export interface PanelContext {
  services: Services;
  diagnostics: vscode.DiagnosticCollection;
  /** Folder whose config applies to the trace. */
  root: string;
  /** The run shown, when the user chose one of a file's several (each chosen run gets its own panel). */
  episode?: number;
}

/** What a panel shows besides the payload: its tab title, where Save proposes to write, where line links go. */
export interface PanelSubject {
  /** One panel per key. */
  key: string;
  title: string;
  /** The path, without extension, that Save as PNG / HTML proposes. */
  saveBase: string;
  /** Opens the run's trace at a 1-based line (the side panel's links to an output). */
  openLine(line: number): Promise<void>;
}

/** The open panels of a feature, one per trace file or live run. */
export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();

  /** Shows (or reuses) the panel for the trace file `uri` (and its chosen run) with a fresh payload; it re-analyses the file when it changes. */
  show(context: PanelContext, uri: vscode.Uri, payload: GraphViewPayload): GraphPanel {
    const { episode } = context;
    const subject: PanelSubject = {
      key: episode === undefined ? uri.toString() : `${uri.toString()}#${episode}`,
      title: analyzeNotice.panelTitle(path.basename(uri.fsPath), episode === undefined ? undefined : payload.analysis.run),
      saveBase: uri.fsPath.replace(/\.[^./\\]+$/, '') + (episode === undefined ? '' : `.run${episode}`),
      openLine: (line) => openTraceLine(uri, line),
    };
    return this.showSubject(context.services, subject, payload, { context, uri });
  }

  /** Shows (or reuses) the panel for `subject` with a fresh payload; the caller sends it newer payloads (update). */
  showSubject(services: Services, subject: PanelSubject, payload: GraphViewPayload, file?: TraceFile): GraphPanel {
    const existing = this.panels.get(subject.key);
    if (existing) {
      existing.update(payload);
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const extensionUri = services.context.extensionUri;
    const panel = vscode.window.createWebviewPanel(ViewId.GraphPanel, subject.title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableCommandUris: false,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    const created = new GraphPanel(panel, services, subject, payload, () => this.panels.delete(subject.key), file);
    this.panels.set(subject.key, created);
    return created;
  }

  /** Closes every open panel (extension deactivation). */
  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
  }
}

/** The trace file behind a panel, re-analysed when it changes. */
interface TraceFile {
  context: PanelContext;
  uri: vscode.Uri;
}

/** Opens a trace file at a 1-based line. */
async function openTraceLine(uri: vscode.Uri, line: number): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  if (line > document.lineCount) return;
  const range = document.lineAt(line - 1).range;
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(range.start, range.start), preserveFocus: false });
}

/** One panel for one trace file or live run. */
export class GraphPanel {
  private readonly _disposables: vscode.Disposable[] = [];
  private payload: GraphViewPayload;
  private generation = 0;
  private ready = false;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private running: AbortController | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly services: Services,
    private readonly subject: PanelSubject,
    payload: GraphViewPayload,
    private readonly onDispose: () => void,
    private readonly file?: TraceFile,
  ) {
    this.payload = payload;
    const webview = panel.webview;
    const extensionUri = services.context.extensionUri;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64url'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'graphview.css')).toString(),
      title: panel.title,
    });
    this._disposables.push(
      panel.onDidDispose(() => this.dispose()),
      webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
    );
    if (!file) return;
    // Re-analyse when the trace changes on disk (saves included) while the panel is open.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file.uri, '..'), path.basename(file.uri.fsPath)));
    this._disposables.push(watcher, watcher.onDidChange(() => this.scheduleReanalysis()), watcher.onDidCreate(() => this.scheduleReanalysis()));
  }

  /** Sends a new payload to the page (drawn once the page said it is ready). */
  update(payload: GraphViewPayload): void {
    this.payload = payload;
    this.generation++;
    if (this.ready) void this.post({ type: 'analysis', generation: this.generation, payload });
  }

  /** Closes the panel and releases everything it holds. */
  dispose(): void {
    this.onDispose();
    if (this.debounce) clearTimeout(this.debounce);
    this.running?.abort();
    this.panel.dispose();
    while (this._disposables.length) this._disposables.pop()?.dispose();
  }

  private post(message: HostMessage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const output = this.services.output;
    try {
      const accepted = await handlePageMessage(raw, {
        ready: () => {
          this.ready = true;
          void this.post({ type: 'analysis', generation: this.generation, payload: this.payload });
        },
        openLine: (line) => this.subject.openLine(line),
        savePng: (png) => this.saveFile(png, 'png', analyzeNotice.pngExport),
        saveHtml: async () => this.saveFile(Buffer.from(await reportHtmlFor(this.payload, this.services.context.extensionPath), 'utf8'), 'html', analyzeNotice.htmlExport),
        reanalyse: () => this.reanalyse(),
      });
      if (!accepted) output.warn(analyzeLog.malformedPageMessage);
    } catch (error) {
      output.error(analyzeLog.panelFailed(errorMessage(error)));
      void showError(errorMessage(error));
    }
  }

  private async saveFile(bytes: Uint8Array, extension: 'png' | 'html', label: string): Promise<void> {
    const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(`${this.subject.saveBase}.graph.${extension}`), filters: { [label]: [extension] }, saveLabel: analyzeNotice.saveLabel(label) });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, bytes);
    this.services.output.info(analyzeLog.saved(label, target.fsPath));
  }

  private scheduleReanalysis(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.reanalyse();
    }, REANALYSE_DEBOUNCE_MS);
  }

  /** Re-analyses the trace file in a worker; a newer run cancels an older one, and stale results are dropped. */
  private async reanalyse(): Promise<void> {
    if (!this.file) return;
    const { context, uri } = this.file;
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    const output = this.services.output;
    void this.post({ type: 'status', state: 'analysing' });
    try {
      const { payload } = await runAnalysisJob(
        { file: uri.fsPath, root: context.root, title: vscode.workspace.asRelativePath(uri), positions: this.payload.positions, episode: context.episode },
        { signal: controller.signal, workerScript: workerScript(this.services) },
      );
      if (this.running !== controller) return;
      // Keep the layout when the topology did not change, so nothing jumps.
      if (topologyKey(payload.analysis) !== topologyKey(this.payload.analysis)) payload.positions = computeLayout(payload.analysis.agents.map((a) => a.id), payload.analysis.edges);
      publishTraceDiagnostics(context.diagnostics, uri, payload);
      this.update(payload);
      void this.post({ type: 'status', state: 'idle' });
      output.info(analyzeLog.reanalysed(vscode.workspace.asRelativePath(uri)));
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = errorMessage(error);
      output.error(analyzeLog.reanalysisFailed(message));
      void this.post({ type: 'status', state: 'error', message });
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }
}
