// The wire to an LLM: one chat completion (and, optionally, embeddings) per call, with failures classified into
// kinds the session can act on. OpenAiTransport speaks the OpenAI wire format through the `openai` client.
import { createHash } from 'node:crypto';
import { errorMessage } from '../../core/errors';
import OpenAI from 'openai';
import { redactSecrets } from '../../core/llm/policy';
import type { ChatMessage, ReplySchema } from '../../core/llm/prompts';

/** How the reply is asked to be JSON: strict schema, JSON mode, or plain text validated by us. */
export type ReplyFormat = 'json_schema' | 'json_object' | 'text';

/** One chat-completion request. */
export interface ChatRequest {
  messages: ChatMessage[];
  schema: ReplySchema;
  format: ReplyFormat;
  temperature?: number;
  maxTokens?: number;
}

/** A reply's text and the tokens it was billed for. */
export interface ChatReply {
  content: string;
  promptTokens: number;
  completionTokens: number;
}

/** Vectors for a batch of texts and the tokens billed. */
export interface EmbeddingReply {
  vectors: number[][];
  promptTokens: number;
}

/** A backend the session drives: the OpenAI-compatible endpoint here, the editor's language models in the extension. */
export interface ChatTransport {
  /** Model name, part of the cache key and of the report. */
  readonly model: string;
  /** Reply formats the backend may support, best first. */
  readonly formats: readonly ReplyFormat[];
  /** Embedding model, when the backend embeds. */
  readonly embeddingModel?: string;
  /**
   * Who answers, for the reply cache: a hash of the endpoint and the credential. The cache sits in the workspace, where
   * a repository can commit entries; keyed by this, it can only supply replies for a credential it knows.
   */
  readonly cacheScope?: string;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatReply>;
  embed?(texts: string[], signal?: AbortSignal): Promise<EmbeddingReply>;
}

/** Why a call failed; the session retries rate-limit/server/timeout/connection and stops on the rest. */
export type TransportErrorKind = 'rate-limit' | 'server' | 'timeout' | 'connection' | 'auth' | 'bad-request' | 'unsupported-format' | 'aborted';

/** A failed call, with a message that never contains the key. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Settings of the OpenAI-compatible backend. */
export interface OpenAiTransportOptions {
  baseURL: string;
  model: string;
  /** Model for embeddings; embeddings are off when absent. */
  embeddingModel?: string;
  apiKey?: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** A per-user secret mixed into the cache scope (the editor's), so a repository cannot pre-compute keyless entries. */
  cacheSalt?: string;
}

/** Chat completions and embeddings over any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio). */
export class OpenAiTransport implements ChatTransport {
  readonly model: string;
  readonly formats: readonly ReplyFormat[] = ['json_schema', 'json_object', 'text'];
  readonly embeddingModel?: string;
  readonly cacheScope: string;
  private readonly client: OpenAI;
  private readonly secrets: string[];
  private readonly timeoutMs: number;

  constructor(options: OpenAiTransportOptions) {
    this.model = options.model;
    this.embeddingModel = options.embeddingModel;
    this.secrets = options.apiKey ? [options.apiKey] : [];
    this.cacheScope = createHash('sha256').update(`${options.baseURL}\0${options.apiKey ?? ''}\0${options.cacheSalt ?? ''}`).digest('hex');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    // Retries are the session's job (it counts them against the budget), so the client makes exactly one attempt.
    // Redirects are never followed: the body is the trace, and a 307 would carry it to wherever the server points.
    this.client = new OpenAI({ apiKey: options.apiKey || 'no-key', baseURL: options.baseURL, timeout: this.timeoutMs, maxRetries: 0, fetchOptions: { redirect: 'manual' } });
  }

  /** The caller's signal joined with this call's total deadline (headers and the whole body, however slowly it trickles). */
  private deadline(signal?: AbortSignal): { signal: AbortSignal; expired: () => boolean } {
    const timer = AbortSignal.timeout(this.timeoutMs);
    return { signal: signal ? AbortSignal.any([signal, timer]) : timer, expired: () => timer.aborted && !signal?.aborted };
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatReply> {
    const responseFormat =
      request.format === 'json_schema'
        ? { type: 'json_schema' as const, json_schema: { name: request.schema.name, schema: request.schema.schema, strict: true } }
        : request.format === 'json_object'
          ? { type: 'json_object' as const }
          : undefined;
    const deadline = this.deadline(signal);
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: request.messages,
          ...(responseFormat ? { response_format: responseFormat } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        },
        { signal: deadline.signal },
      );
      const content = completion.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new TransportError('server', 'the reply has no message content');
      return { content, promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 };
    } catch (error) {
      throw deadline.expired() ? this.timedOut() : this.classify(error, request.format !== 'text');
    }
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<EmbeddingReply> {
    if (!this.embeddingModel) throw new TransportError('bad-request', 'no embedding model configured');
    const deadline = this.deadline(signal);
    try {
      // Plain floats: the client's default base64 encoding is not supported by every OpenAI-compatible server.
      const reply = await this.client.embeddings.create({ model: this.embeddingModel, input: texts, encoding_format: 'float' }, { signal: deadline.signal });
      const vectors = [...reply.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v))) throw new TransportError('server', 'the embeddings reply does not match the request');
      return { vectors, promptTokens: reply.usage?.prompt_tokens ?? 0 };
    } catch (error) {
      throw deadline.expired() ? this.timedOut() : this.classify(error, false);
    }
  }

  private timedOut(): TransportError {
    return new TransportError('timeout', `no complete reply within ${this.timeoutMs / 1000} s`);
  }

  /** Maps the openai client's errors to kinds; messages are ours plus the server's, redacted. */
  private classify(error: unknown, askedForFormat: boolean): TransportError {
    if (error instanceof TransportError) return error;
    const say = (text: string) => redactSecrets(text, this.secrets).slice(0, 300);
    if (error instanceof OpenAI.APIUserAbortError) return new TransportError('aborted', 'cancelled');
    if (error instanceof OpenAI.APIConnectionTimeoutError) return new TransportError('timeout', 'the request timed out');
    if (error instanceof OpenAI.APIConnectionError) return new TransportError('connection', 'cannot connect to the endpoint');
    if (error instanceof OpenAI.APIError) {
      const status = error.status ?? 0;
      const detail = say(error.message);
      if (status === 429) return new TransportError('rate-limit', `rate limited (HTTP 429): ${detail}`, status, retryAfter(error.headers));
      if (status >= 500) return new TransportError('server', `server error (HTTP ${status}): ${detail}`, status, retryAfter(error.headers));
      if (status >= 300 && status < 400) return new TransportError('bad-request', `the endpoint answered with a redirect (HTTP ${status}); redirects are not followed, so the trace is not sent on: set the base URL to the final address`, status);
      if (status === 401 || status === 403) return new TransportError('auth', `the endpoint refused the API key (HTTP ${status})`, status);
      if ((status === 400 || status === 422) && askedForFormat) return new TransportError('unsupported-format', `HTTP ${status}: ${detail}`, status);
      return new TransportError('bad-request', `HTTP ${status}: ${detail}`, status);
    }
    if ((error as Error)?.name === 'AbortError') return new TransportError('aborted', 'cancelled');
    return new TransportError('connection', say(`unexpected failure: ${errorMessage(error)}`));
  }
}

/** Milliseconds from retry-after-ms / retry-after headers, when present (the session decides whether to wait that long). */
function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(headers?.get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  return undefined;
}
