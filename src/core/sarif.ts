// Findings -> SARIF 2.1.0, shared by every command that offers --sarif (verify, harden), so code-scanning dashboards
// show them. Generic: callers map their own findings to SarifResult and describe their rules once.

/** SARIF severity levels. */
export type SarifLevel = 'error' | 'warning' | 'note' | 'none';

/** One rule (a finding code): id, one-line description, default level and a docs link. */
export interface SarifRule {
  id: string;
  description: string;
  level: SarifLevel;
  helpUri?: string;
}

/** One result: which rule, the worded message, and where (POSIX path relative to the root; 1-based line). */
export interface SarifResult {
  ruleId: string;
  message: string;
  path: string;
  line?: number;
  level?: SarifLevel;
  /** Stable identity across runs (e.g. code + path), for dashboards that track a result over time. */
  fingerprint?: string;
}

/** The tool that produced the results. */
export interface SarifTool {
  name: string;
  version: string;
  informationUri?: string;
}

/** Builds a SARIF 2.1.0 log with one run; paths are relative to the %SRCROOT% base. */
export function toSarif(tool: SarifTool, rules: readonly SarifRule[], results: readonly SarifResult[]): object {
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            ...(tool.informationUri ? { informationUri: tool.informationUri } : {}),
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.description },
              defaultConfiguration: { level: rule.level },
              ...(rule.helpUri ? { helpUri: rule.helpUri } : {}),
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: './' } },
        results: results.map((result) => ({
          ruleId: result.ruleId,
          ...(index.has(result.ruleId) ? { ruleIndex: index.get(result.ruleId) } : {}),
          level: result.level ?? rules[index.get(result.ruleId) ?? -1]?.level ?? 'warning',
          message: { text: result.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeURI(result.path), uriBaseId: '%SRCROOT%' },
                region: { startLine: result.line ?? 1 },
              },
            },
          ],
          ...(result.fingerprint ? { partialFingerprints: { primaryLocationLineHash: result.fingerprint } } : {}),
        })),
      },
    ],
  };
}
