// The LLM upgrade in the editor: the API key in SecretStorage (never in settings or logs), and Analyze Trace with LLM,
// whose implementation (dist/llm.js, the OpenAI SDK) loads on first use.
import * as vscode from 'vscode';
import type { TraceFeature } from '../analyze/feature';
import { loadBundle } from '../bundles';
import { API_KEY_SECRET, CommandId } from '../ids';
import { showInfo } from '../notify';
import type { Services } from '../services';

/** Registers the set/clear key commands and Analyze Trace with LLM (presented by the trace feature). */
export function registerLlm(services: Services, trace: () => TraceFeature): void {
  const { context, output } = services;
  context.subscriptions.push(
    vscode.commands.registerCommand(CommandId.AnalyzeTraceWithLlm, (uri?: vscode.Uri) => loadBundle(services, 'llm').analyzeWithLlm(services, trace(), uri)),
    vscode.commands.registerCommand(CommandId.SetLlmApiKey, async () => {
      const key = await vscode.window.showInputBox({
        title: 'Agent Immune: LLM API key',
        prompt: 'Stored in the editor secret storage only; sent only to the endpoint in the agentImmune.llm.baseUrl setting.',
        password: true,
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() === '' ? 'Enter a key, or press Escape to cancel' : /\s/.test(value.trim()) ? 'A key has no spaces' : undefined),
      });
      if (key === undefined) return;
      await context.secrets.store(API_KEY_SECRET, key.trim());
      output.info('LLM API key stored in secret storage.');
      void showInfo('LLM API key stored.');
    }),
    vscode.commands.registerCommand(CommandId.ClearLlmApiKey, async () => {
      await context.secrets.delete(API_KEY_SECRET);
      output.info('LLM API key removed from secret storage.');
      void showInfo('LLM API key cleared.');
    }),
  );
}
