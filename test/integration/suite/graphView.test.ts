// The infection-graph panel in the real editor: Analyze Trace opens it, publishes diagnostics on the trace's flagged
// lines, re-analyses (debounced) when the trace changes while the panel is open, and takes AG2 runtime logs.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Analysis } from '../../../src/core/guard/types';
import { ourCode } from '../../../src/extension/diagnostics';
import { CommandId } from '../../../src/extension/ids';
import { graphTabs, ours } from '../graphView';
import { activeExtension, waitFor, workspaceFile } from '../helpers';

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
    const attacker = diagnostics.filter((d) => ourCode(d) === 'trace-attacker-output');
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

  test('analyses an AG2 runtime.log, offered in the Explorer menu like a .jsonl trace', async () => {
    const extension = await activeExtension();
    const menu = (extension.packageJSON.contributes.menus['explorer/context'] as { command: string; when: string }[]).find((m) => m.command === CommandId.AnalyzeTrace);
    assert.match(menu?.when ?? '', /resourceExtname == \.log/);
    const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile('traces/ag2/runtime.log'));
    assert.ok(analysis, 'the runtime log was not analysed');
    assert.ok(analysis.agents.length >= 2);
    await waitFor('the graph panel', () => graphTabs().length === 1);
    assert.match(graphTabs()[0].label, /runtime\.log/);
  });
});
