// Signal propagation: the same viral marker recurring across distinct sessions/agents within a window. A session
// counts only once its own content reaches the viralPersona threshold, so a routine word ("node", "frequency")
// repeated across sessions never fires it, and benign repetition with no viral marker never matches.
import { cooldownKey, FINDING_CODE, type MonitorFinding } from './types';

/** What one session showed: its viralPersona finding's markers, when and where. */
export interface SessionObservation {
  session: string;
  /** Round (traces) or seconds (files): the unit of `window`. */
  at: number;
  /** Markers of the session's viralPersona finding (sessions below the threshold are not observations). */
  markers: string[];
  evidence: MonitorFinding['evidence'];
}

/**
 * Finds markers carried by at least `minSessions` distinct sessions whose times fall within `window`. Markers carried
 * by the same sessions make one finding, whose subject is the earliest session (the likely origin).
 */
export function propagation(observations: SessionObservation[], minSessions: number, window: number): MonitorFinding[] {
  const byMarker = new Map<string, SessionObservation[]>();
  for (const o of observations) for (const marker of new Set(o.markers)) byMarker.set(marker, [...(byMarker.get(marker) ?? []), o]);
  const groups = new Map<string, { group: SessionObservation[]; markers: string[] }>();
  for (const [marker, seen] of [...byMarker].sort(([a], [b]) => a.localeCompare(b))) {
    const group = widestGroup(seen, window);
    if (group.length < minSessions) continue;
    const key = group.map((o) => o.session).join('\u0000');
    const entry = groups.get(key) ?? { group, markers: [] };
    entry.markers.push(marker);
    groups.set(key, entry);
  }
  return [...groups.values()].map(({ group, markers }) => ({
    signal: 'propagation',
    code: FINDING_CODE.propagation,
    subject: group[0].session,
    evidence: group[0].evidence,
    markers,
    cooldownKey: cooldownKey('propagation', group[0].session),
    sessions: group.map((o) => o.session),
  }));
}

/** The largest set of distinct sessions (earliest observation each) whose times lie within `window` of each other. */
function widestGroup(seen: SessionObservation[], window: number): SessionObservation[] {
  const earliest = new Map<string, SessionObservation>();
  for (const o of seen) if (!earliest.has(o.session) || o.at < earliest.get(o.session)!.at) earliest.set(o.session, o);
  const sorted = [...earliest.values()].sort((a, b) => a.at - b.at || a.session.localeCompare(b.session));
  let best: SessionObservation[] = [];
  let left = 0;
  for (let right = 0; right < sorted.length; right++) {
    while (sorted[right].at - sorted[left].at > window) left++;
    if (right - left + 1 > best.length) best = sorted.slice(left, right + 1);
  }
  return best;
}
