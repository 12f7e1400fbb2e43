// Verify Audit Trail: checks the audit trail of each workspace folder and extra root (its hash chain, and with the
// editor's audit key each record's MAC), says what an intact chain proves, and opens a broken one at its first broken
// record. It only reads, so it also runs in an untrusted workspace.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { AUDIT_LOG, type ChainGuarantee } from '../../core/integrity/audit';
import { auditVerifyText, integrityNotice } from '../../core/integrity/messages';
import { verifyAuditLog } from '../../node/integrity/auditLog';
import { auditKeyHint } from '../../node/integrity/auditKey';
import { showError, showInfo } from '../notify';
import type { BaseServices } from '../services';
import { editorAuditKey } from './auditKey';
import { extraRoots } from './settings';

/** The verdict on one root's audit trail. */
export interface AuditTrailReport {
  /** The audit log's path as shown (folder name, or the extra root's path, and the log's place in it). */
  shown: string;
  exists: boolean;
  intact: boolean;
  /** What an intact chain proves; null when there is no log or it is broken. */
  guarantee: ChainGuarantee | null;
  records: number;
  /** The first broken record's line (1-based), when broken. */
  brokenLine: number | null;
  text: string;
}

/** Verifies every root's audit trail, logs each verdict, and tells the user; a broken log is opened at the break. */
export async function verifyAuditTrails(services: BaseServices): Promise<AuditTrailReport[]> {
  const roots = [...(vscode.workspace.workspaceFolders ?? []).map((folder) => ({ dir: folder.uri.fsPath, name: folder.name })), ...extraRoots().map((dir) => ({ dir, name: dir }))];
  const reports: AuditTrailReport[] = [];
  let firstBroken: { file: string; line: number } | undefined;
  for (const { dir, name } of roots) {
    const file = path.join(dir, AUDIT_LOG);
    const shown = `${name}/${AUDIT_LOG}`;
    const key = await editorAuditKey(services, dir);
    const result = await verifyAuditLog(file, dir, key?.key);
    const text = auditVerifyText(result, shown, key && { id: key.key.id, source: key.source }, `${integrityNotice.createAuditKeyHint}, ${auditKeyHint(process.env)}`);
    services.output.info(text);
    const intact = result.exists && !result.broken;
    reports.push({ shown, exists: result.exists, intact, guarantee: intact ? result.guarantee : null, records: result.records, brokenLine: result.broken?.line ?? null, text });
    if (result.broken && !firstBroken) firstBroken = { file, line: result.broken.line };
  }
  if (firstBroken) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(firstBroken.file));
    const line = Math.min(firstBroken.line - 1, document.lineCount - 1);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(line, 0, line, document.lineAt(line).text.length) });
    void showError(reports.filter((r) => r.brokenLine !== null).map((r) => r.text).join(' '));
  } else if (!reports.some((r) => r.exists)) {
    void showInfo(integrityNotice.noAuditTrail);
  } else {
    void showInfo(reports.filter((r) => r.exists).map((r) => r.text.split('\n')[0]).join(' '));
  }
  return reports;
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
