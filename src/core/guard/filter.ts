// The embedded rehabilitation filter: drops the sentences that carry injected instructions (the cue lexicon's, and an
// order to the model from inside data as the address reader reads it), propagation requests or persuasion aimed at
// other agents, keeps the task content, and reports what it removed.
import type { TaskInfo } from '../trace/types';
import { injectedOrderSpans } from '../text/address';
import { findCues, sentenceSpans } from '../text/cues';
import { words } from '../text/tokens';
import type { FilterResult, RehabFilter, RemovedSpan } from './types';

const REASON: Record<string, RemovedSpan['reason']> = {
  injection: 'injected-instruction',
  propagation: 'propagation-request',
  persuasion: 'persuasion',
};

/** Removes manipulative sentences from `text`; pure and synchronous. */
export function filterManipulation(text: string): FilterResult {
  const hits = [...findCues(text).filter((h) => !h.reported), ...injectedOrderSpans(text).map(([start, end]) => ({ start, end, family: 'injection' }))];
  if (hits.length === 0) return { text, removed: [], usable: words(text).length > 0 };
  const removed: RemovedSpan[] = [];
  let kept = '';
  let cursor = 0;
  // One sweep over sentences and hits, both in text order: a sentence is dropped when a hit starts before its end and
  // reaches past its start, the earliest such hit naming the reason. A hit that ends before a sentence starts can touch
  // no later sentence, so the queue of started hits only ever loses its head.
  hits.sort((a, b) => a.start - b.start);
  let next = 0;
  let head = 0;
  for (const [start, end] of sentenceSpans(text)) {
    while (next < hits.length && hits[next].start < end) next++;
    while (head < next && hits[head].end <= start) head++;
    if (head === next) continue;
    const hit = hits[head];
    kept += text.slice(cursor, start);
    removed.push({ start, end, text: text.slice(start, end), reason: REASON[hit.family] });
    cursor = end;
  }
  kept += text.slice(cursor);
  const cleaned = kept.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return { text: cleaned, removed, usable: words(cleaned).length >= 3 };
}

/** The filter as the guard's pluggable RehabFilter. */
export class EmbeddedFilter implements RehabFilter {
  readonly name = 'embedded';

  async filter(text: string, _task?: TaskInfo): Promise<FilterResult> {
    return filterManipulation(text);
  }
}
