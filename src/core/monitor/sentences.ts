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

/** True when `text[i]` is a Markdown table's cell separator: a `|` with white space or a line's end on both sides. */
function separatesCells(text: string, i: number): boolean {
  return text.charCodeAt(i) === 124 && (i === 0 || /\s/.test(text[i - 1])) && (i + 1 >= text.length || /\s/.test(text[i + 1]));
}

/**
 * The sentence around `pos`: hard-wrapped lines are one sentence; list items, headings, blank lines and table cells
 * end one.
 */
export function sentenceAt(text: string, pos: number): [number, number] {
  let start = Math.min(pos, text.length);
  while (start > 0) {
    const prev = start - 1;
    if (text.charCodeAt(prev) === 10 ? breaksAt(text, prev) : endsSentence(text, prev) || separatesCells(text, prev)) break;
    start--;
  }
  let end = pos;
  while (end < text.length) {
    if (separatesCells(text, end)) break;
    if (text.charCodeAt(end) === 10 ? breaksAt(text, end) : endsSentence(text, end)) {
      if (text.charCodeAt(end) !== 10) end++;
      break;
    }
    end++;
  }
  while (end < text.length && /["'”’)\]*]/.test(text[end])) end++;
  return [start, end];
}

/**
 * sentenceAt for a run of positions: one inside the sentence found last reuses it, so the anchors of one long sentence
 * cost one walk over it, not one each (1 MB of "all agents all agents ..." was quadratic: minutes).
 */
export function sentencesAlong(text: string): (pos: number) => [number, number] {
  let last: [number, number] | undefined;
  return (pos) => (last && pos >= last[0] && pos < last[1] ? last : (last = sentenceAt(text, pos)));
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

/** How far either side of a position its paragraph is read: a text with no blank line is not read whole for each sentence. */
const PARAGRAPH_REACH = 4000;

/** The paragraph around `pos`: between blank lines, at most PARAGRAPH_REACH characters either side of it. */
export function paragraphAt(text: string, pos: number): [number, number] {
  const from = Math.max(0, pos - PARAGRAPH_REACH);
  const to = Math.min(text.length, pos + PARAGRAPH_REACH);
  const before = text.slice(from, Math.min(text.length, pos + 2)).lastIndexOf('\n\n', pos - from);
  const after = text.slice(pos, to).indexOf('\n\n');
  return [before < 0 ? from : from + before + 2, after < 0 ? to : pos + after];
}

/** The longest quotation followed across paragraphs; a quote mark with no partner within it is stray. */
const MAX_QUOTE = 3000;
const BLOCK_QUOTE = /^[ \t]*>.*(?:\n[ \t]*>.*)*/gm;
const SINGLE_QUOTE = /(?<=^|[\s:(])'[^'\n]{12,}?'(?=[\s.,;:!?)]|$)/gm;

/**
 * Spans of the quotations in a text, in order: double and curly quotes (paired in reading order, across paragraphs up
 * to 3,000 characters), long single-quoted phrases, and `>` blocks.
 */
export function quotations(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let open = -1;
  let closer = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open >= 0 && i - open > MAX_QUOTE) {
      i = open;
      open = -1;
      continue;
    }
    if (open < 0 && (c === '"' || c === '“')) {
      open = i;
      closer = c === '"' ? '"' : '”';
    } else if (open >= 0 && c === closer) {
      if (i - open > 8) spans.push([open, i + 1]);
      open = -1;
    }
  }
  for (const pattern of [BLOCK_QUOTE, SINGLE_QUOTE]) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
