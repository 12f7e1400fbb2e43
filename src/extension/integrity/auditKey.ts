// The editor's audit key: kept in VS Code's SecretStorage (outside every workspace); without one there, the CLI's
// (AGENT_IMMUNE_AUDIT_KEY, or the user key file), so the editor and the CLI write one keyed chain. Create Audit Key
// makes one and, when the user has no key file yet, writes the same key there for the CLI.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { auditKeyOf } from '../../core/integrity/audit';
import { integrityLog, integrityNotice } from '../../core/integrity/messages';
import { auditWriter, type AuditWriter } from '../../node/integrity/auditLog';
import { auditKeyFile, loadAuditKey, writeAuditKeyFile, type LoadedAuditKey } from '../../node/integrity/auditKey';
import { AUDIT_KEY_SECRET, EXTENSION_ACTOR } from '../ids';
import { askModal, showError, showInfo } from '../notify';
import type { BaseServices } from '../services';

/** The audit key the editor writes with for `root`, and where it came from; undefined when none is set up (or the CLI's is not usable). */
export async function editorAuditKey(services: BaseServices, root: string): Promise<LoadedAuditKey | undefined> {
  const stored = await services.context.secrets.get(AUDIT_KEY_SECRET);
  if (stored) return { key: auditKeyOf(new TextEncoder().encode(stored)), source: integrityNotice.secretStorage };
  try {
    return await loadAuditKey(process.env, root);
  } catch (error) {
    services.output.warn(integrityLog.auditKeyUnused(errorMessage(error)));
    return undefined;
  }
}

/** The writer of the editor's records for `root`, keyed when a key is set up. */
export async function editorAuditWriter(services: BaseServices, root: string): Promise<AuditWriter> {
  return auditWriter(EXTENSION_ACTOR, (await editorAuditKey(services, root))?.key);
}

/** Create Audit Key: a new random key in SecretStorage (replacing one there, after asking), and in the user key file
 * when there is none; returns its id. */
export async function createAuditKey(services: BaseServices): Promise<string | undefined> {
  const { secrets } = services.context;
  if (await secrets.get(AUDIT_KEY_SECRET)) {
    const choice = await askModal(integrityNotice.replaceAuditKey, integrityNotice.replace);
    if (choice !== integrityNotice.replace) return undefined;
  }
  const text = randomBytes(32).toString('base64url');
  await secrets.store(AUDIT_KEY_SECRET, text);
  const key = auditKeyOf(new TextEncoder().encode(text));
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const file = auditKeyFile(process.env) ?? integrityNotice.userKeyFile;
  const shared = await writeAuditKeyFile(process.env, roots, text).then(
    () => integrityNotice.auditKeyShared(file),
    (error: unknown) => {
      services.output.info(integrityLog.auditKeyNotWritten(file, errorMessage(error)));
      return integrityNotice.auditKeyNotShared(file);
    },
  );
  services.output.info(integrityLog.auditKeyStored(key.id, shared));
  void showInfo(integrityNotice.auditKeyCreated(key.id, shared));
  return key.id;
}

/** Registers Create Audit Key. */
export function registerAuditKeyCommand(services: BaseServices, command: string): vscode.Disposable {
  return vscode.commands.registerCommand(command, () =>
    createAuditKey(services).catch((error: unknown) => {
      void showError(integrityNotice.auditKeyFailed(errorMessage(error)));
      return undefined;
    }),
  );
}
