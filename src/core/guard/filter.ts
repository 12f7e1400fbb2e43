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
  const dropped: Omit<RemovedSpan, 'text'>[] = [];
  const hitEnds = new Set<number>();
  for (const [start, end] of sentenceSpans(text)) {
    while (next < hits.length && hits[next].start < end) next++;
    while (head < next && hits[head].end <= start) head++;
    const last = dropped.at(-1);
    if (head < next) {
      dropped.push({ start, end, reason: REASON[hits[head].family] });
      hitEnds.add(end);
    // A sentence a hit dropped that a line break cut in two ("… please do the" / "following first:") goes with its
    // tail: one line, that ends a sentence, never the data lines after it ("recipient: me").
    } else if (last && hitEnds.has(last.end) && continues(text, last.end, start, end)) dropped.push({ start, end, reason: last.reason });
  }
  for (const { start, end, reason } of withWholeBlocks(text, dropped)) {
    kept += text.slice(cursor, start);
    removed.push({ start, end, text: text.slice(start, end), reason });
    cursor = end;
  }
  kept += text.slice(cursor);
  const cleaned = kept.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return { text: cleaned, removed, usable: words(cleaned).length >= 3 };
}

/**
 * Whether the sentence [start, tailEnd) is the tail of the one that ended at `end`: that one stops without a sentence's
 * end (a line break, a YAML fold, cut it), this one starts in lower case with only blanks between and ends one.
 */
function continues(text: string, end: number, start: number, tailEnd: number): boolean {
  return (
    /[\p{L}\p{N},]["')\]]*\s*$/u.test(text.slice(Math.max(0, end - 8), end)) &&
    /^\s*$/.test(text.slice(end, start)) &&
    /^\p{Ll}/u.test(text.slice(start, tailEnd).trimStart()) &&
    /[.!?:]["')\]]*\s*$/.test(text.slice(Math.max(start, tailEnd - 8), tailEnd))
  );
}

/** A tagged block (`<INFORMATION> … </INFORMATION>`), up to 5,000 characters: bounded, so hostile text cannot make it slow. */
const TAGGED_BLOCK = /<([A-Za-z][\w-]{0,30})>[\s\S]{0,5000}?<\/\1>/g;

/**
 * The dropped sentences, where an injection came in a tagged block: the whole block when what the sentences leave of
 * it is a sign-off (12 words or fewer: "Thanks! Signed, Emma Smith"), not the tags around an empty remainder.
 */
function withWholeBlocks(text: string, dropped: Omit<RemovedSpan, 'text'>[]): Omit<RemovedSpan, 'text'>[] {
  let spans = dropped;
  for (const block of text.matchAll(TAGGED_BLOCK)) {
    const start = block.index;
    const end = start + block[0].length;
    const inside = spans.filter((s) => s.start >= start && s.end <= end);
    if (inside.length === 0) continue;
    let rest = '';
    let at = start + block[1].length + 2;
    for (const s of inside) {
      rest += text.slice(at, s.start);
      at = s.end;
    }
    rest += text.slice(at, end - block[1].length - 3);
    if (words(rest).length > 12) continue;
    spans = [...spans.filter((s) => !inside.includes(s)), { start, end, reason: inside[0].reason }].sort((a, b) => a.start - b.start);
  }
  // A sentence that began before the block and ran into it overlaps it: one span.
  return spans.reduce<Omit<RemovedSpan, 'text'>[]>((merged, s) => {
    const last = merged.at(-1);
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
    return merged;
  }, []);
}

/** The filter as the guard's pluggable RehabFilter. */
export class EmbeddedFilter implements RehabFilter {
  readonly name = 'embedded';

  async filter(text: string, _task?: TaskInfo): Promise<FilterResult> {
    return filterManipulation(text);
  }
}
