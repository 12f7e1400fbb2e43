// Signal viralPersona: text showing the recurring theme cluster of evolved mind viruses. Sums the weights of the
// *distinct* viral markers within a window of text and fires at the (clamped) threshold, provided at least `minThemes`
// of them are themes rather than dual-use technical words; one routine word, or a page of networking and audio terms,
// never fires it.
import type { MonitorConfig } from './config';
import { evidenceOf } from './evidence';
import { cooldownKey, FINDING_CODE, type MonitorDocument, type MonitorFinding } from './types';
import { findMarkers, type MarkerHit } from './vocabulary';

/** The densest window of a text: the distinct markers in it, their summed weight and its span. */
export interface MarkerWindow {
  markers: number[];
  score: number;
  start: number;
  end: number;
}

/** The window of `width` characters whose distinct markers weigh the most (earliest on ties) among windows with at
 * least `minThemes` non-ambient markers; undefined when none. Weights default to 1 each. */
export function densestWindow(hits: MarkerHit[], width: number, ambient: readonly boolean[] = [], minThemes = 0, weight: readonly number[] = []): MarkerWindow | undefined {
  if (hits.length === 0) return undefined;
  const counts = new Map<number, number>();
  let themes = 0;
  let score = 0;
  const weightOf = (marker: number) => weight[marker] ?? 1;
  let best: MarkerWindow | undefined;
  let left = 0;
  for (let right = 0; right < hits.length; right++) {
    const added = hits[right].marker;
    counts.set(added, (counts.get(added) ?? 0) + 1);
    if (counts.get(added) === 1) {
      score += weightOf(added);
      if (!ambient[added]) themes++;
    }
    while (hits[right].end - hits[left].start > width) {
      const removed = hits[left].marker;
      const n = counts.get(removed)! - 1;
      if (n === 0) {
        counts.delete(removed);
        score -= weightOf(removed);
        if (!ambient[removed]) themes--;
      } else counts.set(removed, n);
      left++;
    }
    if (themes >= minThemes && (!best || score > best.score + 1e-9)) best = { markers: [...counts.keys()], score, start: hits[left].start, end: hits[right].end };
  }
  return best;
}

/** Runs viralPersona over one document (`lower`: its text lower-cased, shared between signals): a finding when its densest window reaches the threshold. */
export function viralPersona(document: MonitorDocument, config: MonitorConfig, lower?: string): MonitorFinding | undefined {
  const { compiled } = config;
  const window = densestWindow(findMarkers(document.text, compiled, lower), config.viralPersonaWindow, compiled.ambient, config.minThemes, compiled.weight);
  if (!window || window.score < config.threshold - 1e-9) return undefined;
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
