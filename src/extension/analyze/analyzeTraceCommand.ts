// "Agent Immune: Analyze Trace": picks a trace (active editor, Explorer selection or file picker), runs the guard in a
// worker with progress, logs the report, publishes diagnostics on the trace and opens the infection-graph panel.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { InputError } from '../../core/errors';
import { runAnalysisJob } from '../../node/analysisJob';
import { formatAnalysisText } from '../../cli/format/analysisText';
import type { Services } from '../extension';
import { CommandId } from '../ids';
import { assertRunAllowed } from '../integrity/runGuard';
import { GraphPanel } from './graphPanel';
import { publishTraceDiagnostics } from './traceDiagnostics';

/** Traces at least this big get a cancellable progress notification. */
const LARGE_TRACE_BYTES = 2 * 1024 * 1024;

/** Registers the Analyze Trace command. */
export function registerAnalyzeTrace(services: Services): void {
  // Flagged output lines of analysed traces, shown in the Problems view.
  const diagnostics = vscode.languages.createDiagnosticCollection('agent-immune-trace');
  services.context.subscriptions.push(diagnostics, { dispose: () => GraphPanel.disposeAll() });
  services.context.subscriptions.push(
    vscode.commands.registerCommand(CommandId.AnalyzeTrace, (uri?: vscode.Uri) => analyzeTraceCommand(services, diagnostics, uri)),
  );
}

/** Resolves the trace to analyse: the argument, else the active *.jsonl editor, else a file picker. */
async function pickTrace(uri?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (uri instanceof vscode.Uri) return uri;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && /\.jsonl?$/i.test(active.path)) return active;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Agent traces': ['jsonl', 'json'] }, openLabel: 'Analyze' });
  return picked?.[0];
}

/** Runs the job under a progress indicator: a cancellable notification for large traces, the status bar otherwise. */
async function withProgress<T>(target: vscode.Uri, title: string, job: (signal: AbortSignal, onRound: (round: number, rounds: number) => void) => Promise<T>): Promise<T | undefined> {
  const size = (await vscode.workspace.fs.stat(target)).size;
  const large = size >= LARGE_TRACE_BYTES;
  const controller = new AbortController();
  try {
    return await vscode.window.withProgress(
      { location: large ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: `Agent Immune: analysing ${title}`, cancellable: large },
      (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        let last = 0;
        return job(controller.signal, (round, rounds) => {
          const done = ((round + 1) / rounds) * 100;
          progress.report({ increment: done - last, message: `round ${round + 1} of ${rounds}` });
          last = done;
        });
      },
    );
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    throw error;
  }
}

async function analyzeTraceCommand(services: Services, diagnostics: vscode.DiagnosticCollection, uri?: vscode.Uri) {
  const target = await pickTrace(uri);
  if (!target) return undefined;
  if (!(await assertRunAllowed('Analyze Trace'))) return undefined;
  try {
    const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const title = vscode.workspace.asRelativePath(target);
    const payload = await withProgress(target, title, (signal, onRound) =>
      runAnalysisJob({ file: target.fsPath, root: root ?? '.', title }, { signal, onRound, workerScript: path.join(services.context.extensionPath, 'dist', 'analysisWorker.js') }),
    );
    if (!payload) return undefined;
    const analysis = payload.analysis;
    services.output.info(formatAnalysisText(analysis));
    const flagged = publishTraceDiagnostics(diagnostics, target, payload);
    services.output.info(`Analyze Trace: ${flagged} flagged output line(s) in ${title}`);
    GraphPanel.show({ services, diagnostics, root: root ?? '.' }, target, payload);
    return analysis;
  } catch (error) {
    const message = error instanceof InputError ? error.toString() : (error as Error).message;
    services.output.error(`Analyze Trace failed: ${message}`);
    void vscode.window.showErrorMessage(`Agent Immune: cannot analyse ${vscode.workspace.asRelativePath(target)}: ${message}`);
    return undefined;
  }
}
