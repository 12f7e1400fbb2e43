// Integrity commands: Pin Skills (write lockfile), Verify Skills, Approve change (re-pin one file), Show pinned vs
// current. Writing commands refuse in an untrusted workspace.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { countIntegrityFindings, formatFinding } from '../../core/integrity/findings';
import { verifySkillsSummary } from '../../core/integrity/messages';
import { editorAuditWriter } from './auditKey';
import { readGitBlob } from '../../node/integrity/gitBlob';
import { lockWorkspace, repinFile, type LockResult, type RepinResult } from '../../node/integrity/lock';
import type { VerifyReport } from '../../node/integrity/verify';
import type { Services } from '../extension';
import { CommandId } from '../ids';
import { EXTENSION_ACTOR, type IntegrityController } from './controller';
import { extraRoots, integrityOverrides } from './settings';

/** URI scheme of the read-only pinned content shown in the diff editor. */
export const PINNED_SCHEME = 'agent-immune-pinned';

function refuseUntrusted(what: string): boolean {
  if (vscode.workspace.isTrusted) return false;
  void vscode.window.showWarningMessage(`Agent Immune: ${what} is disabled in an untrusted workspace (no lockfile or audit writes). Trust the folder to enable it.`);
  return true;
}

/** Registers the integrity commands and the pinned-content provider. */
export function registerIntegrityCommands(services: Services, controller: IntegrityController): void {
  const pinned = new Map<string, string>();
  const onDidChange = new vscode.EventEmitter<vscode.Uri>();
  services.context.subscriptions.push(
    onDidChange,
    vscode.workspace.registerTextDocumentContentProvider(PINNED_SCHEME, { onDidChange: onDidChange.event, provideTextDocumentContent: (uri) => pinned.get(uri.toString()) ?? '' }),
    vscode.commands.registerCommand(CommandId.PinSkills, () => pinSkills(services, controller)),
    vscode.commands.registerCommand(CommandId.VerifySkills, () => verifySkills(controller)),
    vscode.commands.registerCommand(CommandId.ApproveSkillChange, (uri?: vscode.Uri) => approveChange(services, controller, uri)),
    vscode.commands.registerCommand(CommandId.ShowPinnedDiff, async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) return false;
      const result = await pinnedContent(controller, target);
      if (typeof result !== 'string' || result === '') {
        void vscode.window.showInformationMessage(`Agent Immune: ${result ? result.message : 'this file is not pinned.'}`);
        return false;
      }
      const left = vscode.Uri.from({ scheme: PINNED_SCHEME, path: target.path, query: String(Date.now()) });
      pinned.set(left.toString(), result);
      onDidChange.fire(left);
      await vscode.commands.executeCommand('vscode.diff', left, target, `${path.basename(target.fsPath)} (pinned ↔ current)`);
      return true;
    }),
  );
}

/** Writes the lockfile of every workspace folder and extra root (recorded in the audit trail). */
async function pinSkills(services: Services, controller: IntegrityController): Promise<LockResult[] | undefined> {
  if (refuseUntrusted('Pin Skills')) return undefined;
  const roots = [
    ...(vscode.workspace.workspaceFolders ?? []).map((folder) => ({ dir: folder.uri.fsPath, overrides: integrityOverrides(folder) })),
    ...extraRoots().map((dir) => ({ dir, overrides: {} })),
  ];
  if (roots.length === 0) {
    void vscode.window.showWarningMessage('Agent Immune: open a folder to pin its skills.');
    return undefined;
  }
  try {
    const results = await Promise.all(roots.map(async (root) => lockWorkspace(root.dir, await editorAuditWriter(services.context.secrets, root.dir, services.output, EXTENSION_ACTOR), root.overrides)));
    await controller.startAll();
    const refused = results.flatMap((r) => (r.written ? [] : r.findings));
    if (refused.length > 0) {
      for (const finding of refused) services.output.error(`Pin Skills: ${formatFinding(finding)}`);
      void vscode.window.showErrorMessage(`Agent Immune: Pin Skills wrote nothing where ${refused.length} path(s) cannot be pinned (${countIntegrityFindings(refused)}): ${formatFinding(refused[0])}`);
      return results;
    }
    const files = results.reduce((n, r) => n + r.files, 0);
    services.output.info(`Pinned ${files} files: ${results.map((r) => r.lockfile).join(', ')}`);
    void vscode.window.showInformationMessage(`Agent Immune: pinned ${files} skill and prompt files in ${results.map((r) => r.lockfile).join(', ')}.`);
    return results;
  } catch (error) {
    services.output.error(`Pin Skills failed: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Agent Immune: Pin Skills failed: ${(error as Error).message}`);
    return undefined;
  }
}

/** Re-verifies every folder and summarises; returns the reports. */
async function verifySkills(controller: IntegrityController): Promise<VerifyReport[]> {
  await controller.verifyAll();
  const reports = controller.all().flatMap((f) => (f.state ? [f.state.report] : []));
  const summary = verifySkillsSummary(reports);
  if (summary.level === 'warning') void vscode.window.showWarningMessage(`Agent Immune: ${summary.text}`);
  else void vscode.window.showInformationMessage(`Agent Immune: ${summary.text}`);
  return reports;
}

/** Re-pins one file (the quick fix), recorded in the audit trail. */
async function approveChange(services: Services, controller: IntegrityController, uri?: vscode.Uri): Promise<RepinResult | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  const folder = target && controller.folderOf(target);
  if (!target || !folder?.state) return undefined;
  if (refuseUntrusted('Approve change')) return undefined;
  const rel = path.relative(folder.state.ws.root, target.fsPath).split(path.sep).join('/');
  try {
    const result = await repinFile(folder.root.uri.fsPath, rel, await editorAuditWriter(services.context.secrets, folder.root.uri.fsPath, services.output, EXTENSION_ACTOR), folder.root.overrides());
    services.output.info(`Re-pinned ${rel}: ${result.old ?? '(unpinned)'} -> ${result.new ?? '(removed)'} (recorded in the audit trail)`);
    await folder.verifyNow(true);
    return result;
  } catch (error) {
    services.output.error(`Approve change failed for ${rel}: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Agent Immune: cannot re-pin ${rel}: ${(error as Error).message}`);
    return undefined;
  }
}

/** The pinned content of a file from git, or why it is not available. */
async function pinnedContent(controller: IntegrityController, uri: vscode.Uri): Promise<string | { message: string }> {
  const folder = controller.folderOf(uri);
  const state = folder?.state;
  if (!state?.lock) return { message: 'no valid lockfile for this folder, so there is no pinned content to compare with.' };
  const rel = path.relative(state.ws.root, uri.fsPath).split(path.sep).join('/');
  const entry = state.lock.files[rel];
  if (!entry) return { message: `${rel} is not pinned.` };
  const blob = await readGitBlob(state.ws.root, entry.gitBlob);
  if (!blob) {
    return { message: `the pinned content of ${rel} is not available: git blob ${entry.gitBlob.slice(0, 12)} is not in this repository (the file was pinned before it was committed, or this folder is not a git checkout). The lockfile keeps only its hash (${entry.integrity}).` };
  }
  return blob.toString('utf8');
}
