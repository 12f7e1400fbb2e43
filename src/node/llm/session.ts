// One run's use of an LLM: retries with backoff on 429/5xx/timeouts, a cap on concurrent requests, a budget of calls
// and tokens, the reply cache, accounting, and the fallback rule: a failing endpoint is reported once and every later
// call returns undefined at once, so callers use the embedded default and the run never hangs.
import { errorMessage } from '../../core/errors';
import type { LlmReport } from '../../core/guard/types';
import type { ChatMessage, ReplySchema } from '../../core/llm/prompts';
import type { Parsed } from '../../core/llm/replies';
import { redactSecrets } from '../../core/llm/policy';
import { cacheKey, type LlmCache } from './cache';
import { TransportError, type ChatTransport, type ReplyFormat } from './transport';

/** Stable codes of the warnings an LLM run can raise (each is raised at most once per run). */
export type LlmWarningCode = 'llm-unavailable' | 'llm-budget-exhausted' | 'llm-malformed-reply' | 'llm-filter-rejected' | 'llm-disagreement';

/** The longest one Retry-After is waited for; a server asking for more gets the embedded default at once. */
export const MAX_RETRY_WAIT_MS = 10_000;
/** The most one call waits across all its retries, so the documented fallback comes within seconds, not minutes. */
export const MAX_TOTAL_RETRY_WAIT_MS = 20_000;
/** Timeouts with no reply between them after which the endpoint is given up (requests in flight time out together). */
const MAX_TIMEOUTS_IN_A_ROW = 3;

/** A warning for the report and the user; the message never contains the key. */
export interface LlmWarning {
  code: LlmWarningCode;
  message: string;
}

/** Calls, retries and tokens of a run (the bench turns them into cost per 1,000 messages). */
export interface LlmUsage {
  calls: number;
  retries: number;
  cacheHits: number;
  malformed: number;
  promptTokens: number;
  completionTokens: number;
}

/** Limits and hooks of a session. */
export interface LlmSessionOptions {
  transport: ChatTransport;
  cache?: LlmCache;
  /** Most requests this run may send (retries included); unlimited when absent. */
  maxCalls?: number;
  /** Most tokens (prompt + completion) this run may spend; unlimited when absent. */
  maxTokens?: number;
  /** Concurrent requests at most (default 4). */
  concurrency?: number;
  /** Retries after a 429, 5xx, timeout or connection failure (default 3). */
  retries?: number;
  /** First backoff delay in ms, doubled each retry with jitter; a retry-after header wins (default 500). */
  backoffMs?: number;
  temperature?: number;
  /** Strings that must never appear in a warning (the API key). */
  secrets?: string[];
  onWarning?: (warning: LlmWarning) => void;
}

/** Drives a transport for one run; see the file header. */
export class LlmSession {
  readonly usage: LlmUsage = { calls: 0, retries: 0, cacheHits: 0, malformed: 0, promptTokens: 0, completionTokens: 0 };
  readonly warnings: LlmWarning[] = [];
  private down = false;
  /** Timeouts since the last reply. */
  private timeoutsInARow = 0;
  private exhausted = false;
  private formatIndex = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: LlmSessionOptions) {}

  get model(): string {
    return this.options.transport.model;
  }

  /** True once the endpoint failed or the budget ran out: some parts then used the embedded default. */
  get partial(): boolean {
    return this.down || this.exhausted;
  }

  /** Raises a warning once per code (callers outside the session use it for filter rejections). */
  warn(code: LlmWarningCode, message: string): void {
    if (this.warnings.some((w) => w.code === code)) return;
    const warning = { code, message: redactSecrets(message, this.options.secrets ?? []) };
    this.warnings.push(warning);
    this.options.onWarning?.(warning);
  }

  /** Asks for a JSON reply and validates it; undefined means "use the embedded default" (failure, budget, malformed). */
  async completeJson<T>(
    kind: string,
    sample: number,
    messages: ChatMessage[],
    schema: ReplySchema,
    parse: (content: string) => Parsed<T>,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    signal?.throwIfAborted();
    if (this.down) return undefined;
    const key = cacheKey({ scope: this.options.transport.cacheScope, model: this.model, kind, sample, prompt: { messages, schema: schema.name } });
    const cached = await this.options.cache?.get(key);
    if (cached !== undefined) {
      const parsed = parse(cached);
      if (parsed.ok) {
        this.usage.cacheHits++;
        return parsed.value;
      }
    }
    const raw = await this.withSlot(signal, () => this.send(messages, schema, signal));
    if (raw === undefined) return undefined;
    // A reply may echo the key (a misconfigured proxy, a prompt-injected model): redacted before it is parsed or cached.
    const reply = redactSecrets(raw, this.options.secrets ?? []);
    const parsed = parse(reply);
    if (!parsed.ok) {
      this.usage.malformed++;
      this.warn('llm-malformed-reply', `the ${kind} reply was not the JSON asked for (${parsed.problem}); the embedded default was used for it`);
      return undefined;
    }
    await this.options.cache?.set(key, this.model, reply);
    return parsed.value;
  }

  /** Embeds texts through the transport, cached per text; undefined when unsupported, failing or over budget. */
  async embed(texts: string[], signal?: AbortSignal): Promise<number[][] | undefined> {
    signal?.throwIfAborted();
    const transport = this.options.transport;
    if (this.down || !transport.embed || !transport.embeddingModel || texts.length === 0) return undefined;
    const model = transport.embeddingModel ?? this.model;
    const keys = texts.map((text) => cacheKey({ scope: transport.cacheScope, model, kind: 'embed', sample: 0, prompt: text }));
    const vectors: (number[] | undefined)[] = await Promise.all(keys.map(async (key) => parseVector(await this.options.cache?.get(key))));
    const missing = texts.flatMap((_, i) => (vectors[i] === undefined ? [i] : []));
    this.usage.cacheHits += texts.length - missing.length;
    if (missing.length > 0) {
      const fetched = await this.withSlot(signal, () =>
        this.attempt(signal, async () => {
          const reply = await transport.embed!(missing.map((i) => texts[i]), signal);
          this.usage.promptTokens += reply.promptTokens || estimate(missing.map((i) => texts[i]));
          return reply.vectors;
        }, estimate(missing.map((i) => texts[i]))),
      );
      if (fetched === undefined) return undefined;
      for (let m = 0; m < missing.length; m++) {
        vectors[missing[m]] = fetched[m];
        await this.options.cache?.set(keys[missing[m]], model, JSON.stringify(fetched[m]));
      }
    }
    return vectors as number[][];
  }

  /** The report's llm section. */
  report(): LlmReport {
    return {
      model: this.model,
      calls: this.usage.calls,
      cacheHits: this.usage.cacheHits,
      promptTokens: this.usage.promptTokens,
      completionTokens: this.usage.completionTokens,
      partial: this.partial,
    };
  }

  /** One chat completion, downgrading the reply format when the server rejects it. */
  private async send(messages: ChatMessage[], schema: ReplySchema, signal?: AbortSignal): Promise<string | undefined> {
    const formats = this.options.transport.formats;
    const estimate = estimateTokens(messages.map((m) => m.content).join('\n'));
    for (;;) {
      const used = Math.min(this.formatIndex, formats.length - 1);
      const format: ReplyFormat = formats[used];
      try {
        return await this.attempt(signal, async () => {
          const reply = await this.options.transport.complete({ messages, schema, format, temperature: this.options.temperature }, signal);
          this.usage.promptTokens += reply.promptTokens || estimate;
          this.usage.completionTokens += reply.completionTokens || estimateTokens(reply.content);
          return reply.content;
        }, estimate, true);
      } catch (error) {
        if (!(error instanceof TransportError) || error.kind !== 'unsupported-format') throw error;
        // Concurrent requests may all be refused for the same format: step down once per format, not once per request.
        if (used === this.formatIndex) this.formatIndex++;
        if (this.formatIndex >= formats.length) return this.fail(error);
      }
    }
  }

  /**
   * Runs one request with the budget check and retries. Returns undefined (after one warning) when the budget is out
   * or the endpoint keeps failing; rethrows cancellation, and unsupported-format when `passFormat` asks for it.
   */
  private async attempt<T>(signal: AbortSignal | undefined, call: () => Promise<T>, estimate: number, passFormat = false): Promise<T | undefined> {
    const { retries = 3, backoffMs = 500, maxCalls, maxTokens } = this.options;
    let waited = 0;
    let lastFailure: TransportError | undefined;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      if (this.down) return undefined;
      const spent = this.usage.promptTokens + this.usage.completionTokens;
      if ((maxCalls !== undefined && this.usage.calls >= maxCalls) || (maxTokens !== undefined && spent + estimate > maxTokens)) {
        // The budget ran out while retrying a failing request: the endpoint is what failed, not the budget.
        if (lastFailure) return this.fail(lastFailure);
        this.exhausted = true;
        this.warn('llm-budget-exhausted', `the LLM budget (${describeBudget(maxCalls, maxTokens)}) is spent; the rest of the run used the embedded default and the result is marked partial`);
        return undefined;
      }
      this.usage.calls++;
      try {
        const result = await call();
        this.timeoutsInARow = 0;
        return result;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const failure = error instanceof TransportError ? error : new TransportError('connection', errorMessage(error));
        if (failure.kind === 'aborted') throw error;
        if (failure.kind === 'unsupported-format' && passFormat) throw failure;
        // Timeouts are retried until MAX_TIMEOUTS_IN_A_ROW have come with no reply between: an endpoint that accepts and
        // never answers cost every request its retries at the full timeout each (four at a time, 30 s each: two minutes).
        if (failure.kind === 'timeout') this.timeoutsInARow++;
        const retryTimeout = failure.kind === 'timeout' && this.timeoutsInARow < MAX_TIMEOUTS_IN_A_ROW;
        const transient = failure.kind === 'rate-limit' || failure.kind === 'server' || retryTimeout || failure.kind === 'connection';
        lastFailure = failure;
        const wait = failure.retryAfterMs ?? backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
        if (transient && attempt < retries && wait <= MAX_RETRY_WAIT_MS && waited + wait <= MAX_TOTAL_RETRY_WAIT_MS) {
          this.usage.retries++;
          waited += wait;
          await sleep(wait, signal);
          continue;
        }
        if (transient && failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_WAIT_MS) {
          return this.fail(new TransportError(failure.kind, `${failure.message}; it asked to wait ${Math.round(failure.retryAfterMs / 1000)} s, longer than the ${MAX_RETRY_WAIT_MS / 1000} s Agent Immune waits`, failure.status));
        }
        return this.fail(failure);
      }
    }
  }

  /** Marks the endpoint down and says so once; every later call falls back at once. */
  private fail(failure: TransportError): undefined {
    this.down = true;
    this.warn('llm-unavailable', `the LLM endpoint failed (${failure.message}); the embedded default was used instead`);
    return undefined;
  }

  /** Runs `task` when fewer than `concurrency` requests are in flight. */
  private async withSlot<T>(signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    const limit = Math.max(1, this.options.concurrency ?? 4);
    while (this.active >= limit) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal?.reason);
        };
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

function estimate(texts: string[]): number {
  return estimateTokens(texts.join(' '));
}

/** A cached embedding, or undefined when absent or not a list of numbers. */
function parseVector(content: string | undefined): number[] | undefined {
  if (content === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(content);
    return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'number') ? (value as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/** About four characters per token: enough to keep a token budget from being overshot by a whole prompt. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function describeBudget(maxCalls?: number, maxTokens?: number): string {
  return [maxCalls !== undefined ? `${maxCalls} calls` : '', maxTokens !== undefined ? `${maxTokens} tokens` : ''].filter(Boolean).join(', ');
}

/** Waits `ms`, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
