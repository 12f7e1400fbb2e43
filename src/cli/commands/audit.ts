// `agent-immune audit verify`: checks the audit trail's hash chain (and, with the audit key, every record's MAC), names
// the first broken record and says which guarantee it gave; `agent-immune audit key`: shows or creates the audit key.
import * as path from 'node:path';
import { AUDIT_LOG, type ChainGuarantee } from '../../core/integrity/audit';
import { auditVerifyText } from '../../core/integrity/messages';
import { verifyAuditLog } from '../../node/integrity/auditLog';
import { AUDIT_KEY_ENV, AUDIT_KEY_FILE_ENV, auditKeyFile, auditKeyHint, createAuditKeyFile, loadAuditKey } from '../../node/integrity/auditKey';
import { existingFile, NoProjectError, workspaceRoot } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { closest } from '../suggest';

async function verify(args: string[], io: Parameters<Command['run']>[1]): Promise<ExitCode> {
  const { values } = parseFlags(args, { root: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean' }, keyed: { type: 'boolean' } }, false);
  const root = await workspaceRoot(io.cwd, values.root, { flag: '--root', hint: 'give the workspace folder (the one that holds agent-immune.lock)' }, (line) => io.stderr(`agent-immune audit: ${line}\n`));
  const file = values.file ? await existingFile(io.cwd, values.file, { flag: '--file' }) : path.join(root, AUDIT_LOG);
  const key = await loadAuditKey(io.env, values.file ? path.dirname(file) : root);
  const result = await verifyAuditLog(file, values.file ? undefined : root, key?.key);
  const relative = path.relative(io.cwd, file);
  const shown = relative && !relative.startsWith('..') ? relative : file;
  const guarantee: ChainGuarantee | null = result.exists && !result.broken ? result.guarantee : null;
  if (values.json) {
    const macs = { valid: result.macs.valid, missing: result.macs.missing, unchecked: result.macs.unchecked, firstUnverified: result.macs.firstUnverified ?? null };
    io.stdout(JSON.stringify({ schema: 'agent-immune/audit-verify/v1', file: shown, exists: result.exists, intact: !result.broken, guarantee, key: key ? { id: key.key.id, source: key.source } : null, records: result.records, macs, head: result.head ?? null, broken: result.broken ?? null }, null, 2) + '\n');
  } else {
    io.stdout(auditVerifyText(result, shown, key && { id: key.key.id, source: key.source }, auditKeyHint(io.env)) + '\n');
  }
  if (result.broken) return ExitCode.Findings;
  if (values.keyed && result.exists && result.guarantee !== 'keyed') {
    if (!values.json) io.stdout(`Not keyed (--keyed): ${key ? 'not every record carries a valid MAC of this audit key' : 'no audit key to check the records with'}; exit 1.\n`);
    return ExitCode.Findings;
  }
  return ExitCode.Ok;
}

async function key(args: string[], io: Parameters<Command['run']>[1]): Promise<ExitCode> {
  const { values } = parseFlags(args, { root: { type: 'string' }, create: { type: 'boolean' }, json: { type: 'boolean' } }, false);
  // Run from the home folder (or another that is no project), there is no workspace for the key to stay out of.
  const root = await workspaceRoot(io.cwd, values.root, { flag: '--root', hint: 'give the workspace folder the key must stay out of' }, (line) => io.stderr(`agent-immune audit: ${line}\n`)).catch((error: unknown) => {
    if (error instanceof NoProjectError) return undefined;
    throw error;
  });
  const loaded = values.create ? await createAuditKeyFile(io.env, root) : await loadAuditKey(io.env, root);
  if (values.json) io.stdout(JSON.stringify({ schema: 'agent-immune/audit-key/v1', key: loaded ? { id: loaded.key.id, source: loaded.source } : null, file: auditKeyFile(io.env) ?? null }, null, 2) + '\n');
  else if (!loaded) io.stdout(`No audit key: records are unkeyed. Create one with "agent-immune audit key --create" (written to ${auditKeyFile(io.env) ?? `the file ${AUDIT_KEY_FILE_ENV} names`}), or set ${AUDIT_KEY_ENV}.\n`);
  else io.stdout(`${values.create ? 'Created audit key' : 'Audit key'} ${loaded.key.id} (${loaded.source}). Records written from now on carry its MAC; keep the key out of every repository.\n`);
  return ExitCode.Ok;
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the hash-chained audit trail (.agent-immune/audit.ndjson); show or create the audit key',
  usage: `Usage: agent-immune audit verify [--root DIR] [--file FILE] [--keyed] [--json]
       agent-immune audit key [--create] [--json]

verify: checks that every record of the audit trail carries the hash of the record before it and
that no record was edited, deleted, inserted or moved; names the first broken record. With an
audit key it also checks each record's MAC and says "keyed" when every record carries a valid
one (no one without the key wrote any of them); without one the chain is "unkeyed": it proves
order, not authorship. Prints the head hash: keep it elsewhere to also detect a cut-off tail.

key: shows the audit key in use; --create writes a new random one to the user key file.
The key comes from ${AUDIT_KEY_ENV}, else the file AGENT_IMMUNE_AUDIT_KEY_FILE (default
~/.config/agent-immune/audit.key, mode 600); never from the repository.

Options:
  --root DIR         workspace root (default: the workspace the current folder is in: the
                     nearest folder at or above it with agent-immune.lock or the config)
  --file FILE        audit log to check (default: <root>/${AUDIT_LOG})
  --keyed            verify: exit 1 unless every record carries a valid MAC of the key
  --create           key: create a new key file (refused, exit 2, when one exists: it is kept)
  --json             print one JSON document (agent-immune/audit-verify/v1, agent-immune/audit-key/v1)
  -h, --help         show this help

Exit codes: 0 chain intact (or no log yet); 1 chain broken, or not keyed under --keyed; 2 bad input or usage.`,

  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'verify') return verify(rest, io);
    if (sub === 'key') return key(rest, io);
    if (sub === undefined || sub.startsWith('-')) throw new UsageError('expected the subcommand "verify" or "key" first (agent-immune audit verify --root DIR)');
    const meant = closest(sub, ['verify', 'key']);
    throw new UsageError(`unknown subcommand "${sub}"${meant ? `; did you mean "${meant}"?` : '; expected "verify" or "key"'}`);
  },
};
