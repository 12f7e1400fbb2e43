// Verify Audit Trail: checks the audit trail of each workspace folder and extra root (its hash chain, and with the
// editor's audit key each record's MAC), says what an intact chain proves, and opens a broken one at its first broken
// record. It only reads, so it also runs in an untrusted workspace.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { AUDIT_LOG, type ChainGuarantee } from '../../core/integrity/audit';
import { auditVerifyText, integrityLog, integrityNotice } from '../../core/integrity/messages';
import { verifyAuditLog } from '../../node/integrity/auditLog';
import { auditKeyHint } from '../../node/integrity/auditKey';
import { showError, showInfo } from '../notify';
import type { BaseServices } from '../services';
import { editorAuditKey } from './auditKey';
import { integrityRoots } from './controller';

/** The verdict on one root's audit trail. */
export interface AuditTrailReport {
  /** The audit log's path as shown (folder name, or the extra root's path, and the log's place in it). */
  shown: string;
  exists: boolean;
  /** No record is broken (as `audit verify --json` says it; true when there is no log). */
  intact: boolean;
  /** What an intact chain proves; null when there is no log or it is broken. */
  guarantee: ChainGuarantee | null;
  records: number;
  /** The first broken record's line (1-based), when broken. */
  brokenLine: number | null;
  /** Why the log could not be read (a symlink out of the root, a FIFO), when it could not; the other roots are still checked. */
  error: string | null;
  text: string;
}

/** Verifies every root's audit trail, logs each verdict, and tells the user; a broken log is opened at the break. */
export async function verifyAuditTrails(services: BaseServices): Promise<AuditTrailReport[]> {
  const reports: AuditTrailReport[] = [];
  let firstBroken: { file: string; line: number } | undefined;
  for (const { uri, name } of integrityRoots()) {
    const dir = uri.fsPath;
    const file = path.join(dir, AUDIT_LOG);
    const shown = path.join(name, AUDIT_LOG);
    const report = await verifyRoot(services, dir, file, shown);
    services.output.info(report.text);
    reports.push(report);
    if (report.brokenLine !== null && !firstBroken) firstBroken = { file, line: report.brokenLine };
  }
  const failed = reports.filter((r) => !r.intact || r.error !== null);
  if (failed.length > 0) void showError(failed.map((r) => r.text.split('\n')[0]).join(' '));
  else if (!reports.some((r) => r.exists)) void showInfo(integrityNotice.noAuditTrail);
  else void showInfo(reports.filter((r) => r.exists).map((r) => r.text.split('\n')[0]).join(' '));
  if (firstBroken) await revealLine(services, firstBroken.file, firstBroken.line);
  return reports;
}

/** One root's verdict; a log that cannot be read is reported as such, by path, instead of stopping the others. */
async function verifyRoot(services: BaseServices, dir: string, file: string, shown: string): Promise<AuditTrailReport> {
  try {
    const key = await editorAuditKey(services, dir);
    const result = await verifyAuditLog(file, dir, key?.key);
    const text = auditVerifyText(result, shown, key && { id: key.key.id, source: key.source }, `${integrityNotice.createAuditKeyHint}, ${auditKeyHint(process.env)}`);
    const intact = !result.broken;
    const guarantee = result.exists && intact ? result.guarantee : null;
    return { shown, exists: result.exists, intact, guarantee, records: result.records, brokenLine: result.broken?.line ?? null, error: null, text };
  } catch (error) {
    const reason = errorMessage(error);
    return { shown, exists: true, intact: false, guarantee: null, records: 0, brokenLine: null, error: reason, text: integrityNotice.auditVerifyFailed(reason) };
  }
}

/** Opens the log at a line, best effort: the verdict is already shown, so a log the editor will not open (too large) only logs why. */
async function revealLine(services: BaseServices, file: string, brokenLine: number): Promise<void> {
  try {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const line = Math.min(brokenLine - 1, document.lineCount - 1);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(line, 0, line, document.lineAt(line).text.length) });
  } catch (error) {
    services.output.warn(integrityLog.auditLogNotOpened(file, errorMessage(error)));
  }
}

/** Registers Verify Audit Trail; a failure to read a log is reported by path, never thrown at the user. */
export function registerVerifyAuditTrail(services: BaseServices, command: string): vscode.Disposable {
  return vscode.commands.registerCommand(command, () =>
    verifyAuditTrails(services).catch((error: unknown) => {
      void showError(integrityNotice.auditVerifyFailed(errorMessage(error)));
      return undefined;
    }),
  );
}
