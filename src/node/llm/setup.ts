// Builds the LLM parts of an analysis from plain options (CLI flags, extension settings): the session, the judge
// factory and the filter, and stamps the analysis with what used the LLM, what it cost and any warning.
import { EmbeddedScorer } from '../../core/guard/embeddedScorer';
import type { Analysis } from '../../core/guard/types';
import type { GuardOptions } from '../../core/guard/analyze';
import { isLocalEndpoint, parseEndpoint } from '../../core/llm/policy';
import { HashedEmbedder } from '../../core/llm/evidence';
import { LlmCache } from './cache';
import { LlmEmbedder } from './embedder';
import { LlmFilter } from './filter';
import { LlmJudgeScorer } from './judge';
import { LlmSession, type LlmSessionOptions, type LlmWarning } from './session';
import { OpenAiTransport, type ChatTransport } from './transport';

/** Default endpoint and model when none is given. */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

/** Which parts use the LLM and how. */
export interface LlmPlan {
  scorer: boolean;
  filter: boolean;
  /** Judgements averaged per agent per round (default 3). */
  samples?: number;
  /** Workspace root whose .agent-immune/cache/llm/ caches replies; no cache when absent. */
  cacheRoot?: string;
  session?: Omit<LlmSessionOptions, 'transport' | 'cache'>;
}

/** The guard options to pass to analyzeTrace plus the session, and `finish` to stamp the analysis. */
export interface LlmGuard {
  guard: Pick<GuardOptions, 'scorer' | 'filter'>;
  session: LlmSession;
  finish(analysis: Analysis): Analysis;
}

/** The API key for the CLI: AGENT_IMMUNE_API_KEY, else OPENAI_API_KEY. */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.AGENT_IMMUNE_API_KEY || env.OPENAI_API_KEY || undefined;
}

/** Builds the OpenAI-compatible transport, or a warning when it cannot be used (bad URL, no key for a remote endpoint). */
export function openAiTransport(options: {
  baseURL?: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
  embeddingModel?: string;
  keyHint?: string;
  cacheSalt?: string;
}): OpenAiTransport | LlmWarning {
  const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
  if (!parseEndpoint(baseURL)) return { code: 'llm-unavailable', message: `the LLM base URL is not an http(s) URL without credentials; the embedded default was used instead` };
  if (!options.apiKey && !isLocalEndpoint(baseURL)) {
    return { code: 'llm-unavailable', message: `no API key for ${new URL(baseURL).host} (${options.keyHint ?? 'set AGENT_IMMUNE_API_KEY or OPENAI_API_KEY'}); the embedded default was used instead` };
  }
  const { apiKey, timeoutMs, embeddingModel, cacheSalt } = options;
  return new OpenAiTransport({ baseURL, model: options.model ?? DEFAULT_MODEL, apiKey, timeoutMs, embeddingModel, cacheSalt });
}

/** Wires a transport into the guard: the judge (with the embedded scorer as fallback) and the checked LLM filter. */
export function createLlmGuard(transport: ChatTransport, plan: LlmPlan): LlmGuard {
  const session = new LlmSession({ ...plan.session, transport, cache: plan.cacheRoot ? new LlmCache(plan.cacheRoot) : undefined });
  const guard: LlmGuard['guard'] = {};
  const embedder = transport.embeddingModel ? new LlmEmbedder(session, transport.embeddingModel) : new HashedEmbedder();
  let judge: LlmJudgeScorer | undefined;
  if (plan.scorer) {
    guard.scorer = (model, _patterns, reading) => (judge = new LlmJudgeScorer(session, model, new EmbeddedScorer(reading), { samples: plan.samples, embedder }));
  }
  if (plan.filter) guard.filter = new LlmFilter(session);
  return {
    guard,
    session,
    finish(analysis) {
      const disagreements = judge?.disagreements ?? [];
      if (disagreements.length > 0) {
        const shown = disagreements.slice(0, 3).map((d) => `${d.agent} round ${d.round}: ${d.head === 'pAtk' ? 'P_atk' : 'P_inf'} ${d.embedded.toFixed(2)} embedded, judge ${d.judge.toFixed(2)}`);
        session.warn('llm-disagreement', `the judge contradicted strong embedded evidence in ${disagreements.length} agent-round(s) (${shown.join('; ')}${disagreements.length > 3 ? '; …' : ''}); the embedded scores were kept`);
      }
      analysis.llm = { ...session.report(), ...(plan.scorer ? { embedder: embedder.name } : {}) };
      for (const warning of session.warnings) analysis.warnings.push({ code: warning.code, line: 0, message: warning.message });
      return analysis;
    },
  };
}
