// The one place user-facing messages are shown: every notification carries the "Agent Immune: " prefix, so no
// feature writes it by hand. Failures are logged to the output channel by the caller, then shown here.
import * as vscode from 'vscode';

const PREFIX = 'Agent Immune: ';

/** Shows an error notification; resolves to the action the user picked, if any. */
export function showError(text: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showErrorMessage(PREFIX + text, ...actions);
}

/** Shows a warning notification; resolves to the action the user picked, if any. */
export function showWarning(text: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(PREFIX + text, ...actions);
}

/** Shows a modal warning (a question that needs an answer); resolves to the action picked, undefined on Escape. */
export function askModal(text: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(PREFIX + text, { modal: true }, ...actions);
}

/** Shows an information notification. */
export function showInfo(text: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showInformationMessage(PREFIX + text, ...actions);
}
