// The embedded text representation: hashed word unigrams and bigrams in a fixed-size, L2-normalised vector.
import { hash32, hash32From, stem, words } from './tokens';

/** Dimension of the embedded representation. */
export const EMBED_DIM = 256;

/** Embeds a text deterministically (no model, no network). Empty text gives the zero vector. */
export function embedText(text: string): Float32Array {
  return embedWords(words(text));
}

/**
 * Embeds already-tokenised lower-case words (callers that tokenise once for several measures use this); `wordHashes`,
 * hash32 of each word when the caller has them, spares hashing the words that stemming leaves as they are.
 */
export function embedWords(lowerWords: readonly string[], wordHashes?: Uint32Array): Float32Array {
  const vector = new Float32Array(EMBED_DIM);
  let previous = 0;
  for (let i = 0; i < lowerWords.length; i++) {
    const word = lowerWords[i];
    const token = stem(word);
    const h = wordHashes && token === word ? wordHashes[i] : hash32(token);
    vector[h % EMBED_DIM] += h & 0x80000000 ? -1 : 1;
    if (i > 0) {
      // The bigram "previous token" + " " + token, hashed on from the previous token's hash (no string built).
      const b = hash32From(hash32From(previous, ' '), token);
      vector[b % EMBED_DIM] += (b & 0x80000000 ? -1 : 1) * 0.5;
    }
    previous = h;
  }
  return normalize(vector);
}

/** Scales a vector to unit length in place (zero stays zero) and returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] *= inv;
  }
  return vector;
}

/** Cosine similarity of two unit vectors (0 when either is zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
