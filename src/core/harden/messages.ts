// Wording of hardening findings, shared by the CLI and the editor so both say the same thing.
import type { SarifRule } from '../sarif';
import type { HardenCode, HardenFinding, HardenSeverity } from './types';

/** One-line description of each code (SARIF rules, docs). */
export const HARDEN_RULES: Record<HardenCode, string> = {
  'missing-immunity-warning': 'A system prompt lacks the mind-virus immunity warning.',
  'unbounded-delegation': 'Delegated or peer content is interpolated into a prompt without a delegation boundary.',
};

/** The message for one finding. */
export function describeFinding(finding: HardenFinding): string {
  if (finding.code === 'missing-immunity-warning') {
    const what = finding.site.kind === 'markdown' ? `prompt file ${finding.site.anchor}` : `system prompt (${finding.site.anchor})`;
    return `The ${what} lacks the immunity warning: agents without it adopt and pass on self-propagating content more easily.`;
  }
  return `\`${finding.expression}\` puts delegated content into the prompt without a delegation boundary: wrap it so the agent treats it as untrusted data.`;
}

/** SARIF rules for the hardening codes, at the configured severities. */
export function hardenSarifRules(severity: Record<HardenCode, HardenSeverity>): SarifRule[] {
  return (Object.keys(HARDEN_RULES) as HardenCode[]).map((id) => ({
    id,
    description: HARDEN_RULES[id],
    level: severity[id] === 'error' ? 'error' : severity[id] === 'warning' ? 'warning' : 'note',
    helpUri: `https://example.invalid/agent-immune/blob/main/docs/hardening.md#${id}`,
  }));
}
