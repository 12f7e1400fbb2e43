// What every feature receives from activate(): the extension context, the output channel every feature logs to, and
// the strict-mode run guard the run-related commands ask first. Built once; no feature keeps module-level state.
import type * as vscode from 'vscode';

/** The strict-mode guard of run-related commands (skill integrity): `if (!(await runGuard.assertRunAllowed('Analyze Trace'))) return;`. */
export interface RunGuard {
  /** False, with the refusal recorded and explained to the user, while strict mode is on and pinned files drifted. */
  assertRunAllowed(action: string): Promise<boolean>;
}

/** The services the skill-integrity feature starts from (it provides the run guard). */
export interface BaseServices {
  context: vscode.ExtensionContext;
  output: vscode.LogOutputChannel;
}

/** The services every other feature receives. */
export interface Services extends BaseServices {
  runGuard: RunGuard;
}
