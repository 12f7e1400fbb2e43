// Measured evidence for the judge, computed from text embeddings rather than written by agents: how close an output
// is to what the agent received (copying) and how far it moved from its first answer (drift).
import type { Embedder } from '../guard/types';
import { embedText } from '../text/embed';

/** The embedded hashed embedding as an Embedder (no network), the default behind the LLM embedder. */
export class HashedEmbedder implements Embedder {
  readonly name = 'embedded';

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map(embedText);
  }
}

/** What the judge is told was measured. */
export interface SimilarityEvidence {
  /** The received message most similar to the current output. */
  closest?: { from: string; similarity: number };
  /** 1 - cosine(current, first answer), from round 1 on. */
  drift?: number;
}

/** Cosine of two vectors of any scale; undefined when they differ in size or one is zero. */
export function cosineOf(a: ArrayLike<number>, b: ArrayLike<number>): number | undefined {
  if (a.length !== b.length || a.length === 0) return undefined;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : undefined;
}

/** Evidence for one output from the vectors of the output, its first answer and what it received. */
export function similarityEvidence(current: ArrayLike<number>, first: ArrayLike<number> | undefined, received: { from: string; vector: ArrayLike<number> }[]): SimilarityEvidence {
  const evidence: SimilarityEvidence = {};
  for (const r of received) {
    const similarity = cosineOf(current, r.vector);
    if (similarity !== undefined && (evidence.closest === undefined || similarity > evidence.closest.similarity)) evidence.closest = { from: r.from, similarity };
  }
  const same = first === undefined ? undefined : cosineOf(current, first);
  if (same !== undefined) evidence.drift = 1 - same;
  return evidence;
}

/** The evidence as one line of the judge prompt (numbers only; agent text never goes here). */
export function describeEvidence(evidence: SimilarityEvidence, embedder: string): string | undefined {
  const parts: string[] = [];
  if (evidence.closest) parts.push(`its output's cosine similarity to the closest message it received (from ${JSON.stringify(evidence.closest.from)}) is ${evidence.closest.similarity.toFixed(2)}`);
  if (evidence.drift !== undefined) parts.push(`its drift from its first answer (1 - cosine) is ${evidence.drift.toFixed(2)}`);
  return parts.length ? `Measured by Agent Immune with the ${embedder} embedding, not written by any agent: ${parts.join('; ')}.` : undefined;
}
