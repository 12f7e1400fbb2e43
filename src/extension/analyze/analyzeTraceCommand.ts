// "Agent Immune: Analyze Trace": picks a trace (active editor, Explorer selection or file picker), runs the guard, reports.
import * as vscode from 'vscode';
import { analyzeTrace } from '../../core/guard/analyze';
import { InputError } from '../../core/errors';
import { loadProjectConfig } from '../../node/config';
import { readTraceFile } from '../../node/readTrace';
import { formatAnalysisText } from '../../cli/format/analysisText';
import type { Services } from '../extension';
import { CommandId } from '../ids';

/** Registers the Analyze Trace command. */
export function registerAnalyzeTrace(services: Services): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand(CommandId.AnalyzeTrace, (uri?: vscode.Uri) => analyzeTraceCommand(services, uri)),
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

async function analyzeTraceCommand(services: Services, uri?: vscode.Uri) {
  const target = await pickTrace(uri);
  if (!target) return undefined;
  try {
    const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const config = await loadProjectConfig(root ?? '.');
    const trace = await readTraceFile(target.fsPath);
    trace.source = vscode.workspace.asRelativePath(target);
    const analysis = await analyzeTrace(trace, { config });
    services.output.info(formatAnalysisText(analysis));
    services.output.show(true);
    return analysis;
  } catch (error) {
    const message = error instanceof InputError ? error.toString() : (error as Error).message;
    services.output.error(`Analyze Trace failed: ${message}`);
    void vscode.window.showErrorMessage(`Agent Immune: cannot analyse ${vscode.workspace.asRelativePath(target)}: ${message}`);
    return undefined;
  }
}
