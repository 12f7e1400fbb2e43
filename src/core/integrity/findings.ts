// Each skill-integrity finding code, described once: severity, whether it blocks under strict mode, where the editor
// shows it, what the audit trail records of it, its description and its message (docs/lockfile.md#<code>).
import type { AuditEvent } from './audit';
import { CONFIG_FILE_NAME } from '../config';
import { countByCode, sarifRules, tallyByCode, specOf, type FindingSpec, type Severity, type Variant } from '../findings';
import type { SarifRule } from '../sarif';
import type { IntegrityCode, IntegrityFinding, LockfileAdoption } from './types';

/** The audit record of a finding (its event is the code): path, hashes before and after, a short why. */
export type AuditFields = Pick<AuditEvent, 'path' | 'old' | 'new' | 'detail'>;

/** An integrity code's spec: a blocking code is an error under strict mode and stops a run. */
export interface IntegrityFindingSpec<F> extends FindingSpec<F> {
  /** Where the editor shows it: on the file itself, or on the lockfile (a gone file has no document to carry it). */
  attach: 'file' | 'lockfile';
  /** What the audit trail records when the finding appears (and when it clears). */
  audit: (finding: F) => AuditFields;
}

/** The integrity codes (docs/lockfile.md, Findings). */
export const INTEGRITY_FINDINGS: { [C in IntegrityCode]: IntegrityFindingSpec<Variant<IntegrityFinding, C>> } = {
  drift: {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A pinned file changed since it was pinned.',
    message: (f) => `${f.path} changed since it was pinned (pinned ${f.expected}, now ${f.actual}${f.link !== undefined ? `; a link to a skill folder, now to ${f.link}` : ''}).`,
    audit: (f) => ({ path: f.path, old: f.expected, new: f.actual }),
  },
  'skill-file-added': {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A file appeared in a pinned skill folder: the skill changed since it was pinned.',
    message: (f) => `${f.path} was added to the pinned skill ${f.skill} (the skill changed since it was pinned).`,
    audit: (f) => ({ path: f.path, new: f.actual, detail: `added to skill ${f.skill}` }),
  },
  'unpinned-skill': {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A skill folder or prompt file the pinned globs match is not in the lockfile.',
    message: (f) => `${unpinnedWhat(f)}; review it, then run "agent-immune lock" to pin it.`,
    audit: (f) => ({ path: f.path, new: f.actual, ...(f.skill !== undefined ? { detail: `skill ${f.skill}` } : {}) }),
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
  'lockfile-missing': {
    severity: 'warning',
    blocking: true,
    attach: 'lockfile',
    docs: 'lockfile',
    description: 'The project adopted a lockfile (integrity.strict in its config, git tracks it, or verify --lockfile names it) and it is not there.',
    message: (f) => lockfileMissingMessage(f.path, f.adopted),
    audit: (f) => ({ path: f.path, detail: ADOPTION_DETAIL[f.adopted] }),
  },
  'symlink-outside-root': {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A symlink in the pinned scope, or a folder symlink anywhere, points outside the workspace; it is never followed.',
    message: (f) => `${f.path} is a symlink to a target outside the workspace; it was not followed (exclude it if it is not for agents).`,
    audit: (f) => ({ path: f.path }),
  },
  unpinnable: {
    severity: 'warning',
    blocking: true,
    attach: 'file',
    docs: 'lockfile',
    description: 'A path in the pinned scope cannot be hashed (not a regular file, a folder symlink, unreadable, or changing).',
    message: (f) => `${f.path} cannot be pinned (${f.reason}): ${f.detail}; fix it or exclude it (integrity.exclude).`,
    audit: (f) => ({ path: f.path, detail: `${f.reason}: ${f.detail}` }),
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

/** The audit event of a finding, decided as warn or block. */
export function findingEvent(finding: IntegrityFinding, decision: 'warn' | 'block'): AuditEvent {
  return { event: finding.code, decision, ...integritySpec(finding).audit(finding) };
}

/** The block event recorded (after the findings) when strict mode refuses a run. */
export function blockEvent(findings: readonly IntegrityFinding[], by: string): AuditEvent {
  const paths = [...new Set(blockingFindings(findings).map((f) => f.path))];
  return { event: 'block', decision: 'block', detail: `${by} refused: ${paths.join(', ')}` };
}

/** What the audit trail records of how the project adopted its lockfile. */
const ADOPTION_DETAIL: Record<LockfileAdoption, string> = { config: 'integrity.strict is set', git: 'tracked in git', named: 'named by verify --lockfile' };

/** The lockfile-missing message: why its absence counts, how to bring it back, and how to pin anew (a first pin too). */
function lockfileMissingMessage(file: string, adopted: LockfileAdoption): string {
  const anew = '"agent-immune lock --anew" (Pin Anyway in the editor) would pin them as they are';
  if (adopted === 'git') return `${file} is gone, but git tracks it; restore it ("agent-immune lock --restore", or Restore Lockfile from Git in the editor) to check the files against what was pinned; ${anew}.`;
  if (adopted === 'named') return `${file} is not there, but verify was told to check against it (--lockfile): a change that deletes the lockfile is not a pass; restore it (from the branch it was committed to) to check the files against what was pinned; ${anew}.`;
  return `${file} is not there, but the project config sets integrity.strict; if it was deleted, restore it from where it was kept to check the files against what was pinned; for a first pin, or to pin the files as they are, run "agent-immune lock --anew" (Pin Anyway in the editor).`;
}

/** What an unpinned path is: a file of a new skill, the project config, a link to a skill folder, or a prompt or agent config file. */
function unpinnedWhat(f: Extract<IntegrityFinding, { code: 'unpinned-skill' }>): string {
  if (f.skill !== undefined) return `${f.path} belongs to the skill ${f.skill}, which is not pinned`;
  if (f.path === CONFIG_FILE_NAME) return `${f.path}, the project config that decides what is pinned, is not pinned`;
  if (f.link !== undefined) return `${f.path} is a link to the skill folder ${f.link} that is not pinned`;
  return `${f.path} is a prompt or agent config file that is not pinned`;
}

/** "2 drift, 1 unpinned-skill". */
export function countIntegrityFindings(findings: readonly IntegrityFinding[]): string {
  return countByCode(findings.map((f) => f.code), INTEGRITY_CODES);
}

/** {"drift": 2, "unpinned-skill": 1}: the same count as an object (verify --json `counts`). */
export function tallyIntegrityFindings(findings: readonly IntegrityFinding[]): Partial<Record<IntegrityCode, number>> {
  return tallyByCode(findings.map((f) => f.code), INTEGRITY_CODES);
}
