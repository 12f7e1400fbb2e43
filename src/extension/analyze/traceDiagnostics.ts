// Diagnostics on the trace file itself: one per attacker/infected output line, so the Problems view lists them and a
// click jumps to the line. Results computed for an older version of the file are never published (generation check).
import * as vscode from 'vscode';
import type { GraphViewPayload } from '../../core/graphview/types';
import { RULE_TEXT } from '../../webview/wording';
import { traceFindings, TraceFindingCode, type TraceFinding } from './traceFindings';

/** Words one finding. */
export function findingMessage(f: TraceFinding): string {
  return `${f.agent} is ${f.category} in round ${f.round} (P_atk ${f.pAtk.toFixed(2)}, P_inf ${f.pInf.toFixed(2)}): ${RULE_TEXT[f.rule] ?? f.rule}`;
}

/** Publishes the findings of a payload on its trace file. */
export function publishTraceDiagnostics(collection: vscode.DiagnosticCollection, uri: vscode.Uri, payload: GraphViewPayload): number {
  const diagnostics = traceFindings(payload).map((f) => {
    const range = new vscode.Range(f.line - 1, 0, f.line - 1, Number.MAX_SAFE_INTEGER);
    const severity = f.code === TraceFindingCode.AttackerOutput ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
    const diagnostic = new vscode.Diagnostic(range, findingMessage(f), severity);
    diagnostic.source = 'Agent Immune';
    diagnostic.code = f.code;
    return diagnostic;
  });
  collection.set(uri, diagnostics);
  return diagnostics.length;
}
