// Recognises the immunity warning and the delegation boundary in prompt text, whatever the wrapping: words are
// compared after undoing string escapes and dropping whitespace, quote markers, comment prefixes and punctuation.
import { DELEGATION_BOUNDARY_LABEL, MIND_VIRUS_IMMUNITY_WARNING } from './texts';

const ESCAPED_CODE_POINT = /\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g;

/**
 * The word sequence of a text as detection sees it: string escapes undone (`\n` and friends become spaces), then
 * lower-cased letters and digits only, so reflow, re-indent, `>` quoting, `//` `#` `*` comment prefixes, string
 * quotes and concatenation operators all vanish.
 */
export function detectionWords(text: string): string[] {
  const unescaped = text
    .replace(ESCAPED_CODE_POINT, (_, braced?: string, four?: string, two?: string) => String.fromCodePoint(parseInt(braced ?? four ?? two ?? '20', 16)))
    .replace(/\\[nrtvf]/g, ' ')
    .replace(/\\(.)/gs, '$1');
  return unescaped.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function containsSequence(haystack: string, needle: string[]): boolean {
  return ` ${detectionWords(haystack).join(' ')} `.includes(` ${needle.join(' ')} `);
}

const WARNING_WORDS = detectionWords(MIND_VIRUS_IMMUNITY_WARNING);
const LABEL_WORDS = detectionWords(DELEGATION_BOUNDARY_LABEL);

/** True when the text carries the whole immunity warning (a partial copy does not count). */
export function containsImmunityWarning(text: string): boolean {
  return containsSequence(text, WARNING_WORDS);
}

/** True when the text carries the whole delegation boundary label. */
export function containsBoundaryLabel(text: string): boolean {
  return containsSequence(text, LABEL_WORDS);
}

const OPEN_TAG = /<\s*delegated[_-]task\s*>/gi;
const CLOSE_TAG = /<\s*\/\s*delegated[_-]task\s*>/gi;

/**
 * True when `text[start, end)` sits inside a delegation boundary of `text`: an opening tag before it with the full
 * label ahead of that tag, and a closing tag after it, with no tag of either kind in between.
 */
export function isInsideBoundary(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start);
  const opens = [...before.matchAll(OPEN_TAG)];
  const open = opens[opens.length - 1];
  if (!open || open.index === undefined) return false;
  const between = before.slice(open.index + open[0].length);
  if (new RegExp(CLOSE_TAG.source, 'i').test(between)) return false;
  if (!containsBoundaryLabel(before.slice(0, open.index))) return false;
  const after = text.slice(end);
  const close = new RegExp(CLOSE_TAG.source, 'i').exec(after);
  if (!close) return false;
  return !new RegExp(OPEN_TAG.source, 'i').test(after.slice(0, close.index));
}
