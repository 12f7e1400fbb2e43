// `agent-immune verify`: checks the pinned files against the lockfile; records drift; blocks (exit 1) under --strict.
import { blocksUnderStrict } from '../../core/integrity/compare';
import { blockEvent, findingEvents, formatFinding, integritySarifRules } from '../../core/integrity/findings';
import { verifyText } from '../../core/integrity/messages';
import { appendAuditEvents, auditActor } from '../../node/integrity/auditLog';
import { verifyWorkspace } from '../../node/integrity/verify';
import { existingFolder, outputFile } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { writeSarifFile } from '../sarif';

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check pinned skill and prompt files against the lockfile (drift, missing, unpinned, ...)',
  usage: `Usage: agent-immune verify [--root DIR] [--strict] [--json] [--sarif FILE]

Compares the pinned files with the lockfile and reports findings by code: drift, unpinned,
missing, renamed, corrupt-lockfile, symlink-outside-root (docs/lockfile.md). Every drift,
missing, renamed, corrupt-lockfile and strict-mode block is appended to the audit trail
(.agent-immune/audit.ndjson). No lockfile: nothing to check, exit 0.

Options:
  --root DIR         workspace root (default: the current directory)
  --lockfile FILE    lockfile path relative to the root (default: integrity.lockfile or agent-immune.lock)
  --strict           exit 1 on drift, missing, renamed, corrupt-lockfile or an outside symlink
                     (default: integrity.strict in agent-immune.config.json)
  --json             print one JSON document (schema agent-immune/verify/v1)
  --sarif FILE       also write the findings as SARIF 2.1.0 to FILE
  --no-audit         do not append to the audit trail (read-only checkouts)
  -h, --help         show this help

Exit codes: 0 clean, or findings without --strict; 1 findings that block under --strict; 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      root: { type: 'string' },
      lockfile: { type: 'string' },
      strict: { type: 'boolean' },
      json: { type: 'boolean' },
      sarif: { type: 'string' },
      'no-audit': { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.sarif === '') throw new UsageError('--sarif needs a file name');
    const root = await existingFolder(io.cwd, values.root ?? '.', { flag: '--root', hint: 'give the workspace folder (the one that holds agent-immune.lock)' });
    const sarif = values.sarif && (await outputFile(io.cwd, values.sarif, { flag: '--sarif' }));
    const { report, ws, lock } = await verifyWorkspace(root, { strict: values.strict || undefined, lockfile: values.lockfile });
    const block = report.strict && blocksUnderStrict(report.findings);
    if (!values['no-audit']) {
      const events = findingEvents(report.findings, block ? 'block' : 'warn');
      if (block) events.push(blockEvent(report.findings, 'agent-immune verify --strict'));
      await appendAuditEvents(ws.root, events, auditActor('agent-immune-cli'));
    }
    if (sarif) {
      const results = report.findings.map((f) => ({ ruleId: f.code, message: formatFinding(f), path: f.path, fingerprint: `${f.code}:${f.path}` }));
      await writeSarifFile(sarif, integritySarifRules(report.strict), results);
    }
    if (values.json) io.stdout(JSON.stringify(report, null, 2) + '\n');
    else io.stdout(verifyText(report, lock ? Object.keys(lock.files).length : 0, block, !values['no-audit']));
    return block ? ExitCode.Findings : ExitCode.Ok;
  },
};
