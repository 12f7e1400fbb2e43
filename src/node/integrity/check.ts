// The runtime API's injection-time check: agent code calls checkSkillIntegrity just before it puts skill files into
// a system prompt. Clean -> silent; findings -> warn, record, return; strict -> record, then throw. The decision is the
// CLI's and the editor's (integrityVerdict), and so is the audit trail's record-once rule.
import { errorMessage } from '../../core/errors';
import { integrityVerdict } from '../../core/integrity/compare';
import { SkillIntegrityError } from '../../core/integrity/errors';
import { formatFinding } from '../../core/integrity/findings';
import type { IntegrityFinding, IntegrityStatus } from '../../core/integrity/types';
import { auditWriter, brokenTrailWarning, recordIntegrityRun } from './auditLog';
import { loadAuditKey } from './auditKey';
import { verifyWorkspace } from './verify';

/** Options of checkSkillIntegrity; everything is optional. */
export interface SkillIntegrityOptions {
  /** Workspace root holding the lockfile (default: process.cwd()). */
  root?: string;
  /** Throw SkillIntegrityError on a blocking finding (default: the config's integrity.strict). */
  strict?: boolean;
  /** Lockfile path relative to root (default: the config's integrity.lockfile, else agent-immune.lock); one named here must be there (lockfile-missing). */
  lockfile?: string;
  /** Where warnings go (default: console.warn). */
  warn?: (message: string) => void;
  /** Tool name written in audit records (default: "agent-immune-runtime"). */
  tool?: string;
}

/** What the check found; `findings` is empty when clean or skipped. */
export interface SkillIntegrityResult {
  status: IntegrityStatus;
  findings: IntegrityFinding[];
}

/**
 * Checks the pinned skill and prompt files against the lockfile. Clean, or no lockfile in a project that never adopted
 * one: returns silently. Findings: warns, records each change of state in .agent-immune/audit.ndjson (MACed with the
 * audit key of AGENT_IMMUNE_AUDIT_KEY or the user key file, when there is one) and returns them; under strict mode it
 * records the block too, then throws SkillIntegrityError.
 */
export async function checkSkillIntegrity(options: SkillIntegrityOptions = {}): Promise<SkillIntegrityResult> {
  const overrides = { strict: options.strict, lockfile: options.lockfile };
  const { report, ws } = await verifyWorkspace(options.root ?? process.cwd(), overrides, { lockfileNamed: options.lockfile !== undefined });
  const verdict = integrityVerdict(report);
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const fail = (what: string) => (error: unknown) => warn(`agent-immune: ${what}: ${errorMessage(error)}`);
  // Record first; a trail that cannot be written is reported but never turns a block into a pass.
  const key = await loadAuditKey(process.env, ws.root).catch((error: unknown) => void fail('the audit key is not usable; recording without it')(error));
  const run = { findings: report.findings, decision: verdict.blocked ? ('block' as const) : ('warn' as const), ...(verdict.blocked ? { blockedBy: 'checkSkillIntegrity' } : {}) };
  const recorded = await recordIntegrityRun(ws.root, run, auditWriter(options.tool ?? 'agent-immune-runtime', key?.key)).catch(fail('could not record in the audit trail'));
  if (recorded?.broken) warn(`agent-immune: ${brokenTrailWarning(recorded.broken)}`);
  if (verdict.blocked) throw new SkillIntegrityError(report.status === 'clean' ? 'drift' : report.status, report.findings);
  for (const finding of verdict.blocking) warn(`agent-immune: ${formatFinding(finding)}`);
  return { status: report.status, findings: report.findings };
}
