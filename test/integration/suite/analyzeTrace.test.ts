// Analyze Trace inside the real editor: the command classifies the fixture traces and reports bad input without throwing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Analysis } from '../../../src/core/guard/types';
import { TRACE_FINDINGS } from '../../../src/core/guard/findings';
import { ourCode } from '../../../src/extension/diagnostics';
import { CommandId, ViewId } from '../../../src/extension/ids';
import { activeExtension, findingDiagnostics, loadedBundles, waitFor, workspaceFile } from '../helpers';

/** Titles of the open infection-graph panels (webview tabs of our view type). */
function graphPanels(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(ViewId.GraphPanel))
    .map((tab) => tab.label);
}

/** Category of each agent, as a plain object for deepStrictEqual. */
function categories(analysis: Analysis | undefined): Record<string, string> {
  assert.ok(analysis, 'the command returned no analysis');
  return Object.fromEntries(analysis.agents.map((agent) => [agent.id, agent.category]));
}

suite('Analyze Trace command', () => {
  suiteSetup(async () => {
    await activeExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // Table: fixture trace -> expected categories and sources (the traces carry the same labels).
  const cases: { trace: string; categories: Record<string, string>; sources: string[] }[] = [
    { trace: 'traces/small-attack.jsonl', categories: { a1: 'infected', a2: 'benign', a3: 'benign', m: 'attacker' }, sources: ['m'] },
    { trace: 'traces/clean.jsonl', categories: { x: 'benign', y: 'benign', z: 'benign' }, sources: [] },
  ];
  for (const c of cases) {
    test(`classifies ${c.trace}`, async () => {
      const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile(c.trace));
      assert.deepStrictEqual(categories(analysis), c.categories);
      assert.deepStrictEqual(analysis.sources, c.sources);
    });
  }

  test('loads the trace bundle and its engine on the first trace command, not the LLM one', async () => {
    assert.deepStrictEqual(loadedBundles(await activeExtension()), ['engine', 'trace']);
  });

  test('puts a diagnostic linking its docs on each flagged output line', async () => {
    await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile('traces/small-attack.jsonl'));
    const flagged = findingDiagnostics(workspaceFile('traces/small-attack.jsonl'), TRACE_FINDINGS);
    assert.ok(flagged.length > 0);
    for (const diagnostic of flagged) {
      assert.strictEqual(diagnostic.source, 'Agent Immune');
      const code = diagnostic.code as { value: string; target: vscode.Uri };
      assert.match(code.target.toString(), new RegExp(`/docs/cli\\.md#${code.value}$`));
    }
    assert.ok(flagged.some((d) => ourCode(d) === 'trace-attacker-output' && d.severity === vscode.DiagnosticSeverity.Error));
  });

  test('opens the infection-graph panel for the analysed trace', async () => {
    await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile('traces/small-attack.jsonl'));
    const panels = await waitFor('the graph panel tab', () => (graphPanels().length > 0 ? graphPanels() : undefined));
    assert.deepStrictEqual(panels, ['Infection graph: small-attack.jsonl']);
  });

  test('analyses the trace in the active editor when given no argument', async () => {
    await vscode.window.showTextDocument(workspaceFile('traces/small-attack.jsonl'));
    const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace);
    assert.strictEqual(analysis?.run, 'fixture-small-attack');
  });

  test('reports a trace that is not JSON Lines instead of throwing', async () => {
    const broken = workspaceFile('traces/broken.jsonl');
    await vscode.workspace.fs.writeFile(broken, Buffer.from('this is not a trace\n'));
    try {
      const result = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, broken);
      assert.strictEqual(result, undefined);
    } finally {
      await vscode.workspace.fs.delete(broken);
    }
  });
});
