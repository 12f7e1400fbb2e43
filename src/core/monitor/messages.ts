// Wording of monitor alerts in reports (scan, analyze, the editor's output): one line per alert (code, subject,
// markers, chain) and its evidence, and the editor's log lines; each finding's own diagnostic message is in findings.ts.
import type { MonitorFinding } from './types';
import { inline } from '../text/printable';

/** One alert as a line plus an indented evidence excerpt (untrusted names and text escaped to one line each). */
export function formatAlert(alert: MonitorFinding, source?: string): string[] {
  const where = source && source !== alert.subject ? `${inline(source)}: ` : '';
  const at = alert.evidence.round !== undefined ? ` (round ${alert.evidence.round}${alert.evidence.line !== undefined ? `, line ${alert.evidence.line}` : ''})` : '';
  const detail =
    alert.signal === 'verbatimSpread' && alert.chain
      ? `chain ${alert.chain.map((h) => `${inline(h.agent)}@r${h.round}`).join(' -> ')}, ${alert.markers.join(', ')}`
      : alert.signal === 'propagation' && alert.sessions
        ? `markers ${alert.markers.join(', ')} recur in ${alert.sessions.length} sessions: ${alert.sessions.map(inline).join(', ')}`
        : `markers: ${alert.markers.join(', ')}`;
  const more = alert.suppressed ? ` (+${alert.suppressed} more in this burst)` : '';
  return [`  ${alert.code.padEnd(19)} ${where}${alert.signal === 'propagation' ? '' : inline(alert.subject) + at + ' — '}${detail}${more}`, `      "${inline(alert.evidence.text)}"`];
}

/** The alerts block: a heading and each alert, or nothing when there are none. */
export function formatAlerts(alerts: readonly { alert: MonitorFinding; source?: string }[]): string[] {
  if (alerts.length === 0) return [];
  return [`Propagation alerts (advisory): ${alerts.length}`, ...alerts.flatMap(({ alert, source }) => formatAlert(alert, source))];
}

/** The editor's output-channel lines about the propagation monitor. */
export const monitorLog = {
  /** A folder's files could not be listed. */
  cannotList: (folder: string, reason: string) => `Propagation monitor could not list ${folder}: ${reason}`,
  /** The project config's monitor section could not be used. */
  defaults: (reason: string) => `Propagation monitor uses its defaults: ${reason}`,
} as const;
