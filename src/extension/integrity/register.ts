// Skill integrity in the editor: watcher + diagnostics + status bar (controller), quick fixes, commands; the controller
// is the strict-mode run guard the other features receive in their Services.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { integrityLog } from '../../core/integrity/messages';
import type { BaseServices, RunGuard } from '../services';
import { affects } from '../settings';
import { IntegrityCodeActions } from './codeActions';
import { registerIntegrityCommands } from './commands';
import { IntegrityController } from './controller';

/** Registers the integrity feature and returns its run guard; the first verify runs in the background. */
export function registerIntegrity(services: BaseServices): RunGuard {
  const controller = new IntegrityController(services);
  services.context.subscriptions.push(
    controller,
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
        if (affects(event, 'integrity', folder)) void controller.startFolder(folder);
      }
      if (affects(event, 'integrity.extraRoots')) void controller.startExtraRoots();
    }),
  );
  registerIntegrityCommands(services, controller);
  controller.startAll().catch((error: unknown) => services.output.error(integrityLog.startFailed(errorMessage(error))));
  return controller;
}
