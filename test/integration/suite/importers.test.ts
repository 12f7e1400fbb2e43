// Analyze Trace on foreign formats inside the real editor: OTLP GenAI and INFA-Guard files open directly (detected
// from content), a chosen run of a file that holds several gets its own panel, and an OTLP export without captured
// content is reported instead of analysed as empty.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Analysis } from '../../../src/core/guard/types';
import { CommandId } from '../../../src/extension/ids';
import { activeExtension, waitFor, workspaceFile } from '../helpers';

suite('Analyze Trace on imported formats', () => {
  suiteSetup(async () => {
    await activeExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // Table: fixture -> the agents of its first run, in trace order.
  const cases: { trace: string; agents: string[]; run: string }[] = [
    { trace: 'traces/otel-genai-export.json', agents: ['user', 'supervisor', 'researcher', 'writer'], run: 'conv-a' },
    { trace: 'traces/infa-guard-episodes.json', agents: ['agent_0', 'agent_1', 'agent_2', 'agent_3'], run: 'episode-0' },
  ];
  for (const c of cases) {
    test(`analyses ${c.trace} without conversion`, async () => {
      const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile(c.trace));
      assert.ok(analysis, 'the command returned no analysis');
      assert.strictEqual(analysis.run, c.run);
      assert.deepStrictEqual(analysis.agents.map((a) => a.id), c.agents);
      assert.ok(analysis.warnings.some((w) => w.code === 'multiple-episodes'), 'the other runs are mentioned');
    });
  }

  test('analyses the run asked for of a file that holds several, in a panel of its own named after it', async () => {
    const file = workspaceFile('traces/otel-genai-export.json');
    const analysis = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, file, { episode: 1 });
    assert.ok(analysis, 'the command returned no analysis');
    assert.strictEqual(analysis.run, 'conv-b');
    assert.ok(!analysis.warnings.some((w) => w.code === 'multiple-episodes'), 'a chosen run needs no note about the others');
    const titles = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
    await waitFor('the chosen run\'s panel', () => (titles().includes('Infection graph: otel-genai-export.json (conv-b)') ? true : undefined));
  });

  test('reports an OTLP export whose message content was not captured instead of analysing nothing', async () => {
    const result = await vscode.commands.executeCommand<Analysis>(CommandId.AnalyzeTrace, workspaceFile('traces/otel-no-content.json'));
    assert.strictEqual(result, undefined);
  });
});
