// `agent-immune verify`: checks the pinned files against the lockfile; records each change of state in the audit
// trail; blocks (exit 1) under --strict.
import { integrityVerdict } from '../../core/integrity/compare';
import { formatFinding, integritySarifRules, tallyIntegrityFindings } from '../../core/integrity/findings';
import { verifyText } from '../../core/integrity/messages';
import type { IntegrityFinding } from '../../core/integrity/types';
import { errorMessage } from '../../core/errors';
import { inline } from '../../core/text/printable';
import { auditWriter, brokenTrailWarning, recordIntegrityRun } from '../../node/integrity/auditLog';
import { loadAuditKey } from '../../node/integrity/auditKey';
import { FileLockTimeoutError } from '../../node/integrity/fileLock';
import { verifyWorkspace } from '../../node/integrity/verify';
import { UnsafePathError } from '../../node/workspaceFs';
import { lockfileFlag, outputFile, refuseScannedFile, workspaceRoot } from '../args';
import { loadCheckedConfig } from '../../node/config';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { writeSarifFile } from '../sarif';

/** A SARIF fingerprint that tells two findings apart (a lockfile can carry several entry mismatches). */
function fingerprint(finding: IntegrityFinding): string {
  return [finding.code, finding.path, ...('entry' in finding && finding.entry ? [finding.entry] : [])].join(':');
}

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check pinned skill and prompt files against the lockfile (drift, new files and skills, missing, ...)',
  usage: `Usage: agent-immune verify [--root DIR] [--strict] [--json] [--sarif FILE]

Compares the skill folders and prompt files with the lockfile and reports findings by code:
drift, skill-file-added, unpinned-skill, missing, renamed, corrupt-lockfile, lockfile-missing,
symlink-outside-root, unpinnable (docs/lockfile.md). Each finding is recorded once in the audit
trail (.agent-immune/audit.ndjson) when it appears, and again when it clears; a strict-mode block
is recorded each time. No lockfile in a project that never adopted one: nothing to check, exit 0
(a lockfile named with --lockfile, as CI should, must be there: its absence is lockfile-missing).

Options:
  --root DIR         workspace root (default: the workspace the current folder is in: the
                     nearest folder at or above it with agent-immune.lock or the config)
  --lockfile FILE    lockfile path relative to the root (default: integrity.lockfile or agent-immune.lock)
  --strict           exit 1 on any finding (default: integrity.strict in agent-immune.config.json)
  --json             print one JSON document (schema agent-immune/verify/v1)
  --sarif FILE       also write the findings as SARIF 2.1.0 to FILE
  --no-audit         do not append to the audit trail (read-only checkouts)
  -h, --help         show this help

Audit key: records are MACed with AGENT_IMMUNE_AUDIT_KEY, or the key file
AGENT_IMMUNE_AUDIT_KEY_FILE (default ~/.config/agent-immune/audit.key), when set up.

Exit codes: 0 clean, or findings without --strict; 1 findings under --strict; 2 bad input or usage.`,

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
    const root = await workspaceRoot(io.cwd, values.root, { flag: '--root', hint: 'give the workspace folder (the one that holds agent-immune.lock)' }, (line) => io.stderr(`agent-immune verify: ${line}\n`));
    await loadCheckedConfig(root, undefined, (line) => io.stderr(`agent-immune verify: ${line}\n`));
    const overrides = { strict: values.strict || undefined, lockfile: lockfileFlag(root, values.lockfile) };
    // The SARIF may replace no file of the workspace (the lockfile, the config, the audit trail, a pinned or new file).
    const sarif = await outputFile(io.cwd, values.sarif, { flag: '--sarif' });
    await refuseScannedFile(io.cwd, values.sarif, { flag: '--sarif' }, [root]);
    const { report, ws, lock } = await verifyWorkspace(root, overrides, { lockfileNamed: values.lockfile !== undefined });
    const verdict = integrityVerdict(report);
    let recorded = false;
    if (!values['no-audit']) {
      const key = await loadAuditKey(io.env, ws.root);
      const run = { findings: report.findings, decision: verdict.blocked ? ('block' as const) : ('warn' as const), ...(verdict.blocked ? { blockedBy: 'agent-immune verify --strict' } : {}) };
      // A trail that cannot be written (locked by a running writer for too long, a folder that is a file or a symlink, a
      // lock file that is a folder) is reported in one line and the verdict stands: a repository must not be able to
      // hide its verdict that way.
      recorded = await recordIntegrityRun(ws.root, run, auditWriter('agent-immune-cli', key?.key)).then(
        ({ broken }) => {
          if (broken) io.stderr(`agent-immune verify: ${inline(brokenTrailWarning(broken))}\n`);
          return true;
        },
        (error: unknown) => {
          const fileSystem = typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string';
          if (!(error instanceof FileLockTimeoutError) && !(error instanceof UnsafePathError) && !fileSystem) throw error;
          io.stderr(`agent-immune verify: could not record in the audit trail: ${inline(errorMessage(error))}\n`);
          return false;
        },
      );
    }
    if (sarif) {
      const results = report.findings.map((f) => ({ ruleId: f.code, message: formatFinding(f), path: f.path, fingerprint: fingerprint(f) }));
      await writeSarifFile(sarif, integritySarifRules(report.strict), results);
    }
    if (values.json) io.stdout(JSON.stringify({ ...report, counts: tallyIntegrityFindings(report.findings) }, null, 2) + '\n');
    else io.stdout(verifyText(report, lock?.files ?? {}, verdict.blocked, recorded));
    return verdict.blocked ? ExitCode.Findings : ExitCode.Ok;
  },
};
