// Wording of the editor's LLM upgrade: why Analyze Trace with LLM makes no call, the consent question, the API key
// commands and the editor's language model errors (the editor adds the "Agent Immune: " prefix to notifications).
import type { LlmDecision } from './policy';

/** The editor's texts of Analyze Trace with LLM and the API key commands. */
export const llmNotice = {
  /** Why the command makes no LLM call, as the user is told. */
  refusal: {
    'untrusted-workspace': 'this workspace is not trusted, so Agent Immune makes no LLM call here.',
    'not-opted-in': 'sending trace content to an LLM is off. Turn on the agentImmune.llm.sendTraceContent user setting first.',
    'invalid-endpoint': 'agentImmune.llm.baseUrl is not an http(s) URL without credentials.',
    'consent-denied': 'you declined sending trace content to this endpoint for this workspace.',
  } satisfies Record<Exclude<LlmDecision, { allow: true } | { reason: 'ask-consent' }>['reason'], string>,
  /** The one-time question before trace content goes to `host`. */
  consentQuestion: (host: string) => `the agent outputs and the task of the traces you analyse with the LLM will be sent to ${host}. Nothing else leaves the machine (no other files, no settings). Allow it for this workspace?`,
  /** The answer that allows it. */
  allow: 'Allow for this workspace',
  /** The answer that refuses it. */
  deny: 'Deny',
  /** Why the editor's language model is asked (shown by the editor when it asks the user). */
  lmJustification: 'Agent Immune scores and cleans agent outputs of the trace you asked it to analyse.',
  /** The editor refused its language model to the extension. */
  lmNoPermission: 'the editor did not allow Agent Immune to use this language model',
  /** The editor's language model is over its quota. */
  lmBlocked: 'the editor language model is over its quota',
  /** The editor's language model went away. */
  lmNotFound: 'the editor language model is no longer available',
  /** Another failure of the editor's language model. */
  lmFailed: (reason: string) => `the editor language model failed: ${reason}`,
  /** The vscode-lm backend found no model. */
  noEditorModel: 'no editor language model is available; use Analyze Trace for the embedded guard.',
  /** How to give the endpoint its missing key. */
  keyHint: 'run "Agent Immune: Set LLM API Key"',
  /** The action that runs Set LLM API Key. */
  setKey: 'Set LLM API Key',
  /** The title of the API key input. */
  keyTitle: 'Agent Immune: LLM API key',
  /** The prompt of the API key input. */
  keyPrompt: 'Stored in the editor secret storage only; sent only to the endpoint in the agentImmune.llm.baseUrl setting.',
  /** What is wrong with a typed key, if anything. */
  keyProblem: (value: string) => (value.trim() === '' ? 'Enter a key, or press Escape to cancel' : /\s/.test(value.trim()) ? 'A key has no spaces' : undefined),
  /** The output-channel line of a refusal. */
  refusalLog: (reason: string) => `Analyze Trace with LLM: ${reason}`,
  /** The output-channel line after Set LLM API Key. */
  keyStoredLog: 'LLM API key stored in secret storage.',
  /** The output-channel line after Clear LLM API Key. */
  keyClearedLog: 'LLM API key removed from secret storage.',
  /** Set LLM API Key stored it. */
  keyStored: 'LLM API key stored.',
  /** Clear LLM API Key removed it. */
  keyCleared: 'LLM API key cleared.',
} as const;
