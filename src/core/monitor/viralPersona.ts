// Signal viralPersona: text showing the recurring theme cluster of evolved mind viruses. Counts *distinct* viral
// markers within a window of text and fires at the (clamped) threshold; one routine word never fires it.
import type { MonitorConfig } from './config';
import { evidenceOf } from './evidence';
import { cooldownKey, FINDING_CODE, type MonitorDocument, type MonitorFinding } from './types';
import { findMarkers, type MarkerHit } from './vocabulary';

/** The densest window of a text: the distinct markers in it and its span. */
export interface MarkerWindow {
  markers: number[];
  start: number;
  end: number;
}

/** The window of `width` characters holding the most distinct markers (earliest on ties); undefined when none. */
export function densestWindow(hits: MarkerHit[], width: number): MarkerWindow | undefined {
  if (hits.length === 0) return undefined;
  const counts = new Map<number, number>();
  let best: MarkerWindow | undefined;
  let left = 0;
  for (let right = 0; right < hits.length; right++) {
    counts.set(hits[right].marker, (counts.get(hits[right].marker) ?? 0) + 1);
    while (hits[right].end - hits[left].start > width) {
      const n = counts.get(hits[left].marker)! - 1;
      if (n === 0) counts.delete(hits[left].marker);
      else counts.set(hits[left].marker, n);
      left++;
    }
    if (!best || counts.size > best.markers.length) best = { markers: [...counts.keys()], start: hits[left].start, end: hits[right].end };
  }
  return best;
}

/** Runs viralPersona over one document: a finding when its densest window reaches the threshold. */
export function viralPersona(document: MonitorDocument, config: MonitorConfig): MonitorFinding | undefined {
  const window = densestWindow(findMarkers(document.text, config.compiled), config.viralPersonaWindow);
  if (!window || window.markers.length < config.threshold) return undefined;
  return {
    signal: 'viralPersona',
    code: FINDING_CODE.viralPersona,
    subject: document.subject,
    evidence: evidenceOf(document, window.start, window.end),
    markers: window.markers.map((i) => config.compiled.markers[i]).sort(),
    cooldownKey: cooldownKey('viralPersona', document.subject),
    ...(document.at !== undefined ? { at: document.at } : {}),
  };
}
