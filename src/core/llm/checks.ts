// Checks on an LLM-cleaned output before the guard trusts it: not empty, task content kept, nothing new added
// (no new instructions, no new content). A failed check sends the output to the embedded filter or to replacement.
import { filterManipulation } from '../guard/filter';
import type { FilterResult, RemovedSpan } from '../guard/types';
import { findCues } from '../text/cues';
import { stem, words } from '../text/tokens';
import type { FilterReply } from './prompts';

/** Why a cleaned output was rejected (stable codes; wording at the edge). */
export type FilterProblem = 'empty' | 'task-content-lost' | 'new-instructions' | 'new-content';

/** Share of the cleaned text's words that may be absent from the original. */
const MAX_NEW_WORDS = 0.2;
/** Share of the embedded filter's kept words the cleaned text must still contain. */
const MIN_KEPT_WORDS = 0.5;

/** Checks a filter reply against the original output; returns the problems found (empty when it passes). */
export function checkFilterReply(original: string, reply: FilterReply): FilterProblem[] {
  const problems: FilterProblem[] = [];
  const cleaned = words(reply.text).map(stem);
  if (cleaned.length < 3) return ['empty'];
  const source = new Set(words(original).map(stem));
  const novel = cleaned.filter((w) => !source.has(w)).length;
  if (novel / cleaned.length > MAX_NEW_WORDS) problems.push('new-content');
  if (findCues(reply.text).some((h) => !h.reported && (h.family === 'injection' || h.family === 'propagation'))) problems.push('new-instructions');
  const reference = words(filterManipulation(original).text).map(stem);
  if (reference.length > 0) {
    const kept = new Set(cleaned);
    if (reference.filter((w) => kept.has(w)).length / reference.length < MIN_KEPT_WORDS) problems.push('task-content-lost');
  }
  return problems;
}

/** Turns an accepted reply into the guard's FilterResult, locating each removed passage in the original. */
export function toFilterResult(original: string, reply: FilterReply): FilterResult {
  const removed: RemovedSpan[] = [];
  for (const passage of reply.removed) {
    const needle = passage.trim();
    const start = needle ? original.indexOf(needle) : -1;
    if (start >= 0) removed.push({ start, end: start + needle.length, text: needle, reason: 'llm' });
  }
  const text = reply.text.trim();
  return { text, removed: removed.sort((a, b) => a.start - b.start), usable: words(text).length >= 3 };
}
