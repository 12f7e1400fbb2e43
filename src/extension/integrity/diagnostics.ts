// Integrity findings -> editor diagnostics: drift on the file's first line (Warning, Error under strict), unpinned as
// Information, missing and corrupt-lockfile on the lockfile itself; each with its code and a docs link.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findingDocsUrl, formatFinding } from '../../core/integrity/messages';
import type { IntegrityFinding } from '../../core/integrity/types';
import type { VerifyState } from '../../node/integrity/verify';

/** `source` of every integrity diagnostic (code actions find them by source + code). */
export const INTEGRITY_SOURCE = 'agent-immune integrity';

/** Where a finding is shown: the file itself, or the lockfile for missing / corrupt-lockfile. */
function findingUri(state: VerifyState, finding: IntegrityFinding): vscode.Uri {
  const onLockfile = finding.code === 'missing' || finding.code === 'corrupt-lockfile';
  const rel = onLockfile ? state.report.lockfile : finding.path;
  return vscode.Uri.file(path.join(state.ws.root, ...rel.split('/')));
}

function severity(finding: IntegrityFinding, strict: boolean): vscode.DiagnosticSeverity {
  if (finding.code === 'unpinned') return vscode.DiagnosticSeverity.Information;
  if (finding.code === 'corrupt-lockfile' || strict) return vscode.DiagnosticSeverity.Error;
  return vscode.DiagnosticSeverity.Warning;
}

/** The diagnostics of one folder's verify, grouped by file. */
export function integrityDiagnostics(state: VerifyState): Map<string, [vscode.Uri, vscode.Diagnostic[]]> {
  const byFile = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
  for (const finding of state.report.findings) {
    const uri = findingUri(state, finding);
    const line = finding.code === 'corrupt-lockfile' && finding.line ? finding.line - 1 : 0;
    const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, 200), formatFinding(finding), severity(finding, state.report.strict));
    diagnostic.source = INTEGRITY_SOURCE;
    diagnostic.code = { value: finding.code, target: vscode.Uri.parse(findingDocsUrl(finding.code)) };
    const entry = byFile.get(uri.toString()) ?? [uri, []];
    entry[1].push(diagnostic);
    byFile.set(uri.toString(), entry);
  }
  return byFile;
}
