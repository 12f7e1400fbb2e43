// "Agent Immune: Analyze Trace with LLM": the LLM upgrade from a user action. Refuses in an untrusted workspace, needs
// the user-level opt-in, asks once per workspace before trace content leaves the machine, and can be cancelled.
import * as vscode from 'vscode';
import { InputError } from '../../core/errors';
import { analyzeTrace } from '../../core/guard/analyze';
import { decideLlmCall, type LlmBackendKind } from '../../core/llm/policy';
import { formatAnalysisText } from '../../cli/format/analysisText';
import { loadProjectConfig } from '../../node/config';
import { defaultCacheDir } from '../../node/llm/cache';
import { createLlmGuard, DEFAULT_BASE_URL, DEFAULT_MODEL, openAiTransport } from '../../node/llm/setup';
import type { ChatTransport } from '../../node/llm/transport';
import { readAnyTrace } from '../../node/readAnyTrace';
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

/** Registers the Analyze Trace with LLM command. */
export function registerAnalyzeWithLlm(services: Services): void {
  services.context.subscriptions.push(vscode.commands.registerCommand(CommandId.AnalyzeTraceWithLlm, (uri?: vscode.Uri) => analyzeWithLlm(services, uri)));
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

async function analyzeWithLlm(services: Services, uri?: vscode.Uri) {
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

  const target = uri instanceof vscode.Uri ? uri : (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Agent traces': ['jsonl', 'json', 'ndjson'] }, openLabel: 'Analyze with LLM' }))?.[0];
  if (!target) return undefined;
  const apiKey = settings.backend === 'openai' ? await context.secrets.get(API_KEY_SECRET) : undefined;
  const transport = await buildTransport(settings, apiKey);
  if (!transport) return undefined;
  const root = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath;
  const llm = createLlmGuard(transport, { scorer: true, filter: true, samples: settings.judgeSamples, cacheDir: root ? defaultCacheDir(root) : undefined, session: { maxCalls: settings.maxCalls, secrets: apiKey ? [apiKey] : [] } });

  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Agent Immune: analysing with the LLM', cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      const config = await loadProjectConfig(root ?? '.');
      const trace = await readAnyTrace(target.fsPath);
      trace.source = vscode.workspace.asRelativePath(target);
      const analysis = llm.finish(await analyzeTrace(trace, { config, ...llm.guard, signal: controller.signal, onRound: (k, n) => progress.report({ message: `round ${k + 1} of ${n}`, increment: 100 / n }) }));
      output.info(formatAnalysisText(analysis));
      output.show(true);
      const warning = analysis.warnings.find((w) => w.code.startsWith('llm-'));
      if (warning) void vscode.window.showWarningMessage(`Agent Immune: ${warning.message}`);
      return analysis;
    } catch (error) {
      if (controller.signal.aborted) {
        output.info('Analyze Trace with LLM cancelled.');
        return undefined;
      }
      const message = error instanceof InputError ? error.toString() : (error as Error).message;
      output.error(`Analyze Trace with LLM failed: ${message}`);
      void vscode.window.showErrorMessage(`Agent Immune: cannot analyse ${vscode.workspace.asRelativePath(target)}: ${message}`);
      return undefined;
    } finally {
      subscription.dispose();
    }
  });
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
