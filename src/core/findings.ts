// The shape every finding code of every check is described in (integrity, hardening, monitor, trace analysis): each
// family keeps one catalogue, a record keyed by its codes, and every consumer (CLI text, SARIF, editor diagnostics,
// audit trail, docs links) reads it. A new code that is missing from a catalogue does not compile.
import type { SarifLevel, SarifRule } from './sarif';

/** How serious a finding is, as the editor shows it; the SARIF level derives from it. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** Every severity, most serious first. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

/** The documentation page of a family's codes; each code is an anchor on it (`<a id="code">`). */
export type DocsPage = 'lockfile' | 'hardening' | 'monitoring' | 'cli';

/** Public location of the docs folder (the repository URL in package.json). */
export const DOCS_BASE_URL = 'https://example.invalid/agent-immune/blob/main/docs';

/** Public home of the project (SARIF `informationUri`). */
export const PROJECT_URL = 'https://example.invalid/agent-immune';

/** What every consumer needs to know about one code, besides the finding itself. */
export interface FindingSpec<F> {
  /** Default severity (a user setting or strict mode may raise it; see the family). */
  severity: Severity;
  /** True when the finding fails a check: exit 1, or a strict-mode block. False: advisory. */
  blocking: boolean;
  /** Docs page; the anchor is the code. */
  docs: DocsPage;
  /** One line on what the code means (SARIF rule text). */
  description: string;
  /** The one-line message for one finding. */
  message(finding: F): string;
}

/** The finding variant of one code. */
export type Variant<F extends { code: string }, C extends F['code']> = Extract<F, { code: C }>;

/**
 * The spec of a finding's code from a catalogue keyed by code (`{ [C in Code]: Spec<Variant<F, C>> }`), typed for the
 * whole union: the lookup is by the finding's own code, so its message and fields take exactly that finding.
 */
export function specOf<F extends { code: string }, S>(catalogue: { [C in F['code']]: unknown }, finding: F): S {
  return catalogue[finding.code as F['code']] as S;
}

/** The docs link of a code. */
export function docsUrl(page: DocsPage, code: string): string {
  return `${DOCS_BASE_URL}/${page}.md#${code}`;
}

/** The SARIF level of a severity: information and hint are notes. */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/** The SARIF rules of a catalogue, one per code, at the severity `severityOf` gives (default: the spec's). */
export function sarifRules<C extends string>(catalogue: Record<C, FindingSpec<never>>, severityOf: (code: C) => Severity = (code) => catalogue[code].severity): SarifRule[] {
  return (Object.keys(catalogue) as C[]).map((id) => ({ id, description: catalogue[id].description, level: sarifLevel(severityOf(id)), helpUri: docsUrl(catalogue[id].docs, id) }));
}

/** How many findings of each code, in catalogue order (codes with none are left out). */
export function tallyByCode<C extends string>(codes: readonly C[], order: readonly C[]): Partial<Record<C, number>> {
  const tally: Partial<Record<C, number>> = {};
  for (const code of order) {
    const n = codes.filter((c) => c === code).length;
    if (n > 0) tally[code] = n;
  }
  return tally;
}

/** "2 drift, 1 unpinned-skill": the tally as text. */
export function countByCode<C extends string>(codes: readonly C[], order: readonly C[]): string {
  return Object.entries(tallyByCode(codes, order)).map(([code, n]) => `${n} ${code}`).join(', ');
}
