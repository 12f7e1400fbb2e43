// "Agent Immune: Analyze Trace with LLM", loaded on first use (its own bundle, dist/llm.js, holds the OpenAI SDK):
// the LLM upgrade from a user action. Refuses in an untrusted workspace, needs the user-level opt-in, asks once per
// workspace before trace content leaves the machine, and can be cancelled. The trace feature presents the result
// (report, diagnostics, graph panel) exactly like Analyze Trace; only the analyser differs.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Analysis } from '../../core/guard/types';
import { llmNotice } from '../../core/llm/messages';
import { decideLlmCall } from '../../core/llm/policy';
import { createLlmGuard, DEFAULT_MODEL, openAiTransport } from '../../node/llm/setup';
import type { ChatTransport } from '../../node/llm/transport';
import type { TraceFeature } from '../analyze/feature';
import { pickTrace } from '../analyze/present';
import { API_KEY_SECRET, CommandId } from '../ids';
import { askModal, showWarning } from '../notify';
import type { Services } from '../services';
import { userSetting } from '../settings';
import { selectEditorModel, VsCodeLmTransport } from './lmTransport';

/** workspaceState key of the per-workspace answers to "send trace content to <host>?". */
const CONSENT_STATE = 'agentImmune.llm.consent';

/** Runs Analyze Trace with LLM on `uri` (else the active trace, else a picked one), presented by the trace feature. */
export async function analyzeWithLlm(services: Services, trace: TraceFeature, uri?: vscode.Uri): Promise<Analysis | undefined> {
  const { context, output } = services;
  // User level only: a workspace cannot redirect traces or keys (the settings are application-scoped).
  const backend = userSetting('llm.backend') === 'vscode-lm' ? 'vscode-lm' : 'openai';
  const baseUrl = userSetting('llm.baseUrl');
  const consents = context.workspaceState.get<Record<string, 'granted' | 'denied'>>(CONSENT_STATE, {});
  const consentKey = backend === 'openai' ? baseUrl : 'vscode-lm';
  let decision = decideLlmCall({ backend, workspaceTrusted: vscode.workspace.isTrusted, sendTraceContent: userSetting('llm.sendTraceContent') === true, endpoint: baseUrl, consent: consents[consentKey] ?? 'unasked' });
  if (!decision.allow && decision.reason === 'ask-consent') {
    const answer = await askModal(llmNotice.consentQuestion(decision.host), llmNotice.allow, llmNotice.deny);
    if (answer === undefined) return undefined;
    consents[consentKey] = answer === llmNotice.allow ? 'granted' : 'denied';
    await context.workspaceState.update(CONSENT_STATE, consents);
    decision = answer === llmNotice.allow ? { allow: true, local: false } : { allow: false, reason: 'consent-denied' };
  }
  if (!decision.allow) {
    output.warn(llmNotice.refusalLog(llmNotice.refusal[decision.reason]));
    void showWarning(llmNotice.refusal[decision.reason]);
    return undefined;
  }

  const target = await pickTrace('Analyze with LLM', uri);
  if (!target) return undefined;
  const apiKey = backend === 'openai' ? await context.secrets.get(API_KEY_SECRET) : undefined;
  const transport = await buildTransport(backend, baseUrl, apiKey, await cacheSalt(context));
  if (!transport) return undefined;
  const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath;
  const llm = createLlmGuard(transport, { scorer: true, filter: true, samples: userSetting('llm.judgeSamples'), cacheRoot: root, session: { maxCalls: userSetting('llm.maxCalls'), secrets: apiKey ? [apiKey] : [] } });
  // In-process: the judge and filter hold the transport and the session, which cannot cross into a worker.
  const analysis = await trace.present(target, (input, signal, onRound) => trace.analyseForView(input, signal, onRound, llm), { label: 'Analyze Trace with LLM', cancellable: true });
  const warning = analysis?.warnings.find((w) => w.code.startsWith('llm-'));
  if (warning) void showWarning(warning.message);
  return analysis;
}

/**
 * The user's secret for the LLM reply cache, made once and kept in the editor's user storage (never in a workspace):
 * without it a repository could commit cache entries for a keyless backend (vscode-lm, a local endpoint).
 */
async function cacheSalt(context: vscode.ExtensionContext): Promise<string> {
  const known = context.globalState.get<string>(CACHE_SALT_STATE);
  if (known) return known;
  const salt = randomBytes(32).toString('base64url');
  await context.globalState.update(CACHE_SALT_STATE, salt);
  return salt;
}

const CACHE_SALT_STATE = 'agentImmune.llmCacheSalt';

/** The configured backend, or undefined after telling the user why it cannot be used. */
async function buildTransport(backend: 'openai' | 'vscode-lm', baseUrl: string, apiKey: string | undefined, salt: string): Promise<ChatTransport | undefined> {
  const model = userSetting('llm.model');
  if (backend === 'vscode-lm') {
    const chat = await selectEditorModel(model === DEFAULT_MODEL ? undefined : model);
    if (chat) return new VsCodeLmTransport(chat, salt);
    void showWarning(llmNotice.noEditorModel);
    return undefined;
  }
  const transport = openAiTransport({ baseURL: baseUrl, model, apiKey, keyHint: llmNotice.keyHint, cacheSalt: salt });
  if ('code' in transport) {
    if ((await showWarning(transport.message, llmNotice.setKey)) === llmNotice.setKey) await vscode.commands.executeCommand(CommandId.SetLlmApiKey);
    return undefined;
  }
  return transport;
}
