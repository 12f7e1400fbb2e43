// The editor's skill-integrity service: one watcher per workspace folder and extra root, diagnostics, the status bar item, audit
// records of each change of state (trusted workspaces only, keyed with the editor's audit key) and the strict-mode run
// guard, deciding as the CLI and the runtime API do (integrityVerdict).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { integrityVerdict } from '../../core/integrity/compare';
import { integrityLog, integrityStatusBar, runRefusedText } from '../../core/integrity/messages';
import { brokenTrailWarning, recordIntegrityRun, type IntegrityRun } from '../../node/integrity/auditLog';
import type { VerifyState } from '../../node/integrity/verify';
import { showError, showWarning } from '../notify';
import type { BaseServices, RunGuard } from '../services';
import { setting } from '../settings';
import { editorAuditWriter } from './auditKey';
import { integrityDiagnostics } from './diagnostics';
import { FolderIntegrity, type IntegrityRoot } from './folderWatch';
import { extraRoots, integrityOverrides } from './settings';

const EXTRA_PREFIX = 'extra-root:';

/** An extra root (outside the workspace) as an integrity root: its own lockfile and config, no folder settings. */
export function extraRoot(dir: string): IntegrityRoot {
  return { key: EXTRA_PREFIX + dir, name: dir, uri: vscode.Uri.file(dir), overrides: () => ({}) };
}

/** A workspace folder as an integrity root: its settings override its config. */
function folderRoot(folder: vscode.WorkspaceFolder): IntegrityRoot {
  return { key: folder.uri.toString(), name: folder.name, uri: folder.uri, overrides: () => integrityOverrides(folder) };
}

/** Every integrity root: the workspace folders, then the extra roots of agentImmune.integrity.extraRoots. */
export function integrityRoots(): IntegrityRoot[] {
  return [...(vscode.workspace.workspaceFolders ?? []).map(folderRoot), ...extraRoots().map(extraRoot)];
}

/** Owns every folder's integrity state and what the editor shows of it. */
export class IntegrityController implements RunGuard, vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('agent-immune-integrity');
  readonly statusBar = vscode.window.createStatusBarItem('agentImmune.integrity', vscode.StatusBarAlignment.Left, 50);
  private readonly folders = new Map<string, FolderIntegrity>();
  private readonly published = new Map<string, string[]>();
  /** Config warnings already said, with their folder, as said. */
  private readonly configWarned = new Set<string>();

  private readonly output: vscode.LogOutputChannel;

  constructor(private readonly services: BaseServices) {
    this.output = services.output;
    this.statusBar.name = 'Agent Immune: Skill Integrity';
    this.statusBar.command = 'workbench.actions.view.problems';
  }

  /** Starts watching every open folder (and folders added later) and the extra roots. */
  async startAll(): Promise<void> {
    await Promise.all([...(vscode.workspace.workspaceFolders ?? []).map((folder) => this.startFolder(folder)), this.startExtraRoots()]);
  }

  /** Starts or restarts one workspace folder (settings change). */
  async startFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    this.stopRoot(folder.uri.toString());
    if (!setting('integrity.enabled', folder)) {
      this.render();
      return;
    }
    await this.startRoot(folderRoot(folder));
  }

  /** Stops one workspace folder and clears its diagnostics. */
  stopFolder(folder: vscode.WorkspaceFolder): void {
    this.stopRoot(folder.uri.toString());
  }

  /** (Re)starts the extra roots of the user setting agentImmune.integrity.extraRoots (e.g. ~/.claude/skills). */
  async startExtraRoots(): Promise<void> {
    for (const key of [...this.folders.keys()].filter((k) => k.startsWith(EXTRA_PREFIX))) this.stopRoot(key);
    await Promise.all(extraRoots().map((dir) => this.startRoot(extraRoot(dir))));
  }

  private async startRoot(root: IntegrityRoot): Promise<void> {
    const watcher = new FolderIntegrity(root, (f) => this.publish(f), this.output);
    this.folders.set(root.key, watcher);
    await watcher.start();
  }

  private stopRoot(key: string): void {
    this.folders.get(key)?.dispose();
    this.folders.delete(key);
    for (const uri of this.published.get(key) ?? []) this.diagnostics.delete(vscode.Uri.parse(uri));
    this.published.delete(key);
    this.render();
  }

  /** The watched root holding `uri` (the innermost when roots nest), if any. */
  folderOf(uri: vscode.Uri): FolderIntegrity | undefined {
    let best: FolderIntegrity | undefined;
    for (const folder of this.folders.values()) {
      const relative = path.relative(folder.root.uri.fsPath, uri.fsPath);
      const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
      if (inside && (!best || folder.root.uri.fsPath.length > best.root.uri.fsPath.length)) best = folder;
    }
    return best;
  }

  /** Every watched folder. */
  all(): FolderIntegrity[] {
    return [...this.folders.values()];
  }

  /** Re-verifies every folder fully and waits for the results. */
  async verifyAll(): Promise<void> {
    await Promise.all(this.all().map((f) => f.verifyNow(true)));
  }

  private publish(folder: FolderIntegrity): void {
    const state = folder.state;
    if (!state) return;
    const key = folder.root.key;
    const byFile = integrityDiagnostics(state);
    // One batched update (a burst of 2,000 files is one message to the editor, not 2,000).
    const cleared = (this.published.get(key) ?? []).filter((uri) => !byFile.has(uri)).map((uri): [vscode.Uri, undefined] => [vscode.Uri.parse(uri), undefined]);
    this.diagnostics.set([...cleared, ...byFile.values()]);
    this.published.set(key, [...byFile.keys()]);
    this.render();
    this.recordNewFindings(folder);
    this.warnAboutConfig(state);
  }

  /** Says once per session what a folder's config holds that cannot be meant (globs that never match), in the log and
   * one notice. */
  private warnAboutConfig(state: VerifyState): void {
    if (state.ws.configWarnings.length === 0) return;
    const text = integrityLog.configWarning(state.ws.root, state.ws.configWarnings.join('; '));
    if (this.configWarned.has(text)) return;
    this.configWarned.add(text);
    this.output.warn(text);
    void showWarning(text);
  }

  /** Records the folder's changes of state in the audit trail (the trail itself says what is recorded already, so each
   * finding is recorded once, and again when it clears); never while the workspace is untrusted (what changed is
   * recorded when trust is granted, see `trustGranted`). */
  private recordNewFindings(folder: FolderIntegrity): void {
    const state = folder.state;
    if (!state || !vscode.workspace.isTrusted) return;
    void this.record(state, { findings: state.report.findings, decision: 'warn' }, integrityLog.recordFailed);
  }

  private async record(state: VerifyState, run: IntegrityRun, failure: (reason: string) => string): Promise<void> {
    try {
      const { broken } = await recordIntegrityRun(state.ws.root, run, await editorAuditWriter(this.services, state.ws.root));
      if (broken) this.output.warn(brokenTrailWarning(broken));
    } catch (error) {
      this.output.error(failure(errorMessage(error)));
    }
  }

  /** The workspace was just trusted: records what drifted while it was not. */
  trustGranted(): void {
    for (const folder of this.all()) this.recordNewFindings(folder);
  }

  /** Updates the status bar: clean / N drifted / strict block / corrupt lockfile; hidden when nothing is pinned. */
  render(): void {
    const states = this.all().flatMap((f) => (f.state && (f.state.report.status !== 'no-lockfile' || f.state.report.findings.length > 0) ? [f.state] : []));
    if (states.length === 0) {
      this.statusBar.hide();
      return;
    }
    const { state, text, tooltip } = integrityStatusBar(states.map((s) => s.report));
    this.statusBar.text = text;
    this.statusBar.tooltip = tooltip;
    this.statusBar.backgroundColor = state === 'clean' ? undefined : new vscode.ThemeColor(`statusBarItem.${state}Background`);
    this.statusBar.show();
  }

  /** Strict-mode guard for run-related commands: false (and the block recorded, and the user told why) while any
   * finding exists. */
  async assertRunAllowed(action: string): Promise<boolean> {
    await Promise.all(this.all().map((f) => (f.state ? undefined : f.verifyNow(true))));
    const blocked = this.all().flatMap((f) => (f.state && integrityVerdict(f.state.report).blocked ? [f.state] : []));
    if (blocked.length === 0) return true;
    const findings = blocked.flatMap((s) => integrityVerdict(s.report).blocking);
    if (vscode.workspace.isTrusted) {
      for (const state of blocked) await this.record(state, { findings: state.report.findings, decision: 'block', blockedBy: action }, integrityLog.blockRecordFailed);
    }
    const files = [...new Set(findings.map((f) => f.path))];
    this.output.warn(integrityLog.runRefused(action, files));
    void showError(runRefusedText(action, files));
    return false;
  }

  dispose(): void {
    for (const folder of this.folders.values()) folder.dispose();
    this.folders.clear();
    this.diagnostics.dispose();
    this.statusBar.dispose();
  }
}
