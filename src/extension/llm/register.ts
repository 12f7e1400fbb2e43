// The LLM upgrade in the editor: the API key in SecretStorage (never in settings or logs), and Analyze Trace with LLM,
// whose implementation (dist/llm.js, the OpenAI SDK) loads on first use.
import * as vscode from 'vscode';
import { llmNotice } from '../../core/llm/messages';
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
        title: llmNotice.keyTitle,
        prompt: llmNotice.keyPrompt,
        password: true,
        ignoreFocusOut: true,
        validateInput: llmNotice.keyProblem,
      });
      if (key === undefined) return;
      await context.secrets.store(API_KEY_SECRET, key.trim());
      output.info(llmNotice.keyStoredLog);
      void showInfo(llmNotice.keyStored);
    }),
    vscode.commands.registerCommand(CommandId.ClearLlmApiKey, async () => {
      await context.secrets.delete(API_KEY_SECRET);
      output.info(llmNotice.keyClearedLog);
      void showInfo(llmNotice.keyCleared);
    }),
  );
}
