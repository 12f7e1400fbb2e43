// Wording of the editor's prompt hardening: notifications (the editor adds the "Agent Immune: " prefix), quick fix
// titles and log lines; each finding's own message and fix label are in findings.ts.

/** The editor's notifications about hardening prompts. */
export const hardenNotice = {
  /** Insert Immunity Warning on a system prompt that already carries it. */
  alreadyHardened: 'this prompt already carries the immunity warning.',
  /** Insert Delegation Boundary with nothing selected and no finding under the cursor. */
  selectDelegated: 'select the delegated content to wrap in a boundary.',
  /** Harden All Prompts found nothing to change. */
  allHardened: (files: number) => `all prompts found in ${files} file(s) are hardened.`,
  /** Hardening changed pinned files in an untrusted workspace, where the lockfile cannot be written. */
  repinUntrusted: (names: string) => `${names} is pinned and its hash changed. Re-pinning writes the lockfile, which is off in an untrusted workspace.`,
  /** Hardening changed pinned files: the question whether to re-pin them now. */
  repinQuestion: (names: string, count: number) => `${names} ${count === 1 ? 'is' : 'are'} pinned in the lockfile, and hardening changed the hash. Re-pin now? (recorded in the audit trail)`,
  /** A hardened pinned file whose saved content had already drifted from its pin before the edit. */
  repinDrifted: (file: string) => `${file} was not re-pinned: before hardening edited it, it no longer matched its pin (a change on disk, or unsaved in the editor). Review that change first (Verify Skills), then approve it.`,
  /** The answer that re-pins them. */
  repin: 'Re-pin',
  /** The answer that leaves them drifted. */
  later: 'Later',
  /** What a quick fix on a pinned file adds to its title. */
  pinnedSuffix: ' (pinned file: changes its hash, offers to re-pin)',
  /** The fix-all source action of a file. */
  fixAllTitle: (suffix: string) => `Harden all prompts of this file${suffix}`,
  /** The quick fix that warns every prompt of a file. */
  warnFileTitle: (suffix: string) => `Insert immunity warning in all prompts of this file${suffix}`,
  /** The quick fix that runs Harden All Prompts. */
  warnWorkspaceTitle: 'Insert immunity warning in all prompts of the workspace…',
  /** The command the workspace quick fix runs. */
  hardenAll: 'Harden All Prompts',
} as const;

/** The editor's output-channel lines about hardening. */
export const hardenLog = {
  /** The project config's harden section could not be used. */
  defaults: (reason: string) => `Hardening uses its defaults: ${reason}`,
  /** A hardened pinned file could not be saved, so it was not re-pinned. */
  repinUnsaved: (file: string) => `Re-pin of ${file} skipped: the file could not be saved.`,
  /** Re-pinning a hardened file failed. */
  repinFailed: (file: string, reason: string) => `Re-pin of ${file} failed: ${reason}`,
  /** A hardened pinned file left drifted: it had changed since it was pinned before hardening edited it. */
  repinDrifted: (file: string) => `Re-pin of ${file} refused: it no longer matched its pin before hardening edited it`,
  /** The files re-pinned after hardening. */
  repinned: (files: readonly string[]) => `Re-pinned after hardening: ${files.join(', ')}`,
} as const;
