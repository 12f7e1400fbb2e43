// The tamper-evident audit trail (.agent-immune/audit.ndjson): each event becomes a decision record and a provenance
// record, each record carries the hash of the one before it, and the verifier names the first broken record.
import { sortKeys } from './lockfile';
import { sriSha256 } from './sha256';
import type { IntegrityCode } from './types';

/** Schema id written in every audit record. */
export const AUDIT_SCHEMA = 'agent-immune/audit/v1';

/** Default audit log path relative to the workspace root. */
export const AUDIT_LOG = '.agent-immune/audit.ndjson';

/** What happened: a finding seen (its code; findings/INTEGRITY_FINDINGS says which are recorded), a file (re)pinned, a
 * lockfile written, or a run blocked. */
export type AuditEventKind = IntegrityCode | 'repin' | 'lock' | 'block';

/** What was decided about it. */
export type AuditDecision = 'warn' | 'block' | 'approve';

/** Who or what acted: the tool (cli, extension, runtime API), its version, and the OS user when known. */
export interface AuditActor {
  tool: string;
  version: string;
  user?: string;
}

/** One event to record; the builder turns it into a decision record and a provenance record. */
export interface AuditEvent {
  event: AuditEventKind;
  decision: AuditDecision;
  /** The file (or lockfile) concerned, POSIX relative to the root. */
  path?: string;
  /** Pinned hash before (SRI), when there was one. */
  old?: string;
  /** Current hash after (SRI), when there is one. */
  new?: string;
  /** Short why: a finding's reason, or the paths a block was about. */
  detail?: string;
}

/** One line of the log. `hash` covers every other field, `prev` is the previous record's hash (null for the first). */
export interface AuditRecord {
  schema: typeof AUDIT_SCHEMA;
  seq: number;
  time: string;
  type: 'decision' | 'provenance';
  event: AuditEventKind;
  decision?: AuditDecision;
  path?: string;
  old?: string;
  new?: string;
  detail?: string;
  actor?: AuditActor;
  prev: string | null;
  hash: string;
}

/** The end of a chain: the last record's seq and hash (undefined for an empty log). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** Canonical JSON (sorted keys, no spaces) of a record without its hash: what `hash` is computed over. */
export function recordDigest(record: Omit<AuditRecord, 'hash'>): string {
  return sriSha256(JSON.stringify(sortKeys(record)));
}

/** Chains events after `head` into records (decision then provenance per event); returns the NDJSON text and new head. */
export function buildAuditRecords(events: readonly AuditEvent[], actor: AuditActor, time: string, head: ChainHead | undefined): { text: string; records: AuditRecord[]; head: ChainHead | undefined } {
  const records: AuditRecord[] = [];
  let seq = head?.seq ?? 0;
  let prev = head?.hash ?? null;
  const push = (body: Omit<AuditRecord, 'schema' | 'seq' | 'time' | 'prev' | 'hash'>) => {
    const unhashed = strip<Omit<AuditRecord, 'hash'>>({ schema: AUDIT_SCHEMA, seq: ++seq, time, ...body, prev });
    const record = { ...unhashed, hash: recordDigest(unhashed) } as AuditRecord;
    records.push(record);
    prev = record.hash;
  };
  for (const e of events) {
    push({ type: 'decision', event: e.event, decision: e.decision, path: e.path, detail: e.detail });
    push({ type: 'provenance', event: e.event, path: e.path, old: e.old, new: e.new, actor });
  }
  const text = records.map((r) => JSON.stringify(sortKeys(r)) + '\n').join('');
  return { text, records, head: prev === null ? head : { seq, hash: prev } };
}

/** Why a chain is broken at a record. */
export type ChainBreakReason = 'not-json' | 'bad-record' | 'hash-mismatch' | 'chain-broken' | 'seq-gap' | 'partial-line';

/** The first broken record: its 1-based line and why. */
export interface ChainBreak {
  line: number;
  reason: ChainBreakReason;
  detail: string;
}

/** Checks a log line by line (streaming); stops at the first break. */
export class AuditChainVerifier {
  private head: ChainHead | undefined;
  private count = 0;
  private broken: ChainBreak | undefined;

  /** Feeds one line; returns the break when this line breaks the chain. */
  push(text: string, line: number): ChainBreak | undefined {
    if (this.broken) return this.broken;
    const fail = (reason: ChainBreakReason, detail: string) => (this.broken = { line, reason, detail });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return fail('not-json', 'the line is not JSON (edited or truncated)');
    }
    const record = raw as AuditRecord;
    if (typeof raw !== 'object' || raw === null || record.schema !== AUDIT_SCHEMA || typeof record.hash !== 'string' || typeof record.seq !== 'number') {
      return fail('bad-record', `not an ${AUDIT_SCHEMA} record`);
    }
    const { hash, ...unhashed } = record;
    if (recordDigest(unhashed) !== hash) return fail('hash-mismatch', `record ${record.seq} was edited after it was written`);
    if (record.prev !== (this.head?.hash ?? null)) return fail('chain-broken', `record ${record.seq} does not follow the record before it (a record was deleted or moved)`);
    if (record.seq !== (this.head?.seq ?? 0) + 1) return fail('seq-gap', `record ${record.seq} follows record ${this.head?.seq ?? 0}`);
    this.head = { seq: record.seq, hash };
    this.count++;
    return undefined;
  }

  /** Marks the log as ending without a newline (a torn write or a cut file). */
  partialEnd(line: number): ChainBreak {
    this.broken ??= { line, reason: 'partial-line', detail: 'the last line has no newline (torn write or truncated file)' };
    return this.broken;
  }

  /** Records accepted, the head of the valid chain, and the first break if any. */
  result(): { records: number; head: ChainHead | undefined; broken: ChainBreak | undefined } {
    return { records: this.count, head: this.head, broken: this.broken };
  }
}

function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
