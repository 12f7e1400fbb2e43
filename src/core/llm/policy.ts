// Whether an LLM call may be made: never in an untrusted workspace, only after the user opted in to sending trace
// content, and only after a one-time consent per workspace when the endpoint is not on this machine.

/** Where the LLM runs: an OpenAI-compatible endpoint or the editor's own language models. */
export type LlmBackendKind = 'openai' | 'vscode-lm';

/** The facts the decision needs; the extension and the CLI fill them in. */
export interface LlmPolicyInput {
  backend: LlmBackendKind;
  /** Workspace Trust; the CLI passes true (the user ran it on purpose). */
  workspaceTrusted: boolean;
  /** The user-level opt-in to send trace content to an LLM. */
  sendTraceContent: boolean;
  /** Base URL of the OpenAI-compatible endpoint (backend "openai"). */
  endpoint?: string;
  /** The answer to "send trace content to this endpoint?" for this workspace. */
  consent: 'granted' | 'denied' | 'unasked';
}

/** The decision, with a stable reason code when the call is refused or needs the user's consent first. */
export type LlmDecision =
  | { allow: true; local: boolean }
  | { allow: false; reason: 'untrusted-workspace' | 'not-opted-in' | 'invalid-endpoint' | 'consent-denied' }
  | { allow: false; reason: 'ask-consent'; host: string };

/** Decides whether trace content may be sent to the configured LLM. */
export function decideLlmCall(input: LlmPolicyInput): LlmDecision {
  if (!input.workspaceTrusted) return { allow: false, reason: 'untrusted-workspace' };
  if (!input.sendTraceContent) return { allow: false, reason: 'not-opted-in' };
  let host = 'the editor language model provider';
  let local = false;
  if (input.backend === 'openai') {
    const url = parseEndpoint(input.endpoint);
    if (!url) return { allow: false, reason: 'invalid-endpoint' };
    host = url.host;
    local = isLocalEndpoint(url.href);
  }
  if (local || input.consent === 'granted') return { allow: true, local };
  if (input.consent === 'denied') return { allow: false, reason: 'consent-denied' };
  return { allow: false, reason: 'ask-consent', host };
}

/** True when the URL points at this machine (localhost, 127.0.0.0/8, ::1, *.localhost). */
export function isLocalEndpoint(endpoint: string): boolean {
  const url = parseEndpoint(endpoint);
  if (!url) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** An http(s) URL without credentials in it, or undefined. */
export function parseEndpoint(endpoint: string | undefined): URL | undefined {
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/** Replaces every occurrence of each secret (and any bearer token) in a text, for logs, errors and reports. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out.replace(/\b(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
}
