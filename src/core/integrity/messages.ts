// Wording of skill-integrity results, for the CLI, the editor (status bar, notifications, quick fixes, refusals, its
// log) and the runtime API; each finding's own message is in findings.ts. Counts in a summary always match the findings listed under it.
import { AUDIT_LOG, type ChainResult } from './audit';
import { blockingFindings, countIntegrityFindings, formatFinding } from './findings';
import { DEFAULT_LOCKFILE, type IntegrityFinding, type IntegrityStatus } from './types';
import { inline, shellWord } from '../text/printable';

/** What a summary needs of one verify report. */
export interface ReportSummary {
  status: IntegrityStatus;
  lockfile: string;
  findings: readonly IntegrityFinding[];
}

const STATUS_LABEL: Record<IntegrityStatus, string> = { clean: 'Clean', drift: 'Drift', 'corrupt-lockfile': 'Corrupt lockfile', 'no-lockfile': 'No lockfile' };

/** One line per finding: its code, then its message. */
export function findingLines(findings: readonly IntegrityFinding[]): string[] {
  return findings.map((f) => `${f.code.padEnd(20)} ${inline(formatFinding(f))}`);
}

/** Where a renamed file's folder went: both paths cut before the segments they end with in common (`a/x/f` from
 * `b/x/f` → `b/` to `a/`); none when the file name itself changed. */
function folderMove(finding: { path: string; from: string }): { from: string; to: string } | undefined {
  const to = finding.path.split('/');
  const from = finding.from.split('/');
  let shared = 0;
  while (shared < Math.min(to.length, from.length) - 1 && to[to.length - 1 - shared] === from[from.length - 1 - shared]) shared++;
  if (shared === 0 || to[to.length - 1] !== from[from.length - 1]) return undefined;
  const folder = (segments: string[]) => segments.slice(0, segments.length - shared).join('/') + '/';
  return { from: folder(from), to: folder(to) };
}

/** The finding lines of verify's text: a folder moved with two or more pinned files reads as one `renamed` line
 * counting them (each file stays a finding of its own in --json, SARIF and the editor). */
function verifyLines(findings: readonly IntegrityFinding[]): string[] {
  const moveOf = (f: IntegrityFinding) => (f.code === 'renamed' ? folderMove(f) : undefined);
  const keyOf = (move: { from: string; to: string }) => `${move.from}\0${move.to}`;
  const files = new Map<string, number>();
  for (const move of findings.map(moveOf)) if (move) files.set(keyOf(move), (files.get(keyOf(move)) ?? 0) + 1);
  const printed = new Set<string>();
  return findings.flatMap((f) => {
    const move = moveOf(f);
    const count = move ? (files.get(keyOf(move)) ?? 0) : 0;
    if (!move || count < 2) return findingLines([f]);
    if (printed.has(keyOf(move))) return [];
    printed.add(keyOf(move));
    return [`${'renamed'.padEnd(20)} ${inline(`${move.to} holds the ${count} missing pinned files of ${move.from} with their pinned content (folder renamed or moved?).`)}`];
  });
}

/** The verify text of the CLI: a head line counting the findings by code, one line per finding (code, message), how
 * to see a drifted file's change, and the block when strict refused (`recorded`: the run was recorded in the audit
 * trail). `pinned`: the lockfile's entries. */
export function verifyText(report: ReportSummary, pinned: Readonly<Record<string, { gitBlob: string }>>, blocked: boolean, recorded: boolean): string {
  const { findings, lockfile, status } = report;
  const pinnedFiles = Object.keys(pinned).length;
  if (findings.length === 0) {
    if (status === 'no-lockfile') return `No lockfile (${lockfile}): nothing to verify. Run "agent-immune lock${lockfile === DEFAULT_LOCKFILE ? '' : ` --lockfile ${lockfile}`}" to pin skill files.\n`;
    return `Clean: ${pinnedFiles} pinned ${pinnedFiles === 1 ? 'file matches' : 'files match'} ${lockfile}.\n`;
  }
  const head = `${STATUS_LABEL[status]}: ${findings.length} finding(s) against ${lockfile} (${countIntegrityFindings(findings)}).`;
  const drifts = findings.filter((f): f is Extract<IntegrityFinding, { code: 'drift' }> => f.code === 'drift' && Object.prototype.hasOwnProperty.call(pinned, f.path));
  const diff =
    drifts.length > 0
      ? [
          'See what changed, in the project root (git holds the pinned content once it was committed; in the editor: Agent Immune: Show Pinned vs Current):',
          ...drifts.slice(0, MAX_DIFF_HINTS).map((drift) => `  ${diffCommand(drift, pinned[drift.path].gitBlob)}`),
          ...(drifts.length > MAX_DIFF_HINTS ? [`  and ${drifts.length - MAX_DIFF_HINTS} more drifted file(s), each the same way with its gitBlob from ${lockfile}`] : []),
        ]
      : [];
  // What to do next: for changes lock can pin, approve or undo them (a link out of the root, an unpinnable file, a gone
  // or corrupt lockfile: their own findings say how to mend them, and lock would refuse).
  const approvable = status === 'drift' && findings.every((f) => APPROVABLE.has(f.code));
  const next = approvable ? ': review the changes; "agent-immune lock", with the --root and --lockfile given here, approves them, or undo them' : '';
  const tail = blocked ? [`Blocked (strict mode)${recorded ? `; recorded in ${AUDIT_LOG}` : ''}${next}.`] : [];
  return [head, ...verifyLines(findings), ...diff, ...tail].join('\n') + '\n';
}

/** Drifted files given a command that shows their change; the rest are counted. */
const MAX_DIFF_HINTS = 10;

/** The shell command that shows a drifted file's change against its pinned blob; for a link, its old and new targets
 * (diff cannot compare a folder). */
function diffCommand(drift: Extract<IntegrityFinding, { code: 'drift' }>, gitBlob: string): string {
  return drift.link !== undefined ? `git show ${gitBlob}; echo; readlink -- ${shellWord(drift.path)}` : `git show ${gitBlob} | diff -u - -- ${shellWord(drift.path)}`;
}

/** What `lock` says of pinned files git ignores and does not track: a clone will not have them (five named, then a count). */
export function ignoredByGitText(files: readonly string[]): string {
  const shown = files.slice(0, 5).map(inline).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
  return `${files.length} pinned file(s) are ignored by git, so a clone will not have them and verify there reports them missing: ${shown}. Delete them and lock again, or leave them out with integrity.exclude.`;
}

/** What `lock` says of a lockfile git ignores: it would never be committed, so clones and CI have nothing to verify against. */
export function lockfileIgnoredText(lockfile: string): string {
  return `${inline(lockfile)} is ignored by git (a .gitignore rule such as *.lock), so it will not be committed: clones and CI have no pins to verify. Add !${inline(lockfile)} to .gitignore, or commit it with git add -f.`;
}

/** What `lock` says of a skill marker at the workspace root: pinned alone, it leaves the skill's other files unpinned. */
export function rootSkillMarkersText(markers: readonly string[]): string {
  return `${markers.map(inline).join(', ')} at the workspace root is pinned as a file of its own, not as a skill folder: the scripts and files beside it are not pinned. Pin from the folder that holds the skill folder, or keep the skill in a folder of its own.`;
}

/** The finding codes `lock` approves by pinning the files as they are. */
const APPROVABLE: ReadonlySet<IntegrityFinding['code']> = new Set(['drift', 'skill-file-added', 'unpinned-skill', 'missing', 'renamed']);

/** The text of a `lock` that wrote nothing because some paths in the scope cannot be pinned. */
export function lockRefusedText(lockfile: string, findings: readonly IntegrityFinding[]): string {
  const head = `Not written: ${findings.length} path(s) in the pinned scope cannot be pinned (${countIntegrityFindings(findings)}); ${lockfile} was left as it was.`;
  const tail = 'Fix them, or exclude them (integrity.exclude in agent-immune.config.json), then run "agent-immune lock" again.';
  return [head, ...findingLines(findings), tail].join('\n') + '\n';
}

/** Why a `lock` wrote nothing where the adopted lockfile is gone: its lockfile-missing finding, restore or pin anew. */
export function lockMissingText(finding: IntegrityFinding): string {
  return `nothing written: ${formatFinding(finding)}`;
}

/** What a restore from git did, and what to do next (shared by `lock --restore` and the editor). */
export function lockRestoredText(restored: { lockfile: string; from: 'index' | 'HEAD'; files: number }): string {
  return `Restored ${restored.lockfile} from git (${restored.from === 'index' ? 'the index' : 'HEAD'}): ${restored.files} pinned files; verify shows what changed since they were pinned.`;
}

/** The status bar of the editor: its state, text and tooltip over every watched folder's report. */
export function integrityStatusBar(reports: readonly (ReportSummary & { strict: boolean })[]): { state: 'error' | 'warning' | 'clean'; text: string; tooltip: string } {
  const blocking = reports.flatMap((r) => blockingFindings(r.findings));
  const files = new Set(blocking.map((f) => f.path)).size;
  const tooltip = blocking.length > 0 ? `Skill integrity: ${blocking.length} blocking finding(s) (${countIntegrityFindings(blocking)}) in ${files} file(s). Click to open the Problems view.` : 'Skill integrity: every pinned file matches the lockfile.';
  if (reports.some((r) => r.strict && blockingFindings(r.findings).length > 0)) return { state: 'error', text: `$(error) Skills: strict block (${files})`, tooltip };
  if (reports.some((r) => r.status === 'corrupt-lockfile')) return { state: 'warning', text: '$(warning) Skills: lockfile corrupt', tooltip };
  if (reports.some((r) => r.status === 'no-lockfile' && r.findings.length > 0)) return { state: 'warning', text: '$(warning) Skills: lockfile missing', tooltip };
  if (blocking.length > 0) return { state: 'warning', text: `$(warning) Skills: ${files} drifted`, tooltip };
  return { state: 'clean', text: '$(shield) Skills: clean', tooltip };
}

/** The notification after Verify Skills. */
export function verifySkillsSummary(reports: readonly ReportSummary[]): { level: 'information' | 'warning'; text: string } {
  if (reports.every((r) => r.status === 'no-lockfile' && r.findings.length === 0)) return { level: 'information', text: 'no lockfile, nothing to verify. Run "Agent Immune: Pin Skills (write lockfile)" to pin your skills.' };
  const findings = reports.flatMap((r) => r.findings);
  const blocking = blockingFindings(findings);
  if (blocking.length === 0) return { level: 'information', text: 'skills clean.' };
  const more = blocking.length > 1 ? ' See the Problems view for the rest.' : '';
  return { level: 'warning', text: `${blocking.length} skill integrity finding(s) (${countIntegrityFindings(blocking)}): ${formatFinding(blocking[0])}${more}` };
}

/** Why a run-related command refused under strict mode, naming the first files. */
export function runRefusedText(action: string, files: readonly string[]): string {
  const shown = `${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}`;
  return `${action} refused — strict mode is on and ${files.length} skill/prompt file(s) or the lockfile do not match what was pinned (${shown}). Approve the change (quick fix) or revert it, then try again.`;
}

/** The message of a strict-mode failure of the runtime API: every blocking finding. */
export function strictFailureText(findings: readonly IntegrityFinding[]): string {
  return `skill integrity check failed (strict mode): ${blockingFindings(findings).map(formatFinding).join(' ')}`;
}

/** The audit key a verification used: its id and where it came from. */
export interface UsedAuditKey {
  id: string;
  source: string;
}

/**
 * What an intact audit chain proves, in words. `keyHint` says where a key would come from, for the unkeyed case; an
 * unkeyed chain proves order, not authorship.
 */
export function auditGuaranteeText(result: ChainResult, key: UsedAuditKey | undefined, keyHint: string): string {
  if (result.guarantee === 'keyed') return `keyed: every record carries a valid MAC of audit key ${key!.id} (${key!.source}), so no one without that key wrote, edited or rewrote any of them`;
  const order = 'this proves the order of the records and that none was edited, removed or inserted between them, not who wrote them: anyone who can write the file could have appended records or rewritten the whole chain';
  if (!key) return `unkeyed: no audit key was given (${keyHint}), so ${order}`;
  const { valid, missing, unchecked, firstUnverified } = result.macs;
  const others = [...(missing ? [`${missing} ${missing === 1 ? 'carries' : 'carry'} none`] : []), ...(unchecked ? [`${unchecked} carry a MAC of another key`] : [])].join(' and ');
  return `unkeyed: ${valid} record(s) carry a valid MAC of audit key ${key.id}; ${others} (the first at line ${firstUnverified}): those were written without this key, or forged, so for them ${order}`;
}

/** The verdict on one audit log, named `shown`: no log, broken at a line, or intact with what that proves and its head. */
export function auditVerifyText(result: ChainResult & { exists: boolean }, shown: string, key: UsedAuditKey | undefined, keyHint: string): string {
  if (!result.exists) return `No audit log at ${shown}: nothing to verify.`;
  if (result.broken) return `Broken: ${shown}:${result.broken.line}: ${result.broken.reason}: ${result.broken.detail}. ${result.records} record(s) before it are intact.`;
  const head = result.head ? `#${result.head.seq} ${result.head.hash}` : '(empty)';
  return `Intact: ${result.records} records in ${shown}; ${auditGuaranteeText(result, key, keyHint)}.\nHead ${head}: keep it elsewhere (CI log, release notes) to also detect records cut off the end.`;
}

/** The editor's notifications, prompts and titles about skill integrity (the editor adds the "Agent Immune: " prefix). */
export const integrityNotice = {
  /** A writing command refused in an untrusted workspace. */
  untrusted: (command: string) => `${command} is disabled in an untrusted workspace (no lockfile or audit writes). Trust the folder to enable it.`,
  /** The quick fix that re-pins a drifted file. */
  approveFix: 'Approve change (re-pin this file)',
  /** The quick fix that pins a file the lockfile does not list yet. */
  pinFix: 'Pin this file',
  /** The quick fix that shows a drifted file's pinned content beside the current one. */
  diffFix: 'Show pinned vs current',
  /** Show pinned vs current on a file the lockfile does not list. */
  notPinned: 'this file is not pinned.',
  /** Title of the pinned ↔ current diff editor. */
  diffTitle: (fileName: string) => `${fileName} (pinned ↔ current)`,
  /** Pin Skills with no folder open. */
  noFolderToPin: 'open a folder to pin its skills.',
  /** Pin Skills wrote nothing: paths in the scope cannot be pinned; names the first. */
  pinRefused: (refused: readonly IntegrityFinding[]) => `Pin Skills wrote nothing where ${refused.length} path(s) cannot be pinned (${countIntegrityFindings(refused)}): ${formatFinding(refused[0])}`,
  /** Pin Skills wrote the lockfiles. */
  pinned: (files: number, lockfiles: readonly string[]) => `pinned ${files} skill and prompt files in ${lockfiles.join(', ')}.`,
  /** Pin Skills where an adopted lockfile is gone: the question (it wrote nothing). */
  pinWouldTrust: (lockfiles: readonly string[], restorable: boolean) => {
    const [verb, it] = lockfiles.length > 1 ? ['are', 'them'] : ['is', 'it'];
    const how = restorable ? `Restoring ${it} from git checks the files against what was pinned.` : `Restore ${it} from where ${lockfiles.length > 1 ? 'they were' : 'it was'} kept to check the files against what was pinned.`;
    return `${lockfiles.join(', ')} ${verb} gone, and pinning now would trust every skill and prompt file as it is, including any change the lockfile would have shown. ${how} Nothing was written.`;
  },
  /** The answer that restores the lockfile from git. */
  restoreAction: 'Restore from Git',
  /** The answer that pins the files as they are. */
  pinAnywayAction: 'Pin Anyway',
  /** Restore Lockfile from Git with no lockfile gone that git tracks. */
  nothingToRestore: 'no lockfile is missing that git tracks: nothing to restore.',
  /** Restore Lockfile from Git put the lockfiles back (the verify summary follows). */
  restored: (lockfiles: readonly string[]) => `restored ${lockfiles.join(', ')} from git.`,
  /** Restoring one root's lockfile failed. */
  restoreFailed: (root: string, reason: string) => `Restore Lockfile from Git failed in ${root}: ${reason}`,
  /** Pin Skills failed. */
  pinFailed: (reason: string) => `Pin Skills failed: ${reason}`,
  /** Re-pinning one file (Approve change, or after hardening) failed. */
  cannotRepin: (file: string, reason: string) => `cannot re-pin ${file}: ${reason}`,
  /** No pinned content to diff: the folder has no valid lockfile. */
  noValidLockfile: 'no valid lockfile for this folder, so there is no pinned content to compare with.',
  /** No pinned content to diff: the lockfile does not list the file. */
  fileNotPinned: (file: string) => `${file} is not pinned.`,
  /** No pinned content to diff: git does not hold the pinned blob. */
  blobMissing: (file: string, gitBlob: string, integrity: string) =>
    `the pinned content of ${file} is not available: git blob ${gitBlob.slice(0, 12)} is not in this repository (the file was pinned before it was committed, or this folder is not a git checkout). The lockfile keeps only its hash (${integrity}).`,
  /** Create Audit Key when one exists: the question. */
  replaceAuditKey: 'an audit key exists. Records it MACed can only be verified with it; replace it?',
  /** Create Audit Key when one exists: the answer that replaces it. */
  replace: 'Replace',
  /** Where the key file is, when no path is configured. */
  userKeyFile: 'the user key file',
  /** Where the editor's audit key comes from when it made one. */
  secretStorage: 'VS Code secret storage',
  /** How to set up a key, for a chain verified without one. */
  createAuditKeyHint: '"Agent Immune: Create Audit Key"',
  /** Verify Audit Trail found no log in any root. */
  noAuditTrail: 'no audit trail in this workspace yet: nothing to verify (Pin Skills starts one).',
  /** Verify Audit Trail could not read a log. */
  auditVerifyFailed: (reason: string) => `Verify Audit Trail failed: ${reason}`,
  /** The new audit key was also written to the CLI's key file. */
  auditKeyShared: (file: string) => ` It is also in ${file}, so "agent-immune audit verify" checks the editor's records.`,
  /** The CLI's key file holds another key (or could not be written). */
  auditKeyNotShared: (file: string) => ` The CLI verifies the editor's records only with this key: ${file} already holds another one (or could not be written).`,
  /** Create Audit Key made a key (`shared`: one of the two sentences above). */
  auditKeyCreated: (id: string, shared: string) => `audit key ${id} created; the editor's audit records carry its MAC from now on.${shared}`,
  /** Create Audit Key failed. */
  auditKeyFailed: (reason: string) => `Create Audit Key failed: ${reason}`,
} as const;

/** The editor's output-channel lines about skill integrity. */
export const integrityLog = {
  /** A warned verify could not be recorded in the audit trail. */
  recordFailed: (reason: string) => `Could not record in the audit trail: ${reason}`,
  /** A strict block could not be recorded in the audit trail. */
  blockRecordFailed: (reason: string) => `Could not record the block: ${reason}`,
  /** The watchers could not start. */
  startFailed: (reason: string) => `Skill integrity failed to start: ${reason}`,
  /** A run-related command refused under strict mode. */
  runRefused: (action: string, files: readonly string[]) => `${action} refused (strict skill integrity): ${files.join(', ')}`,
  /** A folder's file watcher reported an error. */
  watcherError: (folder: string, reason: string) => `Skill integrity watcher (${folder}): ${reason}`,
  /** The folder's config holds a setting that cannot be meant (configWarnings). */
  configWarning: (folder: string, warnings: string) => `agent-immune.config.json in ${inline(folder)}: ${warnings}`,
  /** A folder's check failed. */
  checkFailed: (folder: string, reason: string) => `Skill integrity check failed in ${folder}: ${reason}`,
  /** One path Pin Skills refused. */
  pinRefusedPath: (finding: IntegrityFinding) => `Pin Skills: ${formatFinding(finding)}`,
  /** Pin Skills wrote the lockfiles. */
  pinned: (files: number, lockfiles: readonly string[]) => `Pinned ${files} files: ${lockfiles.join(', ')}`,
  /** Approve change re-pinned one file. */
  repinned: (file: string, old: string | undefined, current: string | undefined) => `Re-pinned ${file}: ${old ?? '(unpinned)'} -> ${current ?? '(removed)'} (recorded in the audit trail)`,
  /** Approve change failed. */
  approveFailed: (file: string, reason: string) => `Approve change failed for ${file}: ${reason}`,
  /** The CLI's audit key could not be used. */
  auditKeyUnused: (reason: string) => `Audit key not used: ${reason}`,
  /** Verify Audit Trail could not open a broken log in the editor (its verdict was shown). */
  auditLogNotOpened: (file: string, reason: string) => `Could not open ${file} at its broken record: ${reason}`,
  /** The new audit key was not written to the CLI's key file. */
  auditKeyNotWritten: (file: string, reason: string) => `Audit key not written to ${file}: ${reason}`,
  /** Create Audit Key stored a key (`shared`: one of integrityNotice's two sentences). */
  auditKeyStored: (id: string, shared: string) => `Audit key ${id} stored in secret storage.${shared}`,
} as const;
