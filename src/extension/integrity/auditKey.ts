// The editor's audit key: kept in VS Code's SecretStorage (outside every workspace); without one there, the CLI's
// (AGENT_IMMUNE_AUDIT_KEY, or the user key file), so the editor and the CLI write one keyed chain.
import * as vscode from 'vscode';
import { auditKeyOf, type AuditKey } from '../../core/integrity/audit';
import { auditWriter, type AuditWriter } from '../../node/integrity/auditLog';
import { loadAuditKey } from '../../node/integrity/auditKey';

/** SecretStorage key of the audit key. */
export const AUDIT_KEY_SECRET = 'agentImmune.auditKey';

/** The audit key the editor writes with for `root`; undefined when none is set up (or the CLI's is not usable). */
export async function editorAuditKey(secrets: vscode.SecretStorage, root: string, output: vscode.LogOutputChannel): Promise<AuditKey | undefined> {
  const stored = await secrets.get(AUDIT_KEY_SECRET);
  if (stored) return auditKeyOf(new TextEncoder().encode(stored));
  try {
    return (await loadAuditKey(process.env, root))?.key;
  } catch (error) {
    output.warn(`Audit key not used: ${(error as Error).message}`);
    return undefined;
  }
}

/** The writer of records from the editor (`tool`) for `root`, keyed when a key is set up. */
export async function editorAuditWriter(secrets: vscode.SecretStorage, root: string, output: vscode.LogOutputChannel, tool: string): Promise<AuditWriter> {
  return auditWriter(tool, await editorAuditKey(secrets, root, output));
}
