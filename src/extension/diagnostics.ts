// How every feature publishes a finding as a diagnostic: one source ("Agent Immune"), the core severity mapped to the
// editor's, and the code as `{ value, target }` linking its docs anchor; code actions find their diagnostics by code.
import * as vscode from 'vscode';
import { docsUrl, type DocsPage, type Severity } from '../core/findings';

/** `source` of every Agent Immune diagnostic. */
export const DIAGNOSTIC_SOURCE = 'Agent Immune';

/** Core severity -> VS Code diagnostic severity. */
export const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** A diagnostic for one finding: its message, severity and code, the code linking docs/<page>.md#<code>. */
export function findingDiagnostic(range: vscode.Range, message: string, severity: Severity, code: string, docs: DocsPage): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(range, message, SEVERITY[severity]);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = { value: code, target: vscode.Uri.parse(docsUrl(docs, code)) };
  return diagnostic;
}

/** The code of one of our diagnostics; undefined for another extension's. */
export function ourCode(diagnostic: vscode.Diagnostic): string | undefined {
  if (diagnostic.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return code === undefined ? undefined : String(code);
}
