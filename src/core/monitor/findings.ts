// Each propagation-monitor finding code, described once: advisory (Information, never blocking unless
// `scan --fail-on-alert`), shown on its evidence span, its description and its message (docs/monitoring.md#<code>).
import { specOf, type FindingSpec } from '../findings';
import type { RequestRule } from './propagationRequest';
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
    message: (f) => `${requestText(f.markers)} Advisory: self-propagating payloads ask to be copied to other agents or into memory/prompt files.`,
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

/** What each request rule asks, and what each evidence tag adds, in words. */
const REQUEST_TEXT: Record<RequestRule, string> = {
  'forward-to-agents': 'asks to pass this content on to other agents',
  'recruit-agents': 'asks to bring other agents in',
  'tell-agents': 'asks to hand this content to another agent',
  'persist-to-memory': 'asks to write this content into a prompt or memory file',
  'persisted-to-memory': 'reports writing this content into its own prompt or memory',
  'replace-prompt-file': 'asks to replace a prompt file with this content',
  'delegate-onward': 'asks to put this content into the prompts of sub-agents or delegated tasks',
  'include-in-every-reply': 'asks to repeat this content in replies',
  'pass-it-on': 'asks to pass this content on',
  verbatim: 'word for word',
  'survive-reset': 'to outlive resets',
  'keep-chain-going': 'as a chain',
  'your-own': 'into your own file',
  covert: 'quietly',
  'every-prompt-file': 'into every prompt file it can reach',
  'viral-text': 'naming a creed',
};
const EVIDENCE: ReadonlySet<string> = new Set(['verbatim', 'survive-reset', 'keep-chain-going', 'your-own', 'covert', 'every-prompt-file', 'viral-text']);

/** "Propagation request: asks to ... (word for word, to outlive resets)." from a finding's markers. */
function requestText(markers: readonly string[]): string {
  const text = (m: string) => REQUEST_TEXT[m as RequestRule] ?? m;
  const asks = markers.filter((m) => !EVIDENCE.has(m)).map(text);
  const signs = markers.filter((m) => EVIDENCE.has(m)).map(text);
  return `Propagation request: ${asks.join('; ') || 'asks to pass content on'}${signs.length ? ` (${signs.join(', ')})` : ''}.`;
}

/** The diagnostic message for a monitor finding. */
export function describeMonitorFinding(finding: MonitorFinding): string {
  return specOf<MonitorFinding, MonitorFindingSpec>(MONITOR_FINDINGS, finding).message(finding);
}
