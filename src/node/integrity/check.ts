// The runtime API's injection-time check: agent code calls checkSkillIntegrity just before it puts skill files into
// a system prompt. Clean -> silent; drift/corrupt -> warn, record, return; strict -> record, then throw.
import { errorMessage } from '../../core/errors';
import { SkillIntegrityError } from '../../core/integrity/errors';
import { blockEvent, blockingFindings, findingEvents, formatFinding } from '../../core/integrity/findings';
import type { IntegrityFinding, IntegrityStatus } from '../../core/integrity/types';
import { appendAuditEvents, auditActor } from './auditLog';
import { verifyWorkspace } from './verify';

/** Options of checkSkillIntegrity; everything is optional. */
export interface SkillIntegrityOptions {
  /** Workspace root holding the lockfile (default: process.cwd()). */
  root?: string;
  /** Throw SkillIntegrityError on drift or a corrupt lockfile (default: the config's integrity.strict). */
  strict?: boolean;
  /** Lockfile path relative to root (default: the config's integrity.lockfile, else agent-immune.lock). */
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
 * Checks the pinned skill and prompt files against the lockfile. Clean or no lockfile: returns silently. Drift or a
 * corrupt lockfile: warns, appends decision + provenance records to .agent-immune/audit.ndjson and returns the
 * findings; under strict mode it records the block too, then throws SkillIntegrityError.
 */
export async function checkSkillIntegrity(options: SkillIntegrityOptions = {}): Promise<SkillIntegrityResult> {
  const { report, ws } = await verifyWorkspace(options.root ?? process.cwd(), { strict: options.strict, lockfile: options.lockfile });
  const result: SkillIntegrityResult = { status: report.status, findings: report.findings };
  if (report.status === 'clean' || report.status === 'no-lockfile') return result;
  const strict = ws.config.strict;
  const events = findingEvents(report.findings, strict ? 'block' : 'warn');
  if (strict) events.push(blockEvent(report.findings, 'checkSkillIntegrity'));
  const warn = options.warn ?? ((message: string) => console.warn(message));
  // Record first; a log that cannot be written is reported but never turns a block into a pass.
  await appendAuditEvents(ws.root, events, auditActor(options.tool ?? 'agent-immune-runtime')).catch((error: unknown) => warn(`agent-immune: could not record in the audit trail: ${errorMessage(error)}`));
  if (strict) throw new SkillIntegrityError(report.status === 'corrupt-lockfile' ? 'corrupt-lockfile' : 'drift', report.findings);
  for (const finding of blockingFindings(report.findings)) warn(`agent-immune: ${formatFinding(finding)}`);
  return result;
}
