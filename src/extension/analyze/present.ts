// How a trace analysis is presented, for Analyze Trace and Analyze Trace with LLM alike: strict-mode gate, progress
// with cancel, the report in the log, diagnostics on the trace and the infection-graph panel. A result that arrives
// after a newer analysis of the same trace started is dropped, never shown over the newer one. A file that holds several
// runs is analysed at its first, and the user is offered the others (Choose Run…).
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { analyzeLog, analyzeNotice, formatAnalysisText } from '../../core/guard/messages';
import type { Analysis } from '../../core/guard/types';
import { NOT_ENGLISH } from '../../core/text/language';
import type { AnalysisJobInput, ViewAnalysis } from '../../node/analysisJob';
import { showError, showInfo, showWarning } from '../notify';
import type { Services } from '../services';
import type { GraphPanels } from './graphPanel';
import { publishTraceDiagnostics } from './traceDiagnostics';

/** Traces at least this big get a cancellable progress notification. */
const LARGE_TRACE_BYTES = 2 * 1024 * 1024;

/** Told as each round of an analysis is done. */
type RoundListener = (round: number, rounds: number) => void;

/** One analysis of a trace into the view payload (in a worker for the embedded guard, in-process with the LLM). */
export type ViewAnalyser = (input: AnalysisJobInput, signal: AbortSignal, onRound: RoundListener) => Promise<ViewAnalysis>;

/** How a command wants its run presented. */
export interface PresentOptions {
  /** Command name in logs, refusals and errors. */
  label: string;
  /** Always show a cancellable notification (slow analysers), not only for large traces. */
  cancellable?: boolean;
  /** Which run of a file that holds several (0-based); absent: the first, and the others are offered. */
  episode?: number;
}

/** Presents one analysis of `target`: strict-mode gate, progress/cancel, report, diagnostics and the graph panel. */
export type PresentTrace = (target: vscode.Uri, analyse: ViewAnalyser, options: PresentOptions) => Promise<Analysis | undefined>;

/** File extensions of traces: agent-trace/v1 and framework exports, AG2 runtime logs (runtime.log), SWE-agent trajectories. */
const TRACE_EXTENSIONS = ['jsonl', 'json', 'ndjson', 'log', 'traj'];

/** Resolves the trace to analyse: the argument, else the active trace editor, else a file picker. */
export async function pickTrace(openLabel: string, uri?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (uri instanceof vscode.Uri) return uri;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && TRACE_EXTENSIONS.some((ext) => active.path.toLowerCase().endsWith(`.${ext}`))) return active;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [analyzeNotice.traceFilter]: TRACE_EXTENSIONS }, openLabel });
  return picked?.[0];
}

/** Runs the job under a progress indicator: a cancellable notification for large traces (or when asked), the status bar otherwise. */
async function withProgress<T>(target: vscode.Uri, title: string, cancellable: boolean, job: (signal: AbortSignal, onRound: RoundListener) => Promise<T>): Promise<T | undefined> {
  const notify = cancellable || (await vscode.workspace.fs.stat(target)).size >= LARGE_TRACE_BYTES;
  const controller = new AbortController();
  try {
    return await vscode.window.withProgress(
      { location: notify ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window, title: analyzeNotice.progressTitle(title), cancellable: notify },
      (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        let last = 0;
        return job(controller.signal, (round, rounds) => {
          const done = ((round + 1) / rounds) * 100;
          progress.report({ increment: done - last, message: analyzeNotice.progressRound(round, rounds) });
          last = done;
        });
      },
    );
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    throw error;
  }
}

/** The presentation of a trace feature: diagnostics on analysed traces and their graph panels. */
export function createPresenter(services: Services, diagnostics: vscode.DiagnosticCollection, panels: GraphPanels): PresentTrace {
  /** Per trace, the number of the latest analysis started: an older one that finishes later is not shown. */
  const latest = new Map<string, number>();
  let started = 0;
  const present: PresentTrace = async (target, analyse, options) => {
    const { label, episode } = options;
    if (!(await services.runGuard.assertRunAllowed(label))) return undefined;
    const run = ++started;
    const key = `${target.toString()}#${episode ?? 0}`;
    latest.set(key, run);
    try {
      const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '.';
      const title = vscode.workspace.asRelativePath(target);
      const result = await withProgress(target, title, options.cancellable === true, (signal, onRound) => analyse({ file: target.fsPath, root, title, episode }, signal, onRound));
      if (!result) {
        services.output.info(analyzeLog.cancelled(label));
        return undefined;
      }
      const { payload, runs } = result;
      const analysis = payload.analysis;
      if (latest.get(key) !== run) {
        services.output.info(analyzeLog.superseded(label, title));
        return analysis;
      }
      services.output.info(formatAnalysisText(analysis));
      const flagged = publishTraceDiagnostics(diagnostics, target, payload);
      services.output.info(analyzeLog.flagged(label, flagged, title));
      panels.show({ services, diagnostics, root, episode }, target, payload);
      const language = analysis.warnings.find((w) => w.code === NOT_ENGLISH);
      if (language) void showWarning(analyzeNotice.notRead(title, language.message));
      if (episode === undefined && runs.length > 1) {
        offerOtherRuns(target, title, runs, analyse, options).catch((error: unknown) => services.output.error(analyzeLog.failed(label, errorMessage(error))));
      }
      return analysis;
    } catch (error) {
      services.output.error(analyzeLog.failed(label, errorMessage(error)));
      void showError(analyzeNotice.cannotAnalyse(vscode.workspace.asRelativePath(target), errorMessage(error)));
      return undefined;
    }
  };

  /** Says the file holds several runs (`runs`, the ids the analysis read) and, on Choose Run…, analyses the one the user picks. */
  async function offerOtherRuns(target: vscode.Uri, title: string, runs: string[], analyse: ViewAnalyser, options: PresentOptions): Promise<void> {
    if ((await showInfo(analyzeNotice.severalRuns(title, runs[0]), analyzeNotice.chooseRun)) !== analyzeNotice.chooseRun) return;
    const picked = await vscode.window.showQuickPick(
      runs.map((id, index) => ({ label: id, description: analyzeNotice.pickRunDescription(index), index })),
      { title: analyzeNotice.pickRunTitle(title) },
    );
    if (picked) await present(target, analyse, { ...options, episode: picked.index });
  }

  return present;
}
