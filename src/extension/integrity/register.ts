// Skill integrity in the editor: watcher + diagnostics + status bar (controller), quick fixes, commands, run guard.
import * as vscode from 'vscode';
import type { Services } from '../extension';
import { SettingKey } from '../ids';
import { IntegrityCodeActions } from './codeActions';
import { registerIntegrityCommands } from './commands';
import { IntegrityController } from './controller';
import { setRunGuardController } from './runGuard';

/** Registers the integrity feature; the first verify runs in the background. */
export function registerIntegrity(services: Services): IntegrityController {
  const controller = new IntegrityController(services.output, services.context.secrets);
  setRunGuardController(controller);
  services.context.subscriptions.push(
    controller,
    { dispose: () => setRunGuardController(undefined) },
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new IntegrityCodeActions(), { providedCodeActionKinds: IntegrityCodeActions.kinds }),
    // A save in the editor is re-verified at once; the watcher covers changes made outside the editor.
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (document.uri.scheme === 'file') void controller.folderOf(document.uri)?.saved(document.uri.fsPath);
    }),
    // Drift seen in Restricted Mode is not recorded then; it is once the user trusts the folder.
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.trustGranted()),
    vscode.workspace.onDidChangeWorkspaceFolders((event) => {
      for (const folder of event.removed) controller.stopFolder(folder);
      for (const folder of event.added) void controller.startFolder(folder);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        if (event.affectsConfiguration(`${SettingKey.Section}.integrity`, folder)) void controller.startFolder(folder);
      }
      if (event.affectsConfiguration(`${SettingKey.Section}.${SettingKey.IntegrityExtraRoots}`)) void controller.startExtraRoots();
    }),
  );
  registerIntegrityCommands(services, controller);
  controller.startAll().catch((error: unknown) => services.output.error(`Skill integrity failed to start: ${(error as Error).message}`));
  return controller;
}
