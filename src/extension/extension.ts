// Extension entry: creates the shared services and registers each feature from its register.ts; every registration
// is disposed with the extension. Activation loads only what the diagnostics need: the trace, LLM and live commands
// load their bundles (dist/trace.js, dist/llm.js, dist/live.js) on first use.
import * as vscode from 'vscode';
import { registerAnalyze } from './analyze/register';
import { registerHarden } from './harden/register';
import { OUTPUT_CHANNEL_NAME } from './ids';
import { registerIntegrity } from './integrity/register';
import { registerLive } from './live/register';
import { registerLlm } from './llm/register';
import { registerMonitor } from './monitor/register';
import type { Services } from './services';

/** Called by VS Code on the first activation event. */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(output);

  // Skill integrity: lockfile watcher, drift diagnostics, quick fixes, status bar, Pin/Verify Skills. Its controller is
  // the strict-mode run guard every run-related command asks first.
  const runGuard = registerIntegrity({ context, output });
  const services: Services = { context, output, runGuard };

  // Prompt hardening: missing-warning and unbounded-delegation diagnostics, quick fixes, and the three commands.
  registerHarden(services);

  // Propagation monitoring: advisory Information diagnostics on the files agents persist to (SKILL.md, SOUL.md, memory).
  registerMonitor(services);

  // Trace analysis: Analyze Trace (the panel, diagnostics and the presentation the LLM command shares, on first use).
  const trace = registerAnalyze(services);

  // LLM upgrade: the API key in SecretStorage, and Analyze Trace with LLM (user action only).
  registerLlm(services, trace);

  // The live guard: Watch Live Runs (a receiver in the editor, or a running serve), the Live Runs view, live graphs.
  registerLive(services);
}

/** Nothing to do: everything is in context.subscriptions. */
export function deactivate(): void {}
