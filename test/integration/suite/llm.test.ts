// The LLM upgrade in the real editor: commands registered, settings user-level only, no call without the opt-in,
// and Analyze Trace with LLM against the loopback OpenAI-compatible server once the user opted in, presented like
// Analyze Trace (graph panel and diagnostics on the trace).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Analysis } from '../../../src/core/guard/types';
import { CommandId, SETTINGS_SECTION, type SettingId } from '../../../src/extension/ids';
import { FakeLlmServer } from '../../support/fakeLlmServer';
import { graphTabs, ours } from '../graphView';
import { activeExtension, updateSetting, waitFor, workspaceFile } from '../helpers';

const LLM_SETTINGS: SettingId[] = ['llm.sendTraceContent', 'llm.backend', 'llm.baseUrl', 'llm.model', 'llm.judgeSamples', 'llm.maxCalls'];

suite('LLM upgrade', () => {
  let server: FakeLlmServer;

  suiteSetup(async () => {
    await activeExtension();
    server = await new FakeLlmServer().start();
  });
  suiteTeardown(async () => {
    for (const key of LLM_SETTINGS) await updateSetting(key, undefined, vscode.ConfigurationTarget.Global);
    await server.stop();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('registers the API key commands and Analyze Trace with LLM', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of [CommandId.SetLlmApiKey, CommandId.ClearLlmApiKey, CommandId.AnalyzeTraceWithLlm]) assert.ok(all.includes(id), id);
  });

  test('declares every LLM setting application-scoped, so a workspace cannot set it', async () => {
    const extension = await activeExtension();
    const properties = extension.packageJSON.contributes.configuration.properties as Record<string, { scope?: string }>;
    for (const key of LLM_SETTINGS) assert.strictEqual(properties[`${SETTINGS_SECTION}.${key}`]?.scope, 'application', key);
    await assert.rejects(Promise.resolve(updateSetting('llm.sendTraceContent', true, vscode.ConfigurationTarget.Workspace)));
  });

  test('makes no call while the opt-in is off', async () => {
    await updateSetting('llm.baseUrl', server.url, vscode.ConfigurationTarget.Global);
    await updateSetting('llm.sendTraceContent', false, vscode.ConfigurationTarget.Global);
    const result = await vscode.commands.executeCommand<Analysis | undefined>(CommandId.AnalyzeTraceWithLlm, workspaceFile('traces/small-attack.jsonl'));
    assert.strictEqual(result, undefined);
    assert.strictEqual(server.requests.length, 0);
    assert.strictEqual(graphTabs().length, 0, 'a refused run opens no panel');
  });

  test('with the opt-in and a local endpoint, scores with the LLM judge and shows the graph panel and diagnostics', async () => {
    await updateSetting('llm.baseUrl', server.url, vscode.ConfigurationTarget.Global);
    await updateSetting('llm.model', 'fake-judge', vscode.ConfigurationTarget.Global);
    await updateSetting('llm.sendTraceContent', true, vscode.ConfigurationTarget.Global);
    const trace = workspaceFile('traces/small-attack.jsonl');
    const analysis = await vscode.commands.executeCommand<Analysis | undefined>(CommandId.AnalyzeTraceWithLlm, trace);
    assert.ok(analysis, 'no analysis returned');
    assert.strictEqual(analysis.scorer, 'llm:fake-judge');
    assert.ok((analysis.llm?.calls ?? 0) + (analysis.llm?.cacheHits ?? 0) > 0);
    assert.ok(server.requests.length > 0);
    await waitFor('the graph panel', () => graphTabs().length === 1);
    assert.match(graphTabs()[0].label, /small-attack\.jsonl/);
    const flagged = analysis.rounds.reduce((n, round) => n + Object.values(round.agents).filter((a) => a.category !== 'benign').length, 0);
    assert.strictEqual(ours(trace).length, flagged, 'one diagnostic per flagged output of the LLM analysis');
  });
});
