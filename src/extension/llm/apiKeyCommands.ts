// "Agent Immune: Set LLM API Key" / "Clear LLM API Key": the key lives only in SecretStorage, never in settings or logs.
import * as vscode from 'vscode';
import type { Services } from '../extension';
import { CommandId } from '../ids';

/** SecretStorage key of the LLM API key. */
export const API_KEY_SECRET = 'agentImmune.llm.apiKey';

/** Registers the set/clear key commands. */
export function registerApiKeyCommands(services: Services): void {
  const { context, output } = services;
  context.subscriptions.push(
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
      void vscode.window.showInformationMessage('Agent Immune: LLM API key stored.');
    }),
    vscode.commands.registerCommand(CommandId.ClearLlmApiKey, async () => {
      await context.secrets.delete(API_KEY_SECRET);
      output.info('LLM API key removed from secret storage.');
      void vscode.window.showInformationMessage('Agent Immune: LLM API key cleared.');
    }),
  );
}
