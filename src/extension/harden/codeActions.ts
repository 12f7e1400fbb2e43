// Quick fixes on hardening diagnostics: insert the warning, wrap in a boundary, fix all in this file or the workspace;
// on a pinned file the fix says so and runs the re-pin offer right after the edit.
import * as vscode from 'vscode';
import { fixEdits } from '../../core/harden/analyze';
import { HARDEN_FINDINGS, isHardenCode } from '../../core/harden/findings';
import { hardenNotice } from '../../core/harden/messages';
import type { HardenFinding } from '../../core/harden/types';
import { ourCode } from '../diagnostics';
import { CommandId } from '../ids';
import { findingRange, type HardenDiagnostics } from './diagnostics';
import { addEdits, isPinned, savedHashes } from './edits';

/** Kind of the "fix all" source action (editor.codeActionsOnSave: { "source.fixAll.agentImmune": "explicit" }). */
export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('agentImmune');

/** Provides the hardening quick fixes from the findings the diagnostics computed. */
export class HardenCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND];

  constructor(private readonly diagnostics: HardenDiagnostics) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const result = await this.diagnostics.findingsFor(document);
    if (!result || result.findings.length === 0) return [];
    const fixable = result.findings.filter((f) => f.fix.length > 0);
    const edit = (findings: readonly HardenFinding[]) => {
      const workspaceEdit = new vscode.WorkspaceEdit();
      addEdits(workspaceEdit, document.uri, (offset) => document.positionAt(offset), fixEdits(findings));
      return workspaceEdit;
    };
    const pinned = fixable.length > 0 && (await isPinned(document.uri));
    // The saved file's hash before the fix: the re-pin after it approves the fix only, not a drift from before.
    const before = pinned ? await savedHashes(document.uri) : undefined;
    const repin: vscode.Command | undefined = pinned ? { command: CommandId.RepinHardened, title: hardenNotice.repin, arguments: [document.uri, before] } : undefined;
    const suffix = pinned ? hardenNotice.pinnedSuffix : '';

    if (context.only && (context.only.contains(FIX_ALL_KIND) || FIX_ALL_KIND.contains(context.only))) {
      if (fixable.length === 0) return [];
      const all = new vscode.CodeAction(hardenNotice.fixAllTitle(suffix), FIX_ALL_KIND);
      all.edit = edit(fixable);
      all.command = repin;
      return [all];
    }

    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => isHardenCode(ourCode(d)));
    for (const diagnostic of ours) {
      const finding = fixable.find((f) => f.code === ourCode(diagnostic) && findingRange(document, f).isEqual(diagnostic.range));
      if (!finding) continue;
      const action = new vscode.CodeAction(`${HARDEN_FINDINGS[finding.code].fixLabel}${suffix}`, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = edit([finding]);
      action.command = repin;
      actions.push(action);
    }
    if (ours.some((d) => ourCode(d) === 'missing-immunity-warning')) {
      const missing = fixable.filter((f) => f.code === 'missing-immunity-warning');
      if (missing.length > 1) {
        const fileAction = new vscode.CodeAction(hardenNotice.warnFileTitle(suffix), vscode.CodeActionKind.QuickFix);
        fileAction.edit = edit(missing);
        fileAction.command = repin;
        actions.push(fileAction);
      }
      const workspaceAction = new vscode.CodeAction(hardenNotice.warnWorkspaceTitle, vscode.CodeActionKind.QuickFix);
      workspaceAction.command = { command: CommandId.HardenAllPrompts, title: hardenNotice.hardenAll };
      actions.push(workspaceAction);
    }
    return actions;
  }
}
