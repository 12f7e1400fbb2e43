// Word tokens and a light stemmer shared by the embedding, the cue lexicons and the copy detectors.

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;

/** Lower-cased word tokens of a text (letters/digits, inner apostrophes and hyphens kept). */
export function words(text: string): string[] {
  return lowerWords(text.toLowerCase());
}

/** `words` of a text the caller has already lower-cased. */
export function lowerWords(lower: string): string[] {
  return lower.match(WORD) ?? [];
}

/** Word tokens with their character offsets, lower-cased like `words`. */
export function wordSpans(text: string): { word: string; start: number; end: number }[] {
  const result: { word: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    result.push({ word: match[0].toLowerCase(), start, end: start + match[0].length });
  }
  return result;
}

/** The hash32 of each word token, lower-cased as `wordSpans` gives them, without building a span per word. */
export function wordHashes(text: string): Uint32Array {
  let out = new Uint32Array(256);
  let count = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    if (count === out.length) {
      const grown = new Uint32Array(count * 2);
      grown.set(out);
      out = grown;
    }
    out[count++] = hash32(match[0].toLowerCase());
  }
  return out.slice(0, count);
}

/** The inflections stem() strips, longest first: the longest one that ends a word goes. */
export const STEM_SUFFIXES = ['ations', 'ingly', 'ances', 'ences', 'ation', 'ings', 'edly', 'ance', 'ence', 'ing', 'ers', 'er', 'ed', 'es', 'ly', 's'];
// At the leftmost position where one matches to the end, so the longest.
const STEM_SUFFIX = new RegExp(`(?:${STEM_SUFFIXES.join('|')})$`, 'u');

// Words repeat (a run of 10,000 outputs has a few thousand distinct ones): stem each once. Bounded, cleared when full.
const STEM_MEMO_LIMIT = 50_000;
const stems = new Map<string, string>();

/** Strips common English inflections so "resonating", "resonates", "resonance" meet. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= STEM_MEMO_LIMIT) stems.clear();
    stemmed = word.replace(STEM_SUFFIX, '') || word;
    stems.set(word, stemmed);
  }
  return stemmed;
}

/** FNV-1a 32-bit hash of a string. */
export function hash32(text: string): number {
  return hash32From(0x811c9dc5, text);
}

/** FNV-1a continued from the hash of a prefix: hash32From(hash32(a), b) === hash32(a + b), without building a + b. */
export function hash32From(prefixHash: number, text: string): number {
  let h = prefixHash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
