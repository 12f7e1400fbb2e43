// Command, setting and view ids, typed once (Error Lens style). Keep in sync with package.json "contributes".

export const enum CommandId {
  InsertImmunityWarning = 'agentImmune.insertImmunityWarning',
  InsertDelegationBoundary = 'agentImmune.insertDelegationBoundary',
  HardenAllPrompts = 'agentImmune.hardenAllPrompts',
  RepinHardened = 'agentImmune.repinHardened',
  PinSkills = 'agentImmune.pinSkills',
  VerifySkills = 'agentImmune.verifySkills',
  ApproveSkillChange = 'agentImmune.approveSkillChange',
  ShowPinnedDiff = 'agentImmune.showPinnedDiff',
  AnalyzeTrace = 'agentImmune.analyzeTrace',
  AnalyzeTraceWithLlm = 'agentImmune.analyzeTraceWithLlm',
  SetLlmApiKey = 'agentImmune.setLlmApiKey',
  ClearLlmApiKey = 'agentImmune.clearLlmApiKey',
}

/** Webview panel view types. */
export const enum ViewId {
  GraphPanel = 'agentImmune.graphView',
}

/** Setting keys under the "agentImmune" section. */
export const enum SettingKey {
  Section = 'agentImmune',
  HardenEnabled = 'harden.enabled',
  HardenInclude = 'harden.include',
  HardenExclude = 'harden.exclude',
  HardenSeverityMissingWarning = 'harden.severity.missingImmunityWarning',
  HardenSeverityUnboundedDelegation = 'harden.severity.unboundedDelegation',
  IntegrityEnabled = 'integrity.enabled',
  IntegrityStrict = 'integrity.strict',
  IntegrityLockfile = 'integrity.lockfile',
  IntegrityExtraRoots = 'integrity.extraRoots',
  LlmBackend = 'llm.backend',
  LlmBaseUrl = 'llm.baseUrl',
  LlmModel = 'llm.model',
  LlmSendTraceContent = 'llm.sendTraceContent',
  LlmJudgeSamples = 'llm.judgeSamples',
  LlmMaxCalls = 'llm.maxCalls',
  MonitorEnabled = 'monitor.enabled',
}

/** Name of the output channel every feature logs to. */
export const OUTPUT_CHANNEL_NAME = 'Agent Immune';
