// UTF-16 text told from its first bytes, marked or not: the trace reader refuses it by name, the monitor decodes it.

/** How a file's first bytes are UTF-16: its byte order and whether a byte-order mark opens it. */
export interface Utf16 {
  encoding: 'utf-16le' | 'utf-16be';
  marked: boolean;
}

/**
 * UTF-16 text: its byte-order mark (not UTF-32's, FF FE 00 00), or NULs beside at least half of the characters (the
 * ASCII ones: `{"` as `{ " `) and almost none in their place (a letter beyond Latin-1, U+0100 as `00 01`, may put one
 * there; an all-zero file is no text, UTF-32 has NULs in both places).
 */
export function utf16Of(head: Uint8Array): Utf16 | undefined {
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', marked: true };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head[2] === 0 && head[3] === 0 ? undefined : { encoding: 'utf-16le', marked: true };
  const pairs = Math.min(64, Math.floor(head.length / 2));
  if (pairs < 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let k = 0; k < pairs; k++) {
    if (head[2 * k] === 0) even++;
    if (head[2 * k + 1] === 0) odd++;
  }
  const [beside, inPlace] = even >= odd ? [even, odd] : [odd, even];
  if (beside * 2 < pairs || inPlace * 8 > beside) return undefined;
  // An ASCII character is its byte then a NUL in little-endian order, a NUL then its byte in big-endian.
  return { encoding: odd > even ? 'utf-16le' : 'utf-16be', marked: false };
}

/** Characters text in a script people write is made of: letters of the common scripts, digits, punctuation, spaces. */
const TEXT_CHAR = new RegExp(
  `[${[
    'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo', 'Arabic', 'Hebrew', 'Syriac', 'Thaana',
    'Thai', 'Lao', 'Khmer', 'Myanmar', 'Tibetan', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam',
    'Sinhala', 'Ethiopic', 'Mongolian',
  ].map((script) => `\\p{Script=${script}}`).join('')}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}\\t\\n\\r\\u3000-\\u303f\\uff00-\\uffef]`,
  'u',
);
/** The share of such characters text has (random bytes read as UTF-16 reach about two thirds). */
const TEXT_SHARE = 0.95;
const SAMPLE_BYTES = 8192;

/**
 * Unmarked UTF-16 text with few or no ASCII characters (Cyrillic, CJK: no NULs to tell it by), decoded: when over a
 * fifth of the bytes read as UTF-8 are control bytes or invalid sequences, the byte order whose reading is text.
 * Undefined otherwise (a Latin-1 file with a few accents stays UTF-8, with those bytes replaced). A guess: UTF-8 with
 * stray bytes, or Shift-JIS, can pass it, so a reader that must not miss text reads the bytes both ways.
 */
export function unmarkedUtf16Text(bytes: Uint8Array): string | undefined {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (sample.length < 32 || !garbledAsUtf8(sample)) return undefined;
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  const scored = (['utf-16le', 'utf-16be'] as const).map((encoding) => {
    const text = new TextDecoder(encoding).decode(even.subarray(0, sample.length - (sample.length % 2)));
    let textual = 0;
    for (const ch of text) if (TEXT_CHAR.test(ch)) textual++;
    return { encoding, share: textual / Math.max(1, [...text].length) };
  });
  const best = scored[0].share >= scored[1].share ? scored[0] : scored[1];
  return best.share >= TEXT_SHARE ? new TextDecoder(best.encoding).decode(even) : undefined;
}

/** Whether more than a fifth of what the bytes decode to as UTF-8 is control characters or replaced bytes. */
function garbledAsUtf8(sample: Uint8Array): boolean {
  const text = new TextDecoder('utf-8').decode(sample).replace(/\uFFFD$/, '');
  let bad = 0;
  let all = 0;
  for (const ch of text) {
    all++;
    if (ch === '\uFFFD' || /[\0-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f]/.test(ch)) bad++;
  }
  return bad * 5 > all;
}
