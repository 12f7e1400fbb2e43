// Sentences, paragraphs and quotations of prose as the propagation reader needs them: hard-wrapped lines join into
// one sentence, list items and headings stay apart, and a quotation (inline or a `>` block) is known with its span.

/** True when `text[i]` ends a sentence: . ! ? (with closing quotes/brackets after it) followed by white space or the end. */
function endsSentence(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c !== 46 && c !== 33 && c !== 63) return false;
  let j = i + 1;
  while (j < text.length && /["'”’)\]*]/.test(text[j])) j++;
  return j >= text.length || /\s/.test(text[j]);
}

/**
 * A line break that ends a sentence: a blank line, a line opening a list item, heading, quote, table row or fence, one
 * after . ! ? : ; or a line opening with a Title-case word (hard-wrapped prose goes on in lower case, or with a name in
 * capitals such as SOUL.md).
 */
function breaksAt(text: string, newline: number): boolean {
  let k = newline - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\t' || text[k] === '\r')) k--;
  if (k < 0 || text[k] === '\n' || /[.!?:;]/.test(text[k])) return true;
  let j = newline + 1;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  return j >= text.length || text[j] === '\n' || text[j] === '\r' || /[-*+#>|`=\d[(]/.test(text[j]) || (/[A-Z]/.test(text[j]) && /[a-z]/.test(text[j + 1] ?? ''));
}

/** The sentence around `pos`: hard-wrapped lines are one sentence; list items, headings and blank lines end one. */
export function sentenceAt(text: string, pos: number): [number, number] {
  let start = Math.min(pos, text.length);
  while (start > 0) {
    const prev = start - 1;
    if (text.charCodeAt(prev) === 10 ? breaksAt(text, prev) : endsSentence(text, prev)) break;
    start--;
  }
  let end = pos;
  while (end < text.length) {
    if (text.charCodeAt(end) === 10 ? breaksAt(text, end) : endsSentence(text, end)) {
      if (text.charCodeAt(end) !== 10) end++;
      break;
    }
    end++;
  }
  while (end < text.length && /["'”’)\]*]/.test(text[end])) end++;
  return [start, end];
}

/** The sentence before the one starting at `start` (undefined at the start of its paragraph or of the text). */
export function previousSentence(text: string, start: number): [number, number] | undefined {
  let k = start - 1;
  while (k >= 0 && /[ \t\r]/.test(text[k])) k--;
  if (k < 0) return undefined;
  if (text[k] === '\n') {
    let j = k - 1;
    while (j >= 0 && /[ \t\r]/.test(text[j])) j--;
    if (j < 0 || text[j] === '\n') return undefined;
    k = j;
  }
  return sentenceAt(text, k);
}

/** The sentence after the one ending at `end` (undefined at the end of its paragraph or of the text). */
export function nextSentence(text: string, end: number): [number, number] | undefined {
  let k = end;
  let newlines = 0;
  while (k < text.length && /\s/.test(text[k])) if (text[k++] === '\n') newlines++;
  if (k >= text.length || newlines > 1) return undefined;
  return sentenceAt(text, k);
}

/** The paragraph around `pos`: between blank lines. */
export function paragraphAt(text: string, pos: number): [number, number] {
  const before = text.lastIndexOf('\n\n', pos);
  const after = text.indexOf('\n\n', pos);
  return [before < 0 ? 0 : before + 2, after < 0 ? text.length : after];
}

const QUOTATION = /"[^"]{8,}?"|“[^”]{8,}?”|(?<=^|[\s:(])'[^'\n]{12,}?'(?=[\s.,;:!?)]|$)|^[ \t]*>.*(?:\n[ \t]*>.*)*/gm;

/** Spans of quotations inside [from, to) of a text: double or curly quotes (within a paragraph), long single quotes, `>` blocks. */
export function quotations(text: string, from: number, to: number): [number, number][] {
  const spans: [number, number][] = [];
  const slice = text.slice(from, to);
  QUOTATION.lastIndex = 0;
  for (const match of slice.matchAll(QUOTATION)) {
    if (match[0].includes('\n\n')) continue;
    const start = from + (match.index ?? 0);
    spans.push([start, start + match[0].length]);
  }
  return spans;
}
