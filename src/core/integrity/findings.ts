// Each skill-integrity finding code, described once: severity, whether it blocks under strict mode, where the editor
// shows it, what the audit trail records of it, its description and its message (docs/lockfile.md#<code>).
import type { AuditEvent } from './audit';
import { countByCode, sarifRules, specOf, type FindingSpec, type Severity, type Variant } from '../findings';
import type { SarifRule } from '../sarif';
import type { IntegrityCode, IntegrityFinding } from './types';

/** The audit record of a finding (its event is the code): path, hashes before and after, a short why. */
export type AuditFields = Pick<AuditEvent, 'path' | 'old' | 'new' | 'detail'>;

/** An integrity code's spec: a blocking code is an error under strict mode and stops a run. */
export interface IntegrityFindingSpec<F> extends FindingSpec<F> {
  /** Where the editor shows it: on the file itself, or on the lockfile (a gone file has no document to carry it). */
  attach: 'file' | 'lockfile';
  /** What the audit trail records when the finding appears; null: nothing (advisory findings). */
  audit: ((finding: F) => AuditFields) | null;
}

/** The integrity codes (docs/lockfile.md, Findings). */
export const INTEGRITY_FINDINGS: { [C in IntegrityCode]: IntegrityFindingSpec<Variant<IntegrityFinding, C>> } = {
  drift: {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A pinned file changed since it was pinned.',
    message: (f) => `${f.path} changed since it was pinned (pinned ${f.expected}, now ${f.actual}).`,
    audit: (f) => ({ path: f.path, old: f.expected, new: f.actual }),
  },
  unpinned: {
    severity: 'information',
    blocking: false,
    attach: 'file',
    docs: 'lockfile',
    description: 'A file in the pinned scope is not in the lockfile.',
    message: (f) => `${f.path} is not pinned; run "agent-immune lock" to pin it.`,
    audit: null,
  },
  missing: {
    severity: 'warning',
    blocking: true,
    attach: 'lockfile',
    docs: 'lockfile',
    description: 'A pinned file no longer exists.',
    message: (f) => `${f.path} is pinned but no longer exists.`,
    audit: (f) => ({ path: f.path, old: f.expected }),
  },
  renamed: {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'An unpinned file has the content of a missing pinned file.',
    message: (f) => `${f.path} has the content of the missing pinned file ${f.from} (renamed or moved?).`,
    audit: (f) => ({ path: f.path, new: f.integrity, detail: `from ${f.from}` }),
  },
  'corrupt-lockfile': {
    severity: 'error',
    blocking: true,
    attach: 'lockfile',
    docs: 'lockfile',
    description: 'The lockfile cannot be trusted (unreadable, not JSON, wrong schema or an entry escaping the root).',
    message: (f) => `${f.path} cannot be trusted (${f.reason}${f.line ? `, line ${f.line}` : ''}): ${f.detail}.`,
    audit: (f) => ({ path: f.path, detail: `${f.reason}: ${f.detail}` }),
  },
  'symlink-outside-root': {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A symlink in the pinned scope points outside the workspace; it is never followed.',
    message: (f) => `${f.path} is a symlink to a target outside the workspace; it was not followed.`,
    audit: (f) => ({ path: f.path }),
  },
};

/** Every integrity code, in catalogue order. */
export const INTEGRITY_CODES = Object.keys(INTEGRITY_FINDINGS) as IntegrityCode[];

/** The spec of a finding's code. */
export function integritySpec(finding: IntegrityFinding): IntegrityFindingSpec<IntegrityFinding> {
  return specOf(INTEGRITY_FINDINGS, finding);
}

/** One-line message for a finding. */
export function formatFinding(finding: IntegrityFinding): string {
  return integritySpec(finding).message(finding);
}

/** True when the finding blocks under strict mode (everything but advisory codes). */
export function isBlocking(finding: IntegrityFinding): boolean {
  return integritySpec(finding).blocking;
}

/** The findings that block under strict mode. */
export function blockingFindings(findings: readonly IntegrityFinding[]): IntegrityFinding[] {
  return findings.filter(isBlocking);
}

/** The severity a code is shown with: a blocking warning is an error under strict mode. */
export function integritySeverity(code: IntegrityCode, strict: boolean): Severity {
  const spec = INTEGRITY_FINDINGS[code];
  return strict && spec.blocking && spec.severity === 'warning' ? 'error' : spec.severity;
}

/** The SARIF rules of the integrity check; `strict` turns blocking codes into errors. */
export function integritySarifRules(strict: boolean): SarifRule[] {
  return sarifRules(INTEGRITY_FINDINGS, (code) => integritySeverity(code, strict));
}

/** Audit events for the findings the audit trail records, decided as warn or block. */
export function findingEvents(findings: readonly IntegrityFinding[], decision: 'warn' | 'block'): AuditEvent[] {
  return findings.flatMap((finding) => {
    const audit = integritySpec(finding).audit;
    return audit ? [{ event: finding.code, decision, ...audit(finding) }] : [];
  });
}

/** The block event recorded (after the findings) when strict mode refuses a run. */
export function blockEvent(findings: readonly IntegrityFinding[], by: string): AuditEvent {
  const paths = [...new Set(blockingFindings(findings).map((f) => f.path))];
  return { event: 'block', decision: 'block', detail: `${by} refused: ${paths.join(', ')}` };
}

/** A finding's identity for "recorded once": its audit record (undefined for findings never recorded). */
export function auditKey(finding: IntegrityFinding): string | undefined {
  const audit = integritySpec(finding).audit;
  return audit ? JSON.stringify([finding.code, audit(finding)]) : undefined;
}

/** "2 drift, 1 unpinned". */
export function countIntegrityFindings(findings: readonly IntegrityFinding[]): string {
  return countByCode(findings.map((f) => f.code), INTEGRITY_CODES);
}
