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

/** Embedded evidence at or above this is strong: a judge score below 0.5 for the same head is a disagreement, not a verdict. */
export const STRONG_EMBEDDED_EVIDENCE = 0.8;

/** A head the judge tried to clear against strong embedded evidence. */
export interface Overruled {
  head: 'pAtk' | 'pInf';
  embedded: number;
  judge: number;
}

/**
 * The judge is one signal beside the embedded model: its score is used, except where it would clear an agent the
 * embedded model flags strongly (a trace can talk a judge into "score 0"); there the embedded score stays and the
 * disagreement is reported. Raising suspicion the embedded model missed is what the judge is for, so that passes.
 */
export function reconcileJudgement(
  embedded: { pAtk: number; pInf: number },
  judge: { pAtk: number; pInf: number },
): { scores: { pAtk: number; pInf: number }; overruled: Overruled[] } {
  const overruled: Overruled[] = [];
  const pick = (head: 'pAtk' | 'pInf') => {
    if (embedded[head] >= STRONG_EMBEDDED_EVIDENCE && judge[head] < 0.5) {
      overruled.push({ head, embedded: embedded[head], judge: judge[head] });
      return embedded[head];
    }
    return judge[head];
  };
  return { scores: { pAtk: pick('pAtk'), pInf: pick('pInf') }, overruled };
}
