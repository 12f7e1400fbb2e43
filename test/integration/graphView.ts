// What the trace commands show in the editor, shared by the graph-panel and LLM suites: graph-view tabs and the
// diagnostics Agent Immune published on a trace.
import * as vscode from 'vscode';

/** Open webview tabs of the graph view. */
export function graphTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('agentImmune.graphView'));
}

/** Diagnostics Agent Immune published on a file. */
export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Agent Immune');
}
