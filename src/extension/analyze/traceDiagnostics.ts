// Diagnostics on the trace file itself: one per attacker/infected output line, so the Problems view lists them and a
// click jumps to the line; each with its code linking the docs.
import * as vscode from 'vscode';
import type { GraphViewPayload } from '../../core/graphview/types';
import { describeTraceFinding, TRACE_FINDINGS, traceFindings } from '../../core/guard/findings';
import { findingDiagnostic } from '../diagnostics';

/** Publishes the findings of a payload on its trace file; returns how many. */
export function publishTraceDiagnostics(collection: vscode.DiagnosticCollection, uri: vscode.Uri, payload: GraphViewPayload): number {
  const diagnostics = traceFindings(payload).map((f) => {
    const range = new vscode.Range(f.line - 1, 0, f.line - 1, Number.MAX_SAFE_INTEGER);
    const spec = TRACE_FINDINGS[f.code];
    return findingDiagnostic(range, describeTraceFinding(f), spec.severity, f.code, spec.docs);
  });
  collection.set(uri, diagnostics);
  return diagnostics.length;
}
