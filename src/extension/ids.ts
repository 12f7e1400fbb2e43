// Command, setting and view ids, typed once (Error Lens style). Keep in sync with package.json "contributes".

export const enum CommandId {
  AnalyzeTrace = 'agentImmune.analyzeTrace',
}

/** Setting keys under the "agentImmune" section. */
export const enum SettingKey {
  Section = 'agentImmune',
}

/** Name of the output channel every feature logs to. */
export const OUTPUT_CHANNEL_NAME = 'Agent Immune';
