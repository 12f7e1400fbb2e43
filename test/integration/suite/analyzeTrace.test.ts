// Analyze Trace inside the real editor: the command classifies the fixture traces and reports bad input without throwing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { GraphViewPayload } from '../../../src/core/graphview/types';
import type { Analysis } from '../../../src/core/guard/types';
import { TRACE_FINDINGS } from '../../../src/core/guard/findings';
import { ourCode } from '../../../src/extension/diagnostics';
import type { GraphPanels } from '../../../src/extension/analyze/graphPanel';
import { createPresenter } from '../../../src/extension/analyze/present';
import { CommandId, ViewId } from '../../../src/extension/ids';
import type { Services } from '../../../src/extension/services';
import { analyseForView } from '../../../src/node/analysisJob';
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

suite('Trace presentation', () => {
  // The presenter as Analyze Trace uses it, with analysers whose finishing order the test decides: an analysis that
  // finishes after a newer one of the same trace started must not replace the newer result.
  test('an older analysis that finishes last is not shown over the newer one', async () => {
    const uri = workspaceFile('traces/clean.jsonl');
    const root = workspaceFile('.').fsPath;
    const attack = await analyseForView({ file: workspaceFile('traces/small-attack.jsonl').fsPath, root, title: 'small-attack' });
    const clean = await analyseForView({ file: uri.fsPath, root, title: 'clean' });
    const output = vscode.window.createOutputChannel('Agent Immune presenter test', { log: true });
    const services = { runGuard: { assertRunAllowed: async () => true }, output } as unknown as Services;
    const shown: GraphViewPayload[] = [];
    const panels = { show: (_context: unknown, _target: vscode.Uri, payload: GraphViewPayload) => shown.push(payload) } as unknown as GraphPanels;
    const collection = vscode.languages.createDiagnosticCollection('presenter-test');
    try {
      const present = createPresenter(services, collection, panels);
      let finishOlder!: () => void;
      const olderMayFinish = new Promise<void>((resolve) => (finishOlder = resolve));
      const older = present(uri, async () => (await olderMayFinish, attack), { label: 'older' });
      const newer = await present(uri, async () => clean, { label: 'newer' });
      finishOlder();
      const olderResult = await older;
      assert.ok(newer && olderResult, 'both analyses return their result to the caller');
      assert.deepStrictEqual(shown, [clean.payload], 'only the newer analysis reached the panel');
      assert.strictEqual(collection.get(uri)?.length ?? 0, 0, 'the clean (newer) result decides the diagnostics, not the attack found by the older one');
    } finally {
      collection.dispose();
      output.dispose();
    }
  });
});
