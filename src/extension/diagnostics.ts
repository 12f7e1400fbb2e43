// What every feature shares to publish diagnostics: the editor severity of each core severity.
import * as vscode from 'vscode';
import type { Severity } from '../core/findings';

/** Core severity -> VS Code diagnostic severity. */
export const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};
