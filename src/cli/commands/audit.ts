// `agent-immune audit verify`: checks the audit trail's hash chain and names the first broken record.
import * as path from 'node:path';
import { AUDIT_LOG } from '../../core/integrity/audit';
import { verifyAuditLog } from '../../node/integrity/auditLog';
import { existingFile, existingFolder } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';

export const auditCommand: Command = {
  name: 'audit',
  summary: 'verify the tamper-evident audit trail (.agent-immune/audit.ndjson)',
  usage: `Usage: agent-immune audit verify [--root DIR] [--file FILE] [--json]

Checks that every record of the audit trail carries the hash of the record before it and that
no record was edited, deleted or moved; names the first broken record. Prints the head hash:
keep it elsewhere (CI log, commit message) to also detect a cut-off tail.

Options:
  --root DIR         workspace root (default: the current directory)
  --file FILE        audit log to check (default: <root>/${AUDIT_LOG})
  --json             print one JSON document (schema agent-immune/audit-verify/v1)
  -h, --help         show this help

Exit codes: 0 chain intact (or no log yet), 1 chain broken, 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, { root: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals[0] !== 'verify' || positionals.length !== 1) throw new UsageError('expected the subcommand "verify"');
    const root = await existingFolder(io.cwd, values.root ?? '.', { flag: '--root', hint: 'give the workspace folder (the one that holds agent-immune.lock)' });
    const file = values.file ? await existingFile(io.cwd, values.file, { flag: '--file' }) : path.join(root, AUDIT_LOG);
    const result = await verifyAuditLog(file, values.file ? undefined : root);
    const relative = path.relative(io.cwd, file);
    const shown = relative && !relative.startsWith('..') ? relative : file;
    if (values.json) {
      io.stdout(JSON.stringify({ schema: 'agent-immune/audit-verify/v1', file: shown, exists: result.exists, intact: !result.broken, records: result.records, head: result.head ?? null, broken: result.broken ?? null }, null, 2) + '\n');
    } else if (!result.exists) {
      io.stdout(`No audit log at ${shown}: nothing to verify.\n`);
    } else if (result.broken) {
      io.stdout(`Broken: ${shown}:${result.broken.line}: ${result.broken.reason}: ${result.broken.detail}. ${result.records} record(s) before it are intact.\n`);
    } else {
      io.stdout(`Intact: ${result.records} records in ${shown}; head ${result.head ? `#${result.head.seq} ${result.head.hash}` : '(empty)'}.\n`);
    }
    return result.broken ? ExitCode.Findings : ExitCode.Ok;
  },
};
