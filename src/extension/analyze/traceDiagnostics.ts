// Diagnostics on the trace file itself: one per attacker/infected output line, so the Problems view lists them and a
// click jumps to the line. Results computed for an older version of the file are never published (generation check).
import * as vscode from 'vscode';
import type { GraphViewPayload } from '../../core/graphview/types';
import { describeTraceFinding, TRACE_FINDINGS, traceFindings } from '../../core/guard/findings';
import { SEVERITY } from '../diagnostics';

/** Publishes the findings of a payload on its trace file. */
export function publishTraceDiagnostics(collection: vscode.DiagnosticCollection, uri: vscode.Uri, payload: GraphViewPayload): number {
  const diagnostics = traceFindings(payload).map((f) => {
    const range = new vscode.Range(f.line - 1, 0, f.line - 1, Number.MAX_SAFE_INTEGER);
    const diagnostic = new vscode.Diagnostic(range, describeTraceFinding(f), SEVERITY[TRACE_FINDINGS[f.code].severity]);
    diagnostic.source = 'Agent Immune';
    diagnostic.code = f.code;
    return diagnostic;
  });
  collection.set(uri, diagnostics);
  return diagnostics.length;
}
