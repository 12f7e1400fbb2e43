// Cooldown per (signal, subject): one burst of findings on a key raises one alert, which counts the rest as suppressed.
import type { MonitorFinding } from './types';

/**
 * Keeps the first finding of each burst per cooldown key. Findings without a time form one burst per key; timed
 * ones start a new alert once `cooldownMs` has passed since the last kept one.
 */
export function applyCooldown(findings: MonitorFinding[], cooldownMs: number): MonitorFinding[] {
  const kept: MonitorFinding[] = [];
  const last = new Map<string, MonitorFinding>();
  const ordered = findings.map((f, i) => [f, i] as const).sort(([a, i], [b, j]) => (a.at ?? -Infinity) - (b.at ?? -Infinity) || i - j);
  for (const [finding] of ordered) {
    const previous = last.get(finding.cooldownKey);
    if (previous && (finding.at === undefined || previous.at === undefined || finding.at - previous.at < cooldownMs)) {
      previous.suppressed = (previous.suppressed ?? 0) + 1 + (finding.suppressed ?? 0);
      continue;
    }
    const alert = { ...finding };
    last.set(finding.cooldownKey, alert);
    kept.push(alert);
  }
  return kept;
}

/** Splits alerts against a ledger of the last time (ms) each key was recorded: those still cooling down are held back. */
export function splitByLedger(
  alerts: MonitorFinding[],
  lastRecorded: ReadonlyMap<string, number>,
  now: number,
  cooldownMs: number,
): { fresh: MonitorFinding[]; cooling: MonitorFinding[] } {
  const fresh: MonitorFinding[] = [];
  const cooling: MonitorFinding[] = [];
  for (const alert of alerts) {
    const last = lastRecorded.get(alert.cooldownKey);
    (last !== undefined && now - last < cooldownMs && now >= last ? cooling : fresh).push(alert);
  }
  return { fresh, cooling };
}
