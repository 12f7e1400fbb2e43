// "Recorded once": which findings the audit trail holds as open (recorded, not cleared since), replayed from its
// records, and the events a run must append so the trail records each change of state once: a finding that appeared,
// and a finding that cleared.
import type { AuditEvent, AuditRecord } from './audit';
import { findingEvent, INTEGRITY_CODES } from './findings';
import type { IntegrityFinding } from './types';

const FINDING_EVENTS: ReadonlySet<string> = new Set(INTEGRITY_CODES);

/** A finding's identity in the trail: its code and recorded fields (path, hashes, detail). */
export function auditIdentity(event: AuditEvent): string {
  return JSON.stringify([event.event, event.path ?? null, event.old ?? null, event.new ?? null, event.detail ?? null]);
}

/** Replays records (in order) into the set of open findings: a warn or block opens one, a clear closes it. */
export class OpenFindings {
  private readonly open = new Map<string, AuditEvent>();
  private decision: AuditRecord | undefined;

  /** Feeds one record of the trail. */
  push(record: AuditRecord): void {
    if (record.type === 'decision') {
      this.decision = FINDING_EVENTS.has(record.event) ? record : undefined;
      return;
    }
    const decision = this.decision;
    this.decision = undefined;
    if (!decision || decision.event !== record.event || decision.seq + 1 !== record.seq || !decision.decision) return;
    const event: AuditEvent = { event: record.event, decision: decision.decision, path: decision.path, old: record.old, new: record.new, detail: decision.detail };
    const identity = auditIdentity(event);
    if (event.decision === 'clear') this.open.delete(identity);
    else this.open.set(identity, event);
  }

  /** The open findings, by identity. */
  events(): ReadonlyMap<string, AuditEvent> {
    return this.open;
  }
}

/** The events a run records: each finding not open yet (decided `decision`), then a clear for each open finding that
 * is no longer found. */
export function auditDelta(open: ReadonlyMap<string, AuditEvent>, findings: readonly IntegrityFinding[], decision: 'warn' | 'block'): AuditEvent[] {
  const current = new Map<string, AuditEvent>();
  for (const finding of findings) {
    const event = findingEvent(finding, decision);
    current.set(auditIdentity(event), event);
  }
  const appeared = [...current].filter(([identity]) => !open.has(identity)).map(([, event]) => event);
  const cleared = [...open].filter(([identity]) => !current.has(identity)).map(([, event]): AuditEvent => ({ ...event, decision: 'clear' }));
  return [...appeared, ...cleared];
}

