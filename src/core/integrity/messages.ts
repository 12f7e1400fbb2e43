// Wording of integrity findings, in one place for the CLI, the diagnostics, the runtime API and SARIF.
import type { SarifRule } from '../sarif';
import type { IntegrityCode, IntegrityFinding } from './types';

/** Public location of docs/lockfile.md (the repository URL in package.json); anchors are the finding codes. */
export const LOCKFILE_DOCS_URL = 'https://example.invalid/agent-immune/blob/main/docs/lockfile.md';

const DESCRIPTIONS: Record<IntegrityCode, string> = {
  drift: 'A pinned file changed since it was pinned.',
  unpinned: 'A file in the pinned scope is not in the lockfile.',
  missing: 'A pinned file no longer exists.',
  renamed: 'An unpinned file has the content of a missing pinned file.',
  'corrupt-lockfile': 'The lockfile cannot be trusted (unreadable, not JSON, wrong schema or an entry escaping the root).',
  'symlink-outside-root': 'A symlink in the pinned scope points outside the workspace; it is never followed.',
};

/** One-line message for a finding. */
export function formatFinding(finding: IntegrityFinding): string {
  switch (finding.code) {
    case 'drift':
      return `${finding.path} changed since it was pinned (pinned ${finding.expected}, now ${finding.actual}).`;
    case 'unpinned':
      return `${finding.path} is not pinned; run "agent-immune lock" to pin it.`;
    case 'missing':
      return `${finding.path} is pinned but no longer exists.`;
    case 'renamed':
      return `${finding.path} has the content of the missing pinned file ${finding.from} (renamed or moved?).`;
    case 'corrupt-lockfile':
      return `${finding.path} cannot be trusted (${finding.reason}${finding.line ? `, line ${finding.line}` : ''}): ${finding.detail}.`;
    case 'symlink-outside-root':
      return `${finding.path} is a symlink to a target outside the workspace; it was not followed.`;
  }
}

/** Docs link for a code. */
export function findingDocsUrl(code: IntegrityCode): string {
  return `${LOCKFILE_DOCS_URL}#${code}`;
}

/** The SARIF rules of the integrity check; `strict` turns blocking codes into errors. */
export function integritySarifRules(strict: boolean): SarifRule[] {
  return (Object.keys(DESCRIPTIONS) as IntegrityCode[]).map((id) => ({
    id,
    description: DESCRIPTIONS[id],
    level: id === 'unpinned' ? 'note' : strict || id === 'corrupt-lockfile' ? 'error' : 'warning',
    helpUri: findingDocsUrl(id),
  }));
}
