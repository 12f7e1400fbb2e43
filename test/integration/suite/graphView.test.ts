// The infection-graph panel in the real editor: Analyze Trace opens it, publishes diagnostics on the trace's flagged
// lines, and re-analyses (debounced) when the trace changes while the panel is open.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Analysis } from '../../../src/core/guard/types';
import { CommandId } from '../../../src/extension/ids';
import { activeExtension, waitFor, workspaceFile } from '../helpers';

/** Open webview tabs of the graph view. */
function graphTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('agentImmune.graphView'));
}

/** Diagnostics Agent Immune published on a file. */
function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Agent Immune');
}

suite('Infection graph panel', () => {
  suiteSetup(async () => {
    await activeExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('opens beside the trace and marks the flagged output lines', async () => {
    const trace = workspaceFile('traces/small-attack.jsonl');
    const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, trace);
    assert.ok(analysis, 'the command still returns the analysis');
    await waitFor('the graph panel', () => graphTabs().length === 1);
    assert.match(graphTabs()[0].label, /small-attack\.jsonl/);
    const diagnostics = ours(trace);
    const flagged = analysis.rounds.reduce((n, round) => n + Object.values(round.agents).filter((a) => a.category !== 'benign').length, 0);
    assert.strictEqual(diagnostics.length, flagged);
    const attacker = diagnostics.filter((d) => d.code === 'trace-attacker-output');
    // m's outputs are lines 5, 9 and 13 of the fixture.
    assert.deepStrictEqual(attacker.map((d) => d.range.start.line + 1), [5, 9, 13]);
    assert.strictEqual(attacker[0].severity, vscode.DiagnosticSeverity.Error);
  });

  test('re-analyses when the trace changes while the panel is open', async () => {
    const trace = workspaceFile('traces/reanalyse.jsonl');
    const original = await vscode.workspace.fs.readFile(workspaceFile('traces/small-attack.jsonl'));
    await vscode.workspace.fs.writeFile(trace, original);
    try {
      await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, trace);
      await waitFor('the graph panel', () => graphTabs().length === 1);
      assert.ok(ours(trace).length > 0);
      const clean = await vscode.workspace.fs.readFile(workspaceFile('traces/clean.jsonl'));
      await vscode.workspace.fs.writeFile(trace, clean);
      await waitFor('diagnostics of the clean version', () => ours(trace).length === 0, 20000);
    } finally {
      await vscode.workspace.fs.delete(trace);
    }
  });
});
