// Wording of monitor findings for the editor (findings are data; words are made here, at the edge).
import type { MonitorFinding } from '../../core/monitor/types';

/** The diagnostic message for a per-file monitor finding. */
export function describeMonitorFinding(finding: MonitorFinding): string {
  switch (finding.signal) {
    case 'viralPersona':
      return `Possible mind-virus persona: ${finding.markers.length} viral themes close together (${finding.markers.join(', ')}). Advisory: agents load this file; check who wrote it.`;
    case 'propagationRequest':
      return `Request to pass content on or persist it (${finding.markers.join(', ')}). Advisory: self-propagating payloads ask to be copied to other agents or into memory/prompt files.`;
    case 'propagation':
      return `The same viral markers (${finding.markers.join(', ')}) recur in ${finding.sessions?.length ?? 0} files: ${(finding.sessions ?? []).join(', ')}.`;
    case 'verbatimSpread':
      return `A long span is copied verbatim along ${finding.chain?.map((h) => `${h.agent}@r${h.round}`).join(' -> ') ?? 'several agents'}.`;
  }
}
