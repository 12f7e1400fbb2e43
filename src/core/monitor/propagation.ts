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

/** One finding per marker carried by at least `minSessions` distinct sessions whose times fall within `window`. */
export function propagation(observations: SessionObservation[], minSessions: number, window: number): MonitorFinding[] {
  const byMarker = new Map<string, SessionObservation[]>();
  for (const o of observations) for (const marker of new Set(o.markers)) byMarker.set(marker, [...(byMarker.get(marker) ?? []), o]);
  const findings: MonitorFinding[] = [];
  for (const [marker, seen] of [...byMarker].sort(([a], [b]) => a.localeCompare(b))) {
    const group = widestGroup(seen, window);
    if (group.length < minSessions) continue;
    const first = group[0];
    findings.push({
      signal: 'propagation',
      code: FINDING_CODE.propagation,
      subject: marker,
      evidence: first.evidence,
      markers: [marker],
      cooldownKey: cooldownKey('propagation', marker),
      sessions: group.map((o) => o.session),
    });
  }
  return findings;
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
