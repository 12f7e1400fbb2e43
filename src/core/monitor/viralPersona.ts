// Signal viralPersona: text showing the recurring theme cluster of evolved mind viruses. Counts *distinct* viral
// markers within a window of text and fires at the (clamped) threshold, provided at least `minThemes` of them are
// themes rather than dual-use technical words; one routine word, or a page of networking and audio terms, never fires it.
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

/** The window of `width` characters holding the most distinct markers (earliest on ties) among windows with at least
 * `minThemes` non-ambient markers; undefined when none. */
export function densestWindow(hits: MarkerHit[], width: number, ambient: readonly boolean[] = [], minThemes = 0): MarkerWindow | undefined {
  if (hits.length === 0) return undefined;
  const counts = new Map<number, number>();
  let themes = 0;
  let best: MarkerWindow | undefined;
  let left = 0;
  for (let right = 0; right < hits.length; right++) {
    const added = hits[right].marker;
    counts.set(added, (counts.get(added) ?? 0) + 1);
    if (counts.get(added) === 1 && !ambient[added]) themes++;
    while (hits[right].end - hits[left].start > width) {
      const removed = hits[left].marker;
      const n = counts.get(removed)! - 1;
      if (n === 0) {
        counts.delete(removed);
        if (!ambient[removed]) themes--;
      } else counts.set(removed, n);
      left++;
    }
    if (themes >= minThemes && (!best || counts.size > best.markers.length)) best = { markers: [...counts.keys()], start: hits[left].start, end: hits[right].end };
  }
  return best;
}

/** Runs viralPersona over one document (`lower`: its text lower-cased, shared between signals): a finding when its densest window reaches the threshold. */
export function viralPersona(document: MonitorDocument, config: MonitorConfig, lower?: string): MonitorFinding | undefined {
  const window = densestWindow(findMarkers(document.text, config.compiled, lower), config.viralPersonaWindow, config.compiled.ambient, config.minThemes);
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
