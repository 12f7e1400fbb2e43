// Command, setting and view ids, typed once (Error Lens style), as package.json "contributes" declares them.
import type { Severity } from '../core/findings';
import type { HardenCode } from '../core/harden/types';

export const enum CommandId {
  InsertImmunityWarning = 'agentImmune.insertImmunityWarning',
  InsertDelegationBoundary = 'agentImmune.insertDelegationBoundary',
  HardenAllPrompts = 'agentImmune.hardenAllPrompts',
  RepinHardened = 'agentImmune.repinHardened',
  PinSkills = 'agentImmune.pinSkills',
  RestoreLockfile = 'agentImmune.restoreLockfile',
  VerifySkills = 'agentImmune.verifySkills',
  ApproveSkillChange = 'agentImmune.approveSkillChange',
  ShowPinnedDiff = 'agentImmune.showPinnedDiff',
  CreateAuditKey = 'agentImmune.createAuditKey',
  VerifyAuditTrail = 'agentImmune.verifyAuditTrail',
  AnalyzeTrace = 'agentImmune.analyzeTrace',
  AnalyzeTraceWithLlm = 'agentImmune.analyzeTraceWithLlm',
  SetLlmApiKey = 'agentImmune.setLlmApiKey',
  ClearLlmApiKey = 'agentImmune.clearLlmApiKey',
  WatchLiveRuns = 'agentImmune.watchLiveRuns',
  StopWatchingLiveRuns = 'agentImmune.stopWatchingLiveRuns',
  OpenLiveRun = 'agentImmune.openLiveRun',
}

/** Webview panel view types and tree views. */
export const enum ViewId {
  GraphPanel = 'agentImmune.graphView',
  LiveRuns = 'agentImmune.liveRuns',
}

/** Context key (when clauses): Watch Live Runs is receiving or connected. */
export const LIVE_WATCHING_CONTEXT = 'agentImmune.liveWatching';

/** The section every setting is under. */
export const SETTINGS_SECTION = 'agentImmune';

/** "missing-immunity-warning" -> "missingImmunityWarning". */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** Each setting under "agentImmune" with its value type: package.json `contributes.configuration` holds the same ids,
 * types and the defaults (test/unit/extension/settings.test.ts checks they agree). One severity setting per hardening code. */
export type SettingValues = {
  'harden.enabled': boolean;
  'harden.include': string[] | null;
  'harden.exclude': string[] | null;
  'monitor.enabled': boolean;
  'integrity.enabled': boolean;
  'integrity.strict': boolean;
  'integrity.extraRoots': string[];
  'integrity.lockfile': string;
  'llm.sendTraceContent': boolean;
  'llm.backend': 'openai' | 'vscode-lm';
  'llm.baseUrl': string;
  'llm.model': string;
  'llm.judgeSamples': number;
  'llm.maxCalls': number;
  'live.host': string;
  'live.port': number;
  'live.connectUrl': string;
} & { [C in HardenCode as `harden.severity.${CamelCase<C>}`]: Severity };

/** A setting id, relative to the section. */
export type SettingId = keyof SettingValues;

/** The severity setting of a hardening code: harden.severity.<camelCaseCode>. */
export function severitySetting<C extends HardenCode>(code: C): `harden.severity.${CamelCase<C>}` {
  return `harden.severity.${code.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}` as `harden.severity.${CamelCase<C>}`;
}

/** SecretStorage key of the LLM API key. */
export const API_KEY_SECRET = 'agentImmune.llm.apiKey';

/** SecretStorage key of the audit key that MACs the audit trail's records (docs/lockfile.md). */
export const AUDIT_KEY_SECRET = 'agentImmune.integrity.auditKey';

/** SecretStorage key of the bearer token of the receiver in agentImmune.live.connectUrl. */
export const LIVE_TOKEN_SECRET = 'agentImmune.live.token';

/** Tool name written in audit records from the editor (docs/lockfile.md, actor). */
export const EXTENSION_ACTOR = 'agent-immune-vscode';

/** Name of the output channel every feature logs to. */
export const OUTPUT_CHANNEL_NAME = 'Agent Immune';
