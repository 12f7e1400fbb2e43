// Text embeddings from the OpenAI-compatible endpoint as the core's Embedder, falling back to the hashed embedding
// when the endpoint has no embedding model, fails, or the budget is spent.
import type { Embedder } from '../../core/guard/types';
import { HashedEmbedder } from '../../core/llm/evidence';
import type { LlmSession } from './session';

/** Embeds through the session; each batch that cannot be served by the LLM uses `fallback`. */
export class LlmEmbedder implements Embedder {
  private llmBatches = 0;
  private fallbackBatches = 0;

  constructor(
    private readonly session: LlmSession,
    private readonly embeddingModel: string,
    private readonly fallback: Embedder = new HashedEmbedder(),
  ) {}

  /** "llm:<model>", "llm:<model>+embedded" after a fallback, or the fallback's name when no batch used the LLM. */
  get name(): string {
    if (this.llmBatches === 0) return this.fallback.name;
    return this.fallbackBatches === 0 ? `llm:${this.embeddingModel}` : `llm:${this.embeddingModel}+${this.fallback.name}`;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const vectors = await this.session.embed(texts, signal);
    if (vectors) {
      this.llmBatches++;
      return vectors.map((v) => Float32Array.from(v));
    }
    this.fallbackBatches++;
    return this.fallback.embed(texts, signal);
  }
}
