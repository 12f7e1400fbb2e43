// Prompt hardening in the editor: diagnostics, quick fixes and the three commands, registered as one feature.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { HardenCodeActions } from './codeActions';
import { registerHardenCommands } from './commands';
import { HardenDiagnostics } from './diagnostics';

const SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'markdown' },
  { scheme: 'file', pattern: '**/*.mdc' },
  { scheme: 'file', language: 'typescript' },
  { scheme: 'file', language: 'typescriptreact' },
  { scheme: 'file', language: 'javascript' },
  { scheme: 'file', language: 'javascriptreact' },
  { scheme: 'file', language: 'python' },
];

/** Registers hardening diagnostics, code actions and commands. */
export function registerHarden(services: Services): void {
  const diagnostics = new HardenDiagnostics(services.output);
  diagnostics.register(services.context.subscriptions);
  services.context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(SELECTOR, new HardenCodeActions(diagnostics), { providedCodeActionKinds: HardenCodeActions.kinds }),
  );
  registerHardenCommands(services, diagnostics);
}
