// Integrity commands: Pin Skills (write lockfile), Restore Lockfile from Git, Verify Skills, Approve change (re-pin one
// file), Show pinned vs current, Create Audit Key, Verify Audit Trail. Writing commands refuse in an untrusted
// workspace. Pin Skills asks first where an adopted lockfile is gone: pinning would trust what an attacker left.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { ignoredByGitText, integrityLog, lockfileIgnoredText, rootSkillMarkersText, integrityNotice, lockRestoredText, verifySkillsSummary } from '../../core/integrity/messages';
import { readGitBlob } from '../../node/integrity/gitBlob';
import { lockWorkspace, repinFile, restoreLockfile, type LockResult, type RepinResult, type RestoreResult } from '../../node/integrity/lock';
import type { VerifyReport } from '../../node/integrity/verify';
import { CommandId } from '../ids';
import { askModal, showError, showInfo, showWarning } from '../notify';
import type { BaseServices } from '../services';
import { editorAuditWriter, registerAuditKeyCommand } from './auditKey';
import { registerVerifyAuditTrail } from './auditTrail';
import { integrityRoots, type IntegrityController } from './controller';
import type { FolderIntegrity } from './folderWatch';

/** URI scheme of the read-only pinned content shown in the diff editor. */
export const PINNED_SCHEME = 'agent-immune-pinned';

function refuseUntrusted(what: string): boolean {
  if (vscode.workspace.isTrusted) return false;
  void showWarning(integrityNotice.untrusted(what));
  return true;
}

/** Registers the integrity commands and the pinned-content provider. */
export function registerIntegrityCommands(services: BaseServices, controller: IntegrityController): void {
  const pinned = new Map<string, string>();
  const onDidChange = new vscode.EventEmitter<vscode.Uri>();
  services.context.subscriptions.push(
    onDidChange,
    vscode.workspace.registerTextDocumentContentProvider(PINNED_SCHEME, { onDidChange: onDidChange.event, provideTextDocumentContent: (uri) => pinned.get(uri.toString()) ?? '' }),
    vscode.commands.registerCommand(CommandId.PinSkills, () => pinSkills(services, controller)),
    vscode.commands.registerCommand(CommandId.RestoreLockfile, () => restoreLockfiles(services, controller)),
    vscode.commands.registerCommand(CommandId.VerifySkills, () => verifySkills(controller)),
    vscode.commands.registerCommand(CommandId.ApproveSkillChange, (uri?: vscode.Uri) => approveChange(services, controller, uri)),
    registerAuditKeyCommand(services, CommandId.CreateAuditKey),
    registerVerifyAuditTrail(services, CommandId.VerifyAuditTrail),
    vscode.commands.registerCommand(CommandId.ShowPinnedDiff, async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) return false;
      const result = await pinnedContent(controller, target);
      if (typeof result !== 'string' || result === '') {
        void showInfo(result ? result.message : integrityNotice.notPinned);
        return false;
      }
      const left = vscode.Uri.from({ scheme: PINNED_SCHEME, path: target.path, query: String(Date.now()) });
      pinned.set(left.toString(), result);
      onDidChange.fire(left);
      await vscode.commands.executeCommand('vscode.diff', left, target, integrityNotice.diffTitle(path.basename(target.fsPath)));
      return true;
    }),
  );
}

/** Folders whose adopted lockfile is gone (a lockfile-missing finding), with whether git tracks it; verified afresh. */
async function missingLockfiles(controller: IntegrityController): Promise<{ folder: FolderIntegrity; git: boolean }[]> {
  await controller.verifyAll();
  return controller.all().flatMap((folder) => {
    const finding = folder.state?.report.findings.find((f) => f.code === 'lockfile-missing');
    return finding?.code === 'lockfile-missing' ? [{ folder, git: finding.adopted === 'git' }] : [];
  });
}

/**
 * Writes the lockfile of every workspace folder and extra root (recorded in the audit trail). Where an adopted lockfile
 * is gone it writes nothing and asks instead (restore from git, or pin anyway): a lockfile is deleted to hide a change,
 * and pinning would bless it. Resolves to undefined when it asked.
 */
async function pinSkills(services: BaseServices, controller: IntegrityController, confirmed = false): Promise<LockResult[] | undefined> {
  if (refuseUntrusted('Pin Skills')) return undefined;
  const roots = integrityRoots().map((root) => ({ dir: root.uri.fsPath, overrides: root.overrides() }));
  if (roots.length === 0) {
    void showWarning(integrityNotice.noFolderToPin);
    return undefined;
  }
  const missing = confirmed ? [] : await missingLockfiles(controller);
  if (missing.length > 0) {
    const lockfiles = missing.map((m) => (missing.length > 1 ? path.join(m.folder.root.uri.fsPath, m.folder.state!.report.lockfile) : m.folder.state!.report.lockfile));
    const restorable = missing.some((m) => m.git);
    const actions = [...(restorable ? [integrityNotice.restoreAction] : []), integrityNotice.pinAnywayAction];
    void askModal(integrityNotice.pinWouldTrust(lockfiles, restorable), ...actions).then((choice) => {
      if (choice === integrityNotice.restoreAction) void restoreLockfiles(services, controller);
      else if (choice === integrityNotice.pinAnywayAction) void pinSkills(services, controller, true);
    });
    return undefined;
  }
  try {
    const results = await Promise.all(roots.map(async (root) => lockWorkspace(root.dir, await editorAuditWriter(services, root.dir), root.overrides, { anew: confirmed })));
    await controller.startAll();
    const refused = results.flatMap((r) => (r.written ? [] : r.findings));
    if (refused.length > 0) {
      for (const finding of refused) services.output.error(integrityLog.pinRefusedPath(finding));
      void showError(integrityNotice.pinRefused(refused));
      return results;
    }
    const files = results.reduce((n, r) => n + r.files, 0);
    const lockfiles = results.map((r) => r.lockfile);
    services.output.info(integrityLog.pinned(files, lockfiles));
    void showInfo(integrityNotice.pinned(files, lockfiles));
    const ignored = results.flatMap((r) => r.ignoredByGit);
    if (ignored.length > 0) {
      services.output.warn(ignoredByGitText(ignored));
      void showWarning(ignoredByGitText(ignored));
    }
    for (const result of results.filter((r) => r.lockfileIgnored)) {
      services.output.warn(lockfileIgnoredText(result.lockfile));
      void showWarning(lockfileIgnoredText(result.lockfile));
    }
    const rootMarkers = results.flatMap((r) => r.rootSkillMarkers);
    if (rootMarkers.length > 0) {
      services.output.warn(rootSkillMarkersText(rootMarkers));
      void showWarning(rootSkillMarkersText(rootMarkers));
    }
    return results;
  } catch (error) {
    services.output.error(integrityNotice.pinFailed(errorMessage(error)));
    void showError(integrityNotice.pinFailed(errorMessage(error)));
    return undefined;
  }
}

/** Puts back from git each adopted lockfile that is gone, then verifies and says what changed since it was pinned. */
async function restoreLockfiles(services: BaseServices, controller: IntegrityController): Promise<RestoreResult[]> {
  if (refuseUntrusted('Restore Lockfile from Git')) return [];
  const missing = (await missingLockfiles(controller)).filter((m) => m.git);
  if (missing.length === 0) {
    void showInfo(integrityNotice.nothingToRestore);
    return [];
  }
  const restored: RestoreResult[] = [];
  for (const { folder } of missing) {
    const dir = folder.root.uri.fsPath;
    try {
      const result = await restoreLockfile(dir, await editorAuditWriter(services, dir), folder.root.overrides());
      services.output.info(lockRestoredText(result));
      restored.push(result);
    } catch (error) {
      services.output.error(integrityNotice.restoreFailed(dir, errorMessage(error)));
      void showError(integrityNotice.restoreFailed(dir, errorMessage(error)));
    }
  }
  if (restored.length > 0) {
    await controller.verifyAll();
    const summary = verifySkillsSummary(controller.all().flatMap((f) => (f.state ? [f.state.report] : [])));
    const text = `${integrityNotice.restored(restored.map((r) => r.lockfile))} ${summary.text}`;
    void (summary.level === 'warning' ? showWarning(text) : showInfo(text));
  }
  return restored;
}

/** Re-verifies every folder and summarises; returns the reports. */
async function verifySkills(controller: IntegrityController): Promise<VerifyReport[]> {
  await controller.verifyAll();
  const reports = controller.all().flatMap((f) => (f.state ? [f.state.report] : []));
  const summary = verifySkillsSummary(reports);
  void (summary.level === 'warning' ? showWarning(summary.text) : showInfo(summary.text));
  return reports;
}

/** Re-pins one file (the quick fix), recorded in the audit trail. */
async function approveChange(services: BaseServices, controller: IntegrityController, uri?: vscode.Uri): Promise<RepinResult | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  const folder = target && controller.folderOf(target);
  if (!target || !folder?.state) return undefined;
  if (refuseUntrusted('Approve change')) return undefined;
  const rel = path.relative(folder.state.ws.root, target.fsPath).split(path.sep).join('/');
  try {
    const result = await repinFile(folder.root.uri.fsPath, rel, await editorAuditWriter(services, folder.root.uri.fsPath), folder.root.overrides());
    services.output.info(integrityLog.repinned(rel, result.old, result.new));
    await folder.verifyNow(true);
    return result;
  } catch (error) {
    services.output.error(integrityLog.approveFailed(rel, errorMessage(error)));
    void showError(integrityNotice.cannotRepin(rel, errorMessage(error)));
    return undefined;
  }
}

/** The pinned content of a file from git, or why it is not available. */
async function pinnedContent(controller: IntegrityController, uri: vscode.Uri): Promise<string | { message: string }> {
  const folder = controller.folderOf(uri);
  const state = folder?.state;
  if (!state?.lock) return { message: integrityNotice.noValidLockfile };
  const rel = path.relative(state.ws.root, uri.fsPath).split(path.sep).join('/');
  const entry = state.lock.files[rel];
  if (!entry) return { message: integrityNotice.fileNotPinned(rel) };
  const blob = await readGitBlob(state.ws.root, entry.gitBlob);
  if (!blob) {
    return { message: integrityNotice.blobMissing(rel, entry.gitBlob, entry.integrity) };
  }
  return blob.toString('utf8');
}
