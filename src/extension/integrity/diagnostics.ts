// Integrity findings -> editor diagnostics, as each code's spec says: on the file's first line or on the lockfile
// (at the corrupt line), at its severity (blocking warnings are errors under strict); each with its code and docs link.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatFinding, integritySeverity, integritySpec } from '../../core/integrity/findings';
import type { IntegrityFinding } from '../../core/integrity/types';
import type { VerifyState } from '../../node/integrity/verify';
import { findingDiagnostic } from '../diagnostics';

/** Where a finding is shown: the file itself, or the lockfile. */
function findingUri(state: VerifyState, finding: IntegrityFinding): vscode.Uri {
  const rel = integritySpec(finding).attach === 'lockfile' ? state.report.lockfile : finding.path;
  return vscode.Uri.file(path.join(state.ws.root, ...rel.split('/')));
}

/** The diagnostics of one folder's verify, grouped by file. */
export function integrityDiagnostics(state: VerifyState): Map<string, [vscode.Uri, vscode.Diagnostic[]]> {
  const byFile = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
  for (const finding of state.report.findings) {
    const uri = findingUri(state, finding);
    const line = 'line' in finding && finding.line ? finding.line - 1 : 0;
    const severity = integritySeverity(finding.code, state.report.strict);
    const diagnostic = findingDiagnostic(new vscode.Range(line, 0, line, 200), formatFinding(finding), severity, finding.code, integritySpec(finding).docs);
    const entry = byFile.get(uri.toString()) ?? [uri, []];
    entry[1].push(diagnostic);
    byFile.set(uri.toString(), entry);
  }
  return byFile;
}
