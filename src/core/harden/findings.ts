// Each prompt-hardening finding code, described once: default severity (the user may change it per code), where it
// is shown, its description, its message and the label of its fix (docs/hardening.md#<code>). Catalogue order is the
// order fixes apply in at a shared offset: the warning before a boundary.
import { countByCode, sarifRules, type FindingSpec, type Severity } from '../findings';
import type { SarifRule } from '../sarif';
import type { HardenCode, HardenFinding } from './types';

/** A hardening code's spec: every code fails `harden --check`. */
export interface HardenFindingSpec extends FindingSpec<HardenFinding> {
  /** What the finding's range covers: the whole prompt (a Markdown prompt shows on its first line), or the interpolation. */
  attach: 'prompt' | 'interpolation';
  /** The label of its fix, in the quick-fix menu and the refactor preview. */
  fixLabel: string;
}

/** The hardening codes (docs/hardening.md, Findings). */
export const HARDEN_FINDINGS: Record<HardenCode, HardenFindingSpec> = {
  'missing-immunity-warning': {
    severity: 'warning',
    blocking: true,
    attach: 'prompt',
    docs: 'hardening',
    description: 'A system prompt lacks the mind-virus immunity warning.',
    message: (f) => {
      const what = f.site.kind === 'markdown' ? `prompt file ${f.site.anchor}` : `system prompt (${f.site.anchor})`;
      return `The ${what} lacks the immunity warning: agents without it adopt and pass on self-propagating content more easily.`;
    },
    fixLabel: 'Insert immunity warning',
  },
  'unbounded-delegation': {
    severity: 'warning',
    blocking: true,
    attach: 'interpolation',
    docs: 'hardening',
    description: 'Delegated or peer content is interpolated into a prompt without a delegation boundary.',
    message: (f) => `\`${oneLine(f.expression ?? '')}\` puts delegated content into the prompt without a delegation boundary: wrap it so the agent treats it as untrusted data.`,
    fixLabel: 'Wrap in delegation boundary',
  },
};

/** An expression as a one-line message quotes it: whitespace runs collapsed, at most 80 characters. */
export function oneLine(expression: string): string {
  const flat = expression.replace(/\s+/g, ' ').replace(/([([{]) | ([)\]}])/g, '$1$2');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/**
 * The editor's diagnostic code on a prompt sink whose value cannot be read, or a file that cannot be analysed: not a
 * finding (no fix, `harden --check` lists it as `not checked`), shown as information so no prompt passes unseen.
 */
export const NOT_CHECKED_CODE = 'not-checked';

/** The hardening codes, in catalogue (report and fix) order. */
export const HARDEN_CODES = Object.keys(HARDEN_FINDINGS) as HardenCode[];

/** True for a string that is a hardening code. */
export function isHardenCode(code: unknown): code is HardenCode {
  return typeof code === 'string' && Object.hasOwn(HARDEN_FINDINGS, code);
}

/** The message for one finding, saying why when it has no automatic fix. */
export function describeFinding(finding: HardenFinding): string {
  const message = HARDEN_FINDINGS[finding.code].message(finding);
  return finding.manual === undefined ? message : `${message} No automatic fix: ${finding.manual}; edit it by hand.`;
}

/** Findings in fix order: by code in catalogue order, stable within a code. */
export function inFixOrder(findings: readonly HardenFinding[]): HardenFinding[] {
  return [...findings].sort((a, b) => HARDEN_CODES.indexOf(a.code) - HARDEN_CODES.indexOf(b.code));
}

/** The default severity of each code. */
export function defaultHardenSeverities(): Record<HardenCode, Severity> {
  return Object.fromEntries(HARDEN_CODES.map((code) => [code, HARDEN_FINDINGS[code].severity])) as Record<HardenCode, Severity>;
}

/** SARIF rules for the hardening codes, at the configured severities. */
export function hardenSarifRules(severity: Record<HardenCode, Severity>): SarifRule[] {
  return sarifRules(HARDEN_FINDINGS, (code) => severity[code]);
}


/** "12 missing-immunity-warning, 5 unbounded-delegation". */
export function countHardenFindings(findings: readonly HardenFinding[]): string {
  return countByCode(findings.map((f) => f.code), HARDEN_CODES);
}
