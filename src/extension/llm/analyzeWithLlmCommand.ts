// "Agent Immune: Analyze Trace with LLM": the LLM upgrade from a user action. Refuses in an untrusted workspace, needs
// the user-level opt-in, asks once per workspace before trace content leaves the machine, and can be cancelled. The
// result is presented by Analyze Trace's presentTrace (report, diagnostics, graph panel); only the analyser differs.
import * as vscode from 'vscode';
import { decideLlmCall, type LlmBackendKind } from '../../core/llm/policy';
import { analyseForView } from '../../node/analysisJob';
import { createLlmGuard, DEFAULT_BASE_URL, DEFAULT_MODEL, openAiTransport } from '../../node/llm/setup';
import type { ChatTransport } from '../../node/llm/transport';
import { pickTrace, type PresentTrace } from '../analyze/analyzeTraceCommand';
import type { Services } from '../extension';
import { CommandId, SettingKey } from '../ids';
import { API_KEY_SECRET } from './apiKeyCommands';
import { selectEditorModel, VsCodeLmTransport } from './lmTransport';

/** workspaceState key of the per-workspace answers to "send trace content to <host>?". */
const CONSENT_STATE = 'agentImmune.llm.consent';

/** The LLM settings, read from the user (application) level only: a workspace cannot redirect traces or keys. */
interface LlmSettings {
  backend: LlmBackendKind;
  baseUrl: string;
  model: string;
  sendTraceContent: boolean;
  judgeSamples: number;
  maxCalls: number;
}

/** Registers the Analyze Trace with LLM command; `present` shows its result exactly like Analyze Trace. */
export function registerAnalyzeWithLlm(services: Services, present: PresentTrace): void {
  services.context.subscriptions.push(vscode.commands.registerCommand(CommandId.AnalyzeTraceWithLlm, (uri?: vscode.Uri) => analyzeWithLlm(services, present, uri)));
}

function userSetting<T>(key: string, fallback: T): T {
  const inspected = vscode.workspace.getConfiguration(SettingKey.Section).inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

function readSettings(): LlmSettings {
  return {
    backend: userSetting<LlmBackendKind>(SettingKey.LlmBackend, 'openai') === 'vscode-lm' ? 'vscode-lm' : 'openai',
    baseUrl: userSetting(SettingKey.LlmBaseUrl, DEFAULT_BASE_URL),
    model: userSetting(SettingKey.LlmModel, DEFAULT_MODEL),
    sendTraceContent: userSetting<boolean>(SettingKey.LlmSendTraceContent, false) === true,
    judgeSamples: userSetting(SettingKey.LlmJudgeSamples, 3),
    maxCalls: userSetting(SettingKey.LlmMaxCalls, 500),
  };
}

async function analyzeWithLlm(services: Services, present: PresentTrace, uri?: vscode.Uri) {
  const { context, output } = services;
  const settings = readSettings();
  const consents = context.workspaceState.get<Record<string, 'granted' | 'denied'>>(CONSENT_STATE, {});
  const consentKey = settings.backend === 'openai' ? settings.baseUrl : 'vscode-lm';
  let decision = decideLlmCall({ backend: settings.backend, workspaceTrusted: vscode.workspace.isTrusted, sendTraceContent: settings.sendTraceContent, endpoint: settings.baseUrl, consent: consents[consentKey] ?? 'unasked' });
  if (!decision.allow && decision.reason === 'ask-consent') {
    const allow = 'Allow for this workspace';
    const answer = await vscode.window.showWarningMessage(
      `Agent Immune will send the agent outputs and the task of the traces you analyse with the LLM to ${decision.host}. Nothing else leaves the machine (no other files, no settings). Allow it for this workspace?`,
      { modal: true },
      allow,
      'Deny',
    );
    if (answer === undefined) return undefined;
    consents[consentKey] = answer === allow ? 'granted' : 'denied';
    await context.workspaceState.update(CONSENT_STATE, consents);
    decision = answer === allow ? { allow: true, local: false } : { allow: false, reason: 'consent-denied' };
  }
  if (!decision.allow) {
    const why = {
      'untrusted-workspace': 'this workspace is not trusted, so Agent Immune makes no LLM call here.',
      'not-opted-in': 'sending trace content to an LLM is off. Turn on the agentImmune.llm.sendTraceContent user setting first.',
      'invalid-endpoint': 'agentImmune.llm.baseUrl is not an http(s) URL without credentials.',
      'consent-denied': 'you declined sending trace content to this endpoint for this workspace.',
      'ask-consent': '',
    }[decision.reason];
    output.warn(`Analyze Trace with LLM: ${why}`);
    void vscode.window.showWarningMessage(`Agent Immune: ${why}`);
    return undefined;
  }

  const target = await pickTrace('Analyze with LLM', uri);
  if (!target) return undefined;
  const apiKey = settings.backend === 'openai' ? await context.secrets.get(API_KEY_SECRET) : undefined;
  const transport = await buildTransport(settings, apiKey);
  if (!transport) return undefined;
  const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath;
  const llm = createLlmGuard(transport, { scorer: true, filter: true, samples: settings.judgeSamples, cacheRoot: root, session: { maxCalls: settings.maxCalls, secrets: apiKey ? [apiKey] : [] } });
  // In-process: the judge and filter hold the transport and the session, which cannot cross into a worker.
  const analysis = await present(target, (input, signal, onRound) => analyseForView(input, signal, onRound, llm), { label: 'Analyze Trace with LLM', cancellable: true });
  const warning = analysis?.warnings.find((w) => w.code.startsWith('llm-'));
  if (warning) void vscode.window.showWarningMessage(`Agent Immune: ${warning.message}`);
  return analysis;
}

/** The configured backend, or undefined after telling the user why it cannot be used. */
async function buildTransport(settings: LlmSettings, apiKey: string | undefined): Promise<ChatTransport | undefined> {
  if (settings.backend === 'vscode-lm') {
    const chat = await selectEditorModel(settings.model === DEFAULT_MODEL ? undefined : settings.model);
    if (chat) return new VsCodeLmTransport(chat);
    void vscode.window.showWarningMessage('Agent Immune: no editor language model is available; use Analyze Trace for the embedded guard.');
    return undefined;
  }
  const transport = openAiTransport({ baseURL: settings.baseUrl, model: settings.model, apiKey, keyHint: 'run "Agent Immune: Set LLM API Key"' });
  if ('code' in transport) {
    const setKey = 'Set LLM API Key';
    const answer = await vscode.window.showWarningMessage(`Agent Immune: ${transport.message}`, setKey);
    if (answer === setKey) await vscode.commands.executeCommand(CommandId.SetLlmApiKey);
    return undefined;
  }
  return transport;
}
