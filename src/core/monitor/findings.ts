// Each propagation-monitor finding code, described once: advisory (Information, never blocking unless
// `scan --fail-on-alert`), shown on its evidence span, its description and its message (docs/monitoring.md#<code>).
import { specOf, type FindingSpec } from '../findings';
import type { FindingCode, MonitorFinding } from './types';

/** A monitor code's spec. */
export interface MonitorFindingSpec extends FindingSpec<MonitorFinding> {
  /** Where the editor shows it: the quoted evidence span of the file. */
  attach: 'evidence';
}

/** The monitor codes, one per signal (docs/monitoring.md). */
export const MONITOR_FINDINGS: Record<FindingCode, MonitorFindingSpec> = {
  'viral-persona': {
    severity: 'information',
    blocking: false,
    attach: 'evidence',
    docs: 'monitoring',
    description: 'Distinct viral-persona markers cluster in one window of a file or output.',
    message: (f) => `Possible mind-virus persona: ${f.markers.length} viral themes close together (${f.markers.join(', ')}). Advisory: agents load this file; check who wrote it.`,
  },
  propagation: {
    severity: 'information',
    blocking: false,
    attach: 'evidence',
    docs: 'monitoring',
    description: 'The same viral markers recur across sessions or agents.',
    message: (f) => `The same viral markers (${f.markers.join(', ')}) recur in ${f.sessions?.length ?? 0} files: ${(f.sessions ?? []).join(', ')}.`,
  },
  'propagation-request': {
    severity: 'information',
    blocking: false,
    attach: 'evidence',
    docs: 'monitoring',
    description: 'Content asks to be passed on to other agents or persisted into memory or prompt files.',
    message: (f) => `Request to pass content on or persist it (${f.markers.join(', ')}). Advisory: self-propagating payloads ask to be copied to other agents or into memory/prompt files.`,
  },
  'verbatim-spread': {
    severity: 'information',
    blocking: false,
    attach: 'evidence',
    docs: 'monitoring',
    description: 'A long span is copied verbatim hop by hop along the edges of a run.',
    message: (f) => `A long span is copied verbatim along ${f.chain?.map((h) => `${h.agent}@r${h.round}`).join(' -> ') ?? 'several agents'}.`,
  },
};

/** The diagnostic message for a monitor finding. */
export function describeMonitorFinding(finding: MonitorFinding): string {
  return specOf<MonitorFinding, MonitorFindingSpec>(MONITOR_FINDINGS, finding).message(finding);
}
