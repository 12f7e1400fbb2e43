// A text found inside another in time linear in both lengths: String.prototype.includes, indexOf and split can take
// the product of the two on hostile text (a page of "b"s searched for "b…ab…": 1.2 s a megabyte, per search).

/** Knuth–Morris–Pratt: for each prefix of `pattern`, the length of its longest proper border. */
function borders(pattern: string): Int32Array {
  const border = new Int32Array(pattern.length);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    while (k > 0 && pattern.charCodeAt(i) !== pattern.charCodeAt(k)) k = border[k - 1];
    if (pattern.charCodeAt(i) === pattern.charCodeAt(k)) k++;
    border[i] = k;
  }
  return border;
}

/** The starts of the non-overlapping occurrences of a non-empty `pattern` in `text`, left to right; only the first when `first`. */
export function occurrences(text: string, pattern: string, first = false): number[] {
  const found: number[] = [];
  if (pattern.length === 0 || pattern.length > text.length) return found;
  const border = borders(pattern);
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== pattern.charCodeAt(k)) k = border[k - 1];
    if (text.charCodeAt(i) === pattern.charCodeAt(k)) k++;
    if (k === pattern.length) {
      found.push(i - k + 1);
      if (first) break;
      k = 0;
    }
  }
  return found;
}

// Up to this length a pattern is searched natively (its worst case is this many times the text); a longer one's
// opening is, and only a text that holds it is searched for the whole pattern.
const NATIVE = 64;

/** Whether `text` holds a non-empty `pattern`. */
export function holds(text: string, pattern: string): boolean {
  if (pattern.length <= NATIVE) return text.includes(pattern);
  return text.includes(pattern.slice(0, NATIVE)) && occurrences(text, pattern, true).length > 0;
}

/** `text` with every non-overlapping occurrence of a non-empty `pattern`, left to right, replaced by `replacement`. */
export function replaceEvery(text: string, pattern: string, replacement: string): string {
  const starts = occurrences(text, pattern);
  if (starts.length === 0) return text;
  let out = '';
  let from = 0;
  for (const start of starts) {
    out += text.slice(from, start) + replacement;
    from = start + pattern.length;
  }
  return out + text.slice(from);
}
