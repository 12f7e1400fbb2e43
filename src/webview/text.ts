// Safe text presentation: splits untrusted output into plain / removed / hidden-character segments so the DOM layer
// can render each with textContent. Invisible and bidirectional controls (Trojan Source) become visible markers.
import type { OutputView } from '../core/graphview/types';
import { HIDDEN_CHARACTERS } from '../core/text/printable';

/** A run of output text and how to show it. */
export interface Segment {
  text: string;
  /** 'removed': the filter would drop it; 'hidden': an invisible or bidi control character, shown as a marker. */
  kind: 'plain' | 'removed' | 'hidden';
  reason?: string;
}

/** The marker shown for a hidden character, e.g. ⟨U+202E⟩. */
export function hiddenMarker(ch: string): string {
  return `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Splits plain text so hidden characters are their own segments. */
export function revealHidden(text: string, kind: 'plain' | 'removed' = 'plain', reason?: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN_CHARACTERS)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at), kind, ...(reason ? { reason } : {}) });
    out.push({ text: hiddenMarker(m[0]), kind: 'hidden' });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), kind, ...(reason ? { reason } : {}) });
  return out;
}

/** Splits an output into segments: filter-removed spans marked, hidden characters revealed. */
export function outputSegments(output: OutputView): Segment[] {
  const spans = [...output.removed].filter((s) => s.start < s.end && s.start < output.text.length).sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let cursor = 0;
  for (const span of spans) {
    const start = Math.max(span.start, cursor);
    const end = Math.min(span.end, output.text.length);
    if (start >= end) continue;
    if (start > cursor) out.push(...revealHidden(output.text.slice(cursor, start)));
    out.push(...revealHidden(output.text.slice(start, end), 'removed', span.reason));
    cursor = end;
  }
  if (cursor < output.text.length) out.push(...revealHidden(output.text.slice(cursor)));
  return out;
}

/** Counts hidden characters in a string (shown as a badge). */
export function countHidden(text: string): number {
  return (text.match(HIDDEN_CHARACTERS) ?? []).length;
}

/** Strips hidden characters for one-line labels (ids on the canvas and in lists). */
export function plainLabel(text: string, max = 80): string {
  const clean = text.replace(HIDDEN_CHARACTERS, (c) => hiddenMarker(c));
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
