// The embedded text representation: hashed word unigrams and bigrams in a fixed-size, L2-normalised vector.
import { hash32, hash32From, lowerWords, stem, STEM_SUFFIXES, words } from './tokens';

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

/**
 * The embedding of an already lower-cased text and hash32 of each of its words (the words `lowerWords` gives), equal to
 * embedWords(lowerWords(lower)); an ASCII text is read in one pass over its characters, with no word strings built.
 */
export function embedLower(lower: string): { embedding: Float32Array; wordHashes: Uint32Array } {
  if (!ASCII_ONLY.test(lower)) {
    const tokens = lowerWords(lower);
    const wordHashes = new Uint32Array(tokens.length);
    for (let t = 0; t < tokens.length; t++) wordHashes[t] = hash32(tokens[t]);
    return { embedding: embedWords(tokens, wordHashes), wordHashes };
  }
  const vector = scratchVector.fill(0);
  const hashes = scratchFor((lower.length + 1) >> 1);
  let count = 0;
  // FNV-1a prefix hashes (as int32) of the current word, and of "previous stem + space + word", by length mod 8: a stem
  // is the word less a suffix of at most 6 characters, so its hash is one of the last 7 prefixes.
  const wordPrefix = new Int32Array(8);
  const bigramPrefix = new Int32Array(8);
  let previous = 0;
  for (let at = 0; at < lower.length; ) {
    if (WORD_CHAR[lower.charCodeAt(at)] !== STARTS) {
      at++;
      continue;
    }
    const start = at;
    let h = 0x811c9dc5 | 0;
    let b = Math.imul(previous ^ 32, 0x01000193);
    wordPrefix[0] = h;
    bigramPrefix[0] = b;
    for (; at < lower.length; at++) {
      const c = lower.charCodeAt(at);
      if (WORD_CHAR[c] === 0) break;
      h = Math.imul(h ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193);
      wordPrefix[(at - start + 1) & 7] = h;
      bigramPrefix[(at - start + 1) & 7] = b;
    }
    const length = at - start;
    const stemLength = length <= 4 ? length : length - suffixLength(lower, at) || length;
    const token = wordPrefix[stemLength & 7];
    hashes[count++] = h;
    // (x >>> 0) % EMBED_DIM is x & BUCKET (EMBED_DIM is a power of two); the top bit is the sign.
    vector[token & BUCKET] += token < 0 ? -1 : 1;
    if (count > 1) {
      const bigram = bigramPrefix[stemLength & 7];
      vector[bigram & BUCKET] += (bigram < 0 ? -1 : 1) * 0.5;
    }
    previous = token;
  }
  // The results share one buffer of their own (one allocation, nothing kept alive with another output's).
  const buffer = new ArrayBuffer((EMBED_DIM + count) * 4);
  const embedding = new Float32Array(buffer, 0, EMBED_DIM);
  embedding.set(normalize(vector));
  const wordHashes = new Uint32Array(buffer, EMBED_DIM * 4, count);
  wordHashes.set(hashes.subarray(0, count));
  return { embedding, wordHashes };
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

// The vector and word hashes of the text being embedded, in buffers kept between calls (fresh ones a text cost more than
// the embedding); the results are copied out of them.
const scratchVector = new Float32Array(EMBED_DIM);
let scratch = new Uint32Array(1024);

/** The shared scratch buffer, grown to hold at least `length` hashes. */
function scratchFor(length: number): Uint32Array {
  if (scratch.length < length) scratch = new Uint32Array(Math.max(length, scratch.length * 2));
  return scratch;
}
const BUCKET = EMBED_DIM - 1;

// WORD on ASCII: a word starts with a letter or digit (\p{L}\p{N}) and goes on with those, an apostrophe, _ or -.
const STARTS = 1;
const CONTINUES = 2;
const WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  WORD_CHAR[c] = /[\p{L}\p{N}]/u.test(ch) ? STARTS : /['_-]/.test(ch) ? CONTINUES : 0;
}

// stem()'s suffixes by last character, longest first, as character codes.
const SUFFIXES_BY_LAST: number[][][] = Array.from({ length: 128 }, () => []);
for (const suffix of STEM_SUFFIXES) {
  SUFFIXES_BY_LAST[suffix.charCodeAt(suffix.length - 1)].push([...suffix].map((c) => c.charCodeAt(0)));
}

/** Length of the suffix stem() strips from the word of `lower` (ASCII) ending at `end`, 0 if none. */
function suffixLength(lower: string, end: number): number {
  const candidates = SUFFIXES_BY_LAST[lower.charCodeAt(end - 1)];
  for (let s = 0; s < candidates.length; s++) {
    const suffix = candidates[s];
    let c = suffix.length - 2;
    while (c >= 0 && lower.charCodeAt(end - suffix.length + c) === suffix[c]) c--;
    if (c < 0) return suffix.length;
  }
  return 0;
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
