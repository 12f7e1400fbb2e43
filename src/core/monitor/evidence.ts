// Evidence spans shared by the signals: a bounded excerpt of the text with its offsets.
import type { Evidence, MonitorDocument } from './types';

/** Longest excerpt an alert carries; the offsets still cover the whole span. */
export const MAX_EVIDENCE_CHARS = 400;

/** The evidence for [start, end) of a document: the excerpt (whitespace folded, capped) and where it is. */
export function evidenceOf(document: MonitorDocument, start: number, end: number): Evidence {
  const flat = document.text.slice(start, end).replace(/\s+/g, ' ').trim();
  return {
    text: flat.length > MAX_EVIDENCE_CHARS ? flat.slice(0, MAX_EVIDENCE_CHARS - 1) + '…' : flat,
    start,
    end,
    ...(document.line !== undefined ? { line: document.line } : {}),
    ...(document.round !== undefined ? { round: document.round } : {}),
  };
}
