// Extension entry: creates the shared services and registers each feature; every registration is disposed with the extension.
import * as vscode from 'vscode';
import { OUTPUT_CHANNEL_NAME } from './ids';
import { registerHarden } from './harden/register';
import { registerIntegrity } from './integrity/register';
import { registerAnalyzeTrace } from './analyze/analyzeTraceCommand';
import { registerAnalyzeWithLlm } from './llm/analyzeWithLlmCommand';
import { registerApiKeyCommands } from './llm/apiKeyCommands';
import { registerMonitor } from './monitor/persistedFileDiagnostics';

/** The shared services features receive. */
export interface Services {
  context: vscode.ExtensionContext;
  output: vscode.LogOutputChannel;
}

/** Called by VS Code on the first activation event. */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  const services: Services = { context, output };
  context.subscriptions.push(output);

  // Prompt hardening: missing-warning and unbounded-delegation diagnostics, quick fixes, and the three commands.
  registerHarden(services);

  // Skill integrity: lockfile watcher, drift diagnostics, quick fixes, status bar, Pin/Verify Skills, strict run guard.
  registerIntegrity(services);

  // Trace analysis: the Analyze Trace command, and the presentation (panel, diagnostics) Analyze Trace with LLM shares.
  const presentTrace = registerAnalyzeTrace(services);

  // LLM upgrade: the API key in SecretStorage, and Analyze Trace with LLM (user action only).
  registerApiKeyCommands(services);
  registerAnalyzeWithLlm(services, presentTrace);

  // Propagation monitoring: advisory Information diagnostics on the files agents persist to (SKILL.md, SOUL.md, memory).
  registerMonitor(services);
}

/** Nothing to do: everything is in context.subscriptions. */
export function deactivate(): void {}
