// "Agent Immune: Analyze Trace": picks a trace (active editor, Explorer selection or file picker), runs the guard in a
// worker with progress, logs the report, publishes diagnostics on the trace and opens the infection-graph panel. The
// same presentation (presentTrace) serves "Analyze Trace with LLM", which only swaps the analyser.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { InputError } from '../../core/errors';
import type { GraphViewPayload } from '../../core/graphview/types';
import type { Analysis } from '../../core/guard/types';
import { runAnalysisJob, type AnalysisJobInput } from '../../node/analysisJob';
import { formatAnalysisText } from '../../core/guard/messages';
import type { Services } from '../extension';
import { CommandId } from '../ids';
import { assertRunAllowed } from '../integrity/runGuard';
import { GraphPanel } from './graphPanel';
import { publishTraceDiagnostics } from './traceDiagnostics';

/** Traces at least this big get a cancellable progress notification. */
const LARGE_TRACE_BYTES = 2 * 1024 * 1024;

/** One analysis of a trace into the view payload (in a worker for the embedded guard, in-process with the LLM). */
export type ViewAnalyser = (input: AnalysisJobInput, signal: AbortSignal, onRound: (round: number, rounds: number) => void) => Promise<GraphViewPayload>;

/** How a command wants its run presented. */
export interface PresentOptions {
  /** Command name in logs, refusals and errors. */
  label: string;
  /** Always show a cancellable notification (slow analysers), not only for large traces. */
  cancellable?: boolean;
}

/** Presents one analysis of `target`: strict-mode gate, progress/cancel, report, diagnostics and the graph panel. */
export type PresentTrace = (target: vscode.Uri, analyse: ViewAnalyser, options: PresentOptions) => Promise<Analysis | undefined>;

/** Registers the Analyze Trace command; returns the presentation the other trace commands share. */
export function registerAnalyzeTrace(services: Services): PresentTrace {
  // Flagged output lines of analysed traces, shown in the Problems view.
  const diagnostics = vscode.languages.createDiagnosticCollection('agent-immune-trace');
  services.context.subscriptions.push(diagnostics, { dispose: () => GraphPanel.disposeAll() });
  const present: PresentTrace = (target, analyse, options) => presentTrace(services, diagnostics, target, analyse, options);
  const workerScript = path.join(services.context.extensionPath, 'dist', 'analysisWorker.js');
  const inWorker: ViewAnalyser = (input, signal, onRound) => runAnalysisJob(input, { signal, onRound, workerScript });
  services.context.subscriptions.push(
    vscode.commands.registerCommand(CommandId.AnalyzeTrace, async (uri?: vscode.Uri) => {
      const target = await pickTrace('Analyze', uri);
      return target ? present(target, inWorker, { label: 'Analyze Trace' }) : undefined;
    }),
  );
  return present;
}

/** File extensions of traces: agent-trace/v1 and framework exports, plus AG2 runtime logs (runtime.log). */
const TRACE_EXTENSIONS = ['jsonl', 'json', 'ndjson', 'log'];

/** Resolves the trace to analyse: the argument, else the active trace editor, else a file picker. */
export async function pickTrace(openLabel: string, uri?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (uri instanceof vscode.Uri) return uri;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && TRACE_EXTENSIONS.some((ext) => active.path.toLowerCase().endsWith(`.${ext}`))) return active;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Agent traces and logs': TRACE_EXTENSIONS }, openLabel });
  return picked?.[0];
}

/** Runs the job under a progress indicator: a cancellable notification for large traces (or when asked), the status bar otherwise. */
async function withProgress<T>(target: vscode.Uri, title: string, cancellable: boolean, job: (signal: AbortSignal, onRound: (round: number, rounds: number) => void) => Promise<T>): Promise<T | undefined> {
  const notify = cancellable || (await vscode.workspace.fs.stat(target)).size >= LARGE_TRACE_BYTES;
  const controller = new AbortController();
  try {
    return await vscode.window.withProgress(
      { location: notify ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: `Agent Immune: analysing ${title}`, cancellable: notify },
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

async function presentTrace(services: Services, diagnostics: vscode.DiagnosticCollection, target: vscode.Uri, analyse: ViewAnalyser, options: PresentOptions): Promise<Analysis | undefined> {
  const { label } = options;
  if (!(await assertRunAllowed(label))) return undefined;
  try {
    const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '.';
    const title = vscode.workspace.asRelativePath(target);
    const payload = await withProgress(target, title, options.cancellable === true, (signal, onRound) => analyse({ file: target.fsPath, root, title }, signal, onRound));
    if (!payload) {
      services.output.info(`${label} cancelled.`);
      return undefined;
    }
    const analysis = payload.analysis;
    services.output.info(formatAnalysisText(analysis));
    const flagged = publishTraceDiagnostics(diagnostics, target, payload);
    services.output.info(`${label}: ${flagged} flagged output line(s) in ${title}`);
    GraphPanel.show({ services, diagnostics, root }, target, payload);
    return analysis;
  } catch (error) {
    const message = error instanceof InputError ? error.toString() : (error as Error).message;
    services.output.error(`${label} failed: ${message}`);
    void vscode.window.showErrorMessage(`Agent Immune: cannot analyse ${vscode.workspace.asRelativePath(target)}: ${message}`);
    return undefined;
  }
}
