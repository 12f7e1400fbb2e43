// Wording of the editor's prompt hardening: notifications (the editor adds the "Agent Immune: " prefix), quick fix
// titles and log lines; each finding's own message and fix label are in findings.ts.

const manualCaveat = (manual: number) => (manual > 0 ? ` ${manual} finding(s) need a manual fix (no safe text edit; see Problems).` : '');
const notCheckedCaveat = (notChecked: string) => (notChecked ? ` Not checked: ${notChecked} (see the Agent Immune output).` : '');

/**
 * What a run that found nothing to fix says of the prompts it found in `read` ("3 file(s) read"): only system prompts
 * are said to carry the immunity warning, since user turns and messages need none.
 */
export function nothingToHarden(read: string, system: number, other: number): string {
  if (system + other === 0) return `no prompts found in ${read}`;
  if (system === 0) return `no system prompt among the ${other} prompt(s) found in ${read} (user turns and messages need no immunity warning), and none lacks its delegation boundary`;
  return `all ${system} system prompt(s) found in ${read} carry the immunity warning, and all ${system + other} prompt(s) (${system} system, ${other} other) their delegation boundaries`;
}

/** The editor's notifications about hardening prompts. */
export const hardenNotice = {
  /** Insert Immunity Warning on a system prompt that already carries it. */
  alreadyHardened: 'this prompt already carries the immunity warning.',
  /** Insert Delegation Boundary with nothing selected and no finding under the cursor. */
  selectDelegated: 'select the delegated content to wrap in a boundary.',
  /** Harden All Prompts found nothing to change (`notChecked`: what it could not check, from notCheckedSummary). */
  allHardened: (files: number, system: number, other: number, notChecked: string) =>
    `${system > 0 ? 'hardened' : 'nothing to harden'}: ${nothingToHarden(`${files} file(s)`, system, other)}.${notCheckedCaveat(notChecked)}`,
  /** Harden All Prompts applied its fixes but could not check or fix everything (`manual`: findings with no safe edit). */
  hardenedSome: (files: number, notChecked: string, manual: number) => `hardened the prompts of ${files} file(s).${manualCaveat(manual)}${notCheckedCaveat(notChecked)}`,
  /** Harden All Prompts found findings but none it can fix by itself. */
  onlyManual: (manual: number, notChecked: string) => `nothing to fix automatically.${manualCaveat(manual)}${notCheckedCaveat(notChecked)}`,
  /** The diagnostic on a prompt sink whose value cannot be read. */
  sinkNotChecked: (anchor: string, reason: string) => `${anchor}: this prompt is not checked for the immunity warning: ${reason}.`,
  /** The diagnostic on a file that could not be analysed (`error` as FileAnalysis words it). */
  fileNotChecked: (error: string) => `This file ${error}: its prompts are not checked for the immunity warning.`,
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

/** "2 prompt sink(s) whose value harden could not read and 1 file(s) or folder(s) that could not be read"; '' when none. */
export function notCheckedSummary(sinks: number, paths: number): string {
  return [
    sinks > 0 ? `${sinks} prompt sink(s) whose value harden could not read` : '',
    paths > 0 ? `${paths} file(s) or folder(s) that could not be read` : '',
  ].filter(Boolean).join(' and ');
}

/** "Not read: 2 Java and 1 Go source file(s) that mention instructions or a system prompt (…)."; '' when none. */
export function otherLanguagesSummary(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([language, n]) => `${n} ${language}`);
  if (parts.length === 0) return '';
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Not read: ${listed} source file(s) that mention instructions or a system prompt (harden reads Python, TypeScript and JavaScript, notebooks, Markdown and YAML; check their prompts by hand).`;
}

/** The editor's output-channel lines about hardening. */
export const hardenLog = {
  /** The project config's harden section could not be used. */
  defaults: (reason: string) => `Hardening uses its defaults: ${reason}`,
  /** A hardening setting that cannot be used is left out. */
  settingIgnored: (setting: string, reason: string) => `Hardening ignores the setting ${setting}: ${reason}`,
  /** A hardened pinned file could not be saved, so it was not re-pinned. */
  repinUnsaved: (file: string) => `Re-pin of ${file} skipped: the file could not be saved.`,
  /** Re-pinning a hardened file failed. */
  repinFailed: (file: string, reason: string) => `Re-pin of ${file} failed: ${reason}`,
  /** A hardened pinned file left drifted: it had changed since it was pinned before hardening edited it. */
  repinDrifted: (file: string) => `Re-pin of ${file} refused: it no longer matched its pin before hardening edited it`,
  /** A prompt sink Harden All Prompts could not check. */
  sinkNotChecked: (at: string, anchor: string, reason: string) => `Harden All Prompts did not check ${at} ${anchor}: ${reason}`,
  /** A path Harden All Prompts could not read. */
  notRead: (at: string, reason: string) => `Harden All Prompts did not read ${at}: ${reason}`,
  /** The files re-pinned after hardening. */
  repinned: (files: readonly string[]) => `Re-pinned after hardening: ${files.join(', ')}`,
} as const;
