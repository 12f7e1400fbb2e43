// The audit trail (.agent-immune/audit.ndjson): each event becomes a decision record and a provenance record, each
// record carries the hash of the one before it, and the verifier names the first broken record. With an audit key
// (kept outside the workspace) every record also carries an HMAC, which only a holder of the key can compute.
import { sortKeys } from './lockfile';
import { hmacSha256, sriSha256, toBase64, toHex } from './sha256';
import { parseStrictJson } from './strictJson';
import type { IntegrityCode } from './types';

/** Schema id written in every audit record. */
export const AUDIT_SCHEMA = 'agent-immune/audit/v1';

/** Default audit log path relative to the workspace root. */
export const AUDIT_LOG = '.agent-immune/audit.ndjson';

/** What happened: a finding's state changed (its code), a file (re)pinned, a lockfile written or restored from git, or a run blocked. */
export type AuditEventKind = IntegrityCode | 'repin' | 'lock' | 'restore' | 'block';

/** What was decided about it: a finding seen (warn, or block under strict), cleared (gone since it was recorded), a
 * change approved. */
export type AuditDecision = 'warn' | 'block' | 'approve' | 'clear';

/** Who or what acted: the tool (cli, extension, runtime API), its version, and the OS user when known. */
export interface AuditActor {
  tool: string;
  version: string;
  user?: string;
}

/** A secret that keys the chain: `id` names it in each record (a digest of the secret, not the secret). */
export interface AuditKey {
  id: string;
  secret: Uint8Array;
}

/** The key of a secret: the secret and its id. */
export function auditKeyOf(secret: Uint8Array): AuditKey {
  return { id: toHex(hmacSha256(secret, 'agent-immune audit key id')).slice(0, 16), secret };
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

/** One line of the log. `hash` covers every other field, `prev` is the previous record's hash (null for the first);
 * `keyId` and `mac` (HMAC-SHA256 of the record without `hash` and `mac`) are there when it was written with a key. */
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
  keyId?: string;
  mac?: string;
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

/** The MAC of a record under a key: over its canonical JSON without `hash` and `mac`. */
export function recordMac(record: Omit<AuditRecord, 'hash' | 'mac'>, key: AuditKey): string {
  return 'hmac-sha256-' + toBase64(hmacSha256(key.secret, JSON.stringify(sortKeys(record))));
}

/** True when the record names `key` and carries the valid MAC under it. */
export function macValid(record: AuditRecord, key: AuditKey): boolean {
  if (record.keyId !== key.id || typeof record.mac !== 'string') return false;
  const unmaced = Object.fromEntries(Object.entries(record).filter(([field]) => field !== 'hash' && field !== 'mac')) as Omit<AuditRecord, 'hash' | 'mac'>;
  return recordMac(unmaced, key) === record.mac;
}

/** Chains events after `head` into records (decision then provenance per event), MACed when `key` is given; returns
 * the NDJSON text and the new head. */
export function buildAuditRecords(
  events: readonly AuditEvent[],
  actor: AuditActor,
  time: string,
  head: ChainHead | undefined,
  key?: AuditKey,
): { text: string; records: AuditRecord[]; head: ChainHead | undefined } {
  const records: AuditRecord[] = [];
  let seq = head?.seq ?? 0;
  let prev = head?.hash ?? null;
  const push = (body: Omit<AuditRecord, 'schema' | 'seq' | 'time' | 'prev' | 'hash'>) => {
    const unmaced = strip<Omit<AuditRecord, 'hash' | 'mac'>>({ schema: AUDIT_SCHEMA, seq: ++seq, time, ...body, ...(key ? { keyId: key.id } : {}), prev });
    const unhashed: Omit<AuditRecord, 'hash'> = key ? { ...unmaced, mac: recordMac(unmaced, key) } : unmaced;
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
export type ChainBreakReason = 'not-json' | 'duplicate-key' | 'bad-record' | 'hash-mismatch' | 'bad-mac' | 'chain-broken' | 'seq-gap' | 'partial-line';

/** The first broken record: its 1-based line and why. */
export interface ChainBreak {
  line: number;
  reason: ChainBreakReason;
  detail: string;
}

/** What a verified chain proves: `keyed` when a key was given and every record carries a valid MAC under it (no one
 * without the key wrote, edited or rewrote any record); `unkeyed` otherwise (order and no gap, not authorship). */
export type ChainGuarantee = 'keyed' | 'unkeyed';

/** How the accepted records stand with the key: MAC valid under it, no MAC, or a MAC that could not be checked (another
 * key, or no key given); `firstUnverified` is the line of the first record not verified under the key. */
export interface MacCounts {
  valid: number;
  missing: number;
  unchecked: number;
  firstUnverified: number | undefined;
}

/** The result of a verification. */
export interface ChainResult {
  records: number;
  head: ChainHead | undefined;
  broken: ChainBreak | undefined;
  guarantee: ChainGuarantee;
  macs: MacCounts;
}

/** Checks a log line by line (streaming); stops at the first break. With `key`, checks the MAC of every record that
 * names that key. */
export class AuditChainVerifier {
  private head: ChainHead | undefined;
  private count = 0;
  private broken: ChainBreak | undefined;
  private readonly macs: MacCounts = { valid: 0, missing: 0, unchecked: 0, firstUnverified: undefined };

  constructor(private readonly key?: AuditKey) {}

  /** Feeds one line; returns the break when this line breaks the chain. */
  push(text: string, line: number): ChainBreak | undefined {
    if (this.broken) return this.broken;
    const fail = (reason: ChainBreakReason, detail: string) => (this.broken = { line, reason, detail });
    const parsed = parseStrictJson(text);
    if (!parsed.ok) {
      if (parsed.error.reason === 'duplicate-key') return fail('duplicate-key', `the record has a ${parsed.error.detail} (readers would disagree on its value)`);
      return fail('not-json', 'the line is not JSON (edited or truncated)');
    }
    const raw = parsed.value;
    const record = raw as AuditRecord;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || record.schema !== AUDIT_SCHEMA || typeof record.hash !== 'string' || typeof record.seq !== 'number') {
      return fail('bad-record', `not an ${AUDIT_SCHEMA} record`);
    }
    if (!Number.isSafeInteger(record.seq) || record.seq < 1) return fail('bad-record', 'its seq is not a whole number from 1 to 2^53 - 1');
    if ((record.mac === undefined) !== (record.keyId === undefined) || (record.mac !== undefined && (typeof record.mac !== 'string' || typeof record.keyId !== 'string'))) {
      return fail('bad-record', `record ${record.seq} has a malformed keyId/mac pair`);
    }
    const { hash, ...unhashed } = record;
    if (recordDigest(unhashed) !== hash) return fail('hash-mismatch', `record ${record.seq} was edited after it was written`);
    if (record.prev !== (this.head?.hash ?? null)) return fail('chain-broken', `record ${record.seq} does not follow the record before it (a record was deleted or moved)`);
    if (record.seq !== (this.head?.seq ?? 0) + 1) return fail('seq-gap', `record ${record.seq} follows record ${this.head?.seq ?? 0}`);
    if (this.key && record.keyId === this.key.id) {
      if (!macValid(record, this.key)) return fail('bad-mac', `record ${record.seq} names key ${this.key.id} but its MAC is wrong (forged, or rewritten without the key)`);
      this.macs.valid++;
    } else {
      if (record.mac === undefined) this.macs.missing++;
      else this.macs.unchecked++;
      this.macs.firstUnverified ??= line;
    }
    this.head = { seq: record.seq, hash };
    this.count++;
    return undefined;
  }

  /** Marks the log as ending without a newline (a torn write or a cut file). */
  partialEnd(line: number): ChainBreak {
    this.broken ??= { line, reason: 'partial-line', detail: 'the last line has no newline (torn write or truncated file)' };
    return this.broken;
  }

  /** Records accepted, the head of the valid chain, the first break if any, and the guarantee the chain gives. */
  result(): ChainResult {
    const keyed = this.key !== undefined && this.count > 0 && this.macs.valid === this.count;
    return { records: this.count, head: this.head, broken: this.broken, guarantee: keyed ? 'keyed' : 'unkeyed', macs: { ...this.macs } };
  }
}

function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
