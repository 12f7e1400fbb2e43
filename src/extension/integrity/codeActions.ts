// Quick fixes on integrity diagnostics: "Approve change (re-pin this file)" and "Show pinned vs current" on drift,
// "Pin this file" on a file the lockfile does not pin yet. The re-pin fixes write the lockfile, so an untrusted workspace is not offered them.
import * as vscode from 'vscode';
import { integrityNotice } from '../../core/integrity/messages';
import { ourCode } from '../diagnostics';
import { CommandId } from '../ids';

/** Offers the integrity quick fixes, found by the diagnostic's code. */
export class IntegrityCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const code = ourCode(diagnostic);
      if ((code === 'drift' || code === 'skill-file-added' || code === 'unpinned-skill') && vscode.workspace.isTrusted) {
        const approve = new vscode.CodeAction(code === 'drift' ? integrityNotice.approveFix : integrityNotice.pinFix, vscode.CodeActionKind.QuickFix);
        approve.diagnostics = [diagnostic];
        approve.command = { command: CommandId.ApproveSkillChange, title: approve.title, arguments: [document.uri] };
        actions.push(approve);
      }
      if (code === 'drift') {
        const diff = new vscode.CodeAction(integrityNotice.diffFix, vscode.CodeActionKind.QuickFix);
        diff.diagnostics = [diagnostic];
        diff.command = { command: CommandId.ShowPinnedDiff, title: diff.title, arguments: [document.uri] };
        actions.push(diff);
      }
    }
    return actions;
  }
}
