// Prompt hardening in the editor: diagnostics, quick fixes and the three commands, registered as one feature.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { HardenCodeActions } from './codeActions';
import { registerHardenCommands } from './commands';
import { HardenDiagnostics } from './diagnostics';

// Every file: which ones are prompts is the harden config's to say (its globs, as the diagnostics read them).
const SELECTOR: vscode.DocumentSelector = { scheme: 'file' };

/** Registers hardening diagnostics, code actions and commands. */
export function registerHarden(services: Services): void {
  const diagnostics = new HardenDiagnostics(services.output);
  diagnostics.register(services.context.subscriptions);
  services.context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(SELECTOR, new HardenCodeActions(diagnostics), { providedCodeActionKinds: HardenCodeActions.kinds }),
  );
  registerHardenCommands(services, diagnostics);
}
