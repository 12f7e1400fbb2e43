// The audit log on disk (.agent-immune/audit.ndjson): chained appends under a cross-process lock, each batch one
// O_APPEND write so no reader ever sees a partial record, through the workspace file layer (a log or folder the
// repository made a symlink is refused, never followed); a run's findings recorded once per change of state; and
// streaming chain verification, with the audit key when there is one.
import type { FileHandle } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { AUDIT_LOG, AUDIT_SCHEMA, AuditChainVerifier, buildAuditRecords, macValid, recordDigest, type AuditActor, type AuditEvent, type AuditKey, type AuditRecord, type ChainBreak, type ChainResult, type ChainHead } from '../../core/integrity/audit';
import { auditDelta, OpenFindings } from '../../core/integrity/auditState';
import { blockEvent } from '../../core/integrity/findings';
import type { IntegrityFinding } from '../../core/integrity/types';
import { errorMessage, InputError } from '../../core/errors';
import { readLines } from '../lines';
import { withFileLock } from './fileLock';
import { appendWorkspaceFile, classifyWorkspacePath, ensureWorkspaceDir, openWorkspaceFile } from '../workspaceFs';
import { version } from '../../../package.json';

/** The actor for records written by `tool` (cli, extension, runtime API) as the current OS user. */
export function auditActor(tool: string): AuditActor {
  let user: string | undefined;
  try {
    user = os.userInfo().username;
  } catch {
    user = undefined;
  }
  return { tool, version, ...(user ? { user } : {}) };
}

/** Who writes to the audit trail: the actor named in each record and, when one is set up, the key that MACs them. */
export interface AuditWriter {
  actor: AuditActor;
  key?: AuditKey;
}

/** The writer for records of `tool` (cli, extension, runtime API) as the current OS user, with `key` when given. */
export function auditWriter(tool: string, key?: AuditKey): AuditWriter {
  return { actor: auditActor(tool), ...(key ? { key } : {}) };
}

/** Opens the log for reading through the workspace file layer; undefined when there is none yet. */
async function openLog(rootReal: string, file: string): Promise<{ handle: FileHandle; size: number } | undefined> {
  const opened = await openWorkspaceFile(rootReal, file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return opened && { handle: opened.handle, size: opened.info.size };
}

/**
 * Reads the last complete record's seq and hash from the end of the log without reading the whole file, and whether the
 * log ends in the middle of a line (a writer killed mid-record, a full disk): the next record then starts on a line of
 * its own and goes on from the last record that can be read.
 */
async function readHead(rootReal: string, file: string): Promise<{ head?: ChainHead; partial: boolean }> {
  const opened = await openLog(rootReal, file);
  if (!opened) return { partial: false };
  const { handle, size } = opened;
  try {
    const lastByte = Buffer.alloc(1);
    if (size > 0) await handle.read(lastByte, 0, 1, size - 1);
    const partial = size > 0 && lastByte[0] !== 10;
    for (let span = 4096; ; span *= 4) {
      const start = Math.max(0, size - span);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      // Whole lines only (the first may be cut by the window unless it starts the file), newest first.
      const lines = buffer.toString('utf8').split('\n').slice(start > 0 ? 1 : 0).reverse();
      for (const line of lines) {
        if (line.trim() === '') continue;
        try {
          const record = JSON.parse(line) as AuditRecord;
          if (typeof record.seq === 'number' && typeof record.hash === 'string') return { head: { seq: record.seq, hash: record.hash }, partial };
        } catch {
          // A cut or broken line: the one before it may be a record.
        }
      }
      if (start === 0) return { partial };
    }
  } finally {
    await handle.close();
  }
}

/** The findings the log holds as open. With a key, only records MACed under it count: a record forged without the key
 * cannot stop a finding from being recorded. */
async function readOpenFindings(rootReal: string, file: string, key: AuditKey | undefined): Promise<{ open: ReadonlyMap<string, AuditEvent>; broken?: ChainBreak }> {
  const open = new OpenFindings();
  const opened = await openLog(rootReal, file);
  if (!opened) return { open: open.events() };
  // The chain is checked on the way (its first break is reported). A line that is not JSON is skipped: a writer killed
  // mid-record leaves one (cut inside a character, too: read leniently), and the next record goes on from the last
  // readable one, so the chain holds across it. Only audit records whose hash is their own content decide what is open.
  const chain = new AuditChainVerifier(key);
  let broken: ChainBreak | undefined;
  let lastLine = 0;
  try {
    for await (const [text, line] of readLines(file, undefined, opened.handle, true)) {
      lastLine = line;
      let record: AuditRecord;
      try {
        record = JSON.parse(text) as AuditRecord;
      } catch {
        continue;
      }
      broken ??= chain.push(text, line);
      if (isOwnRecord(record) && (!key || macValid(record, key))) open.push(record);
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    broken ??= { line: lastLine + 1, reason: 'not-json', detail: errorMessage(error) };
  } finally {
    await opened.handle.close();
  }
  return { open: open.events(), ...(broken ? { broken } : {}) };
}

/** An audit/v1 record whose hash is that of its own content (what a writer of this trail wrote, or someone rehashed). */
function isOwnRecord(record: unknown): record is AuditRecord {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  const { hash, ...unhashed } = record as AuditRecord;
  return (record as AuditRecord).schema === AUDIT_SCHEMA && typeof hash === 'string' && recordDigest(unhashed) === hash;
}

/** Where the log of `root` is, with its folder created. */
async function logFile(root: string): Promise<{ rootReal: string; file: string }> {
  const rootReal = await realpath(root);
  return { rootReal, file: path.resolve(rootReal, AUDIT_LOG) };
}

/** Appends events under the lock, continuing the chain from the log's last record. */
async function appendLocked(rootReal: string, file: string, events: () => Promise<readonly AuditEvent[]>, writer: AuditWriter): Promise<AuditRecord[]> {
  await ensureWorkspaceDir(rootReal, path.dirname(file));
  return withFileLock(file, async () => {
    const { head, partial } = await readHead(rootReal, file);
    const batch = await events();
    if (batch.length === 0) return [];
    const { text, records } = buildAuditRecords(batch, writer.actor, new Date().toISOString(), head, writer.key);
    await appendWorkspaceFile(rootReal, file, [Buffer.from(partial ? `\n${text}` : text, 'utf8')]);
    return records;
  });
}

/** Appends events (decision + provenance records each, MACed with the writer's key) to `<root>/.agent-immune/audit.ndjson`. */
export async function appendAuditEvents(root: string, events: readonly AuditEvent[], writer: AuditWriter): Promise<AuditRecord[]> {
  if (events.length === 0) return [];
  const { rootReal, file } = await logFile(root);
  return appendLocked(rootReal, file, async () => events, writer);
}

/** One run's findings to record: decided warn or block; `blockedBy` names what strict mode refused (then a block
 * event follows the findings). */
export interface IntegrityRun {
  findings: readonly IntegrityFinding[];
  decision: 'warn' | 'block';
  blockedBy?: string;
}

/**
 * Records a run in the audit trail once per change of state: the findings not open in the trail yet, a clear for each
 * open finding no longer found, and the block when strict mode refused the run. Writes nothing (and creates no log)
 * when nothing changed. `broken` names the first break in the trail's chain, if any (a torn line excepted).
 */
export async function recordIntegrityRun(root: string, run: IntegrityRun, writer: AuditWriter): Promise<{ records: AuditRecord[]; broken?: ChainBreak }> {
  const { rootReal, file } = await logFile(root);
  if (run.findings.length === 0 && !run.blockedBy && (await classifyWorkspacePath(rootReal, file)) === 'missing') return { records: [] };
  let broken: ChainBreak | undefined;
  const records = await appendLocked(
    rootReal,
    file,
    async () => {
      const read = await readOpenFindings(rootReal, file, writer.key);
      broken = read.broken;
      const events = auditDelta(read.open, run.findings, run.decision);
      if (run.blockedBy) events.push(blockEvent(run.findings, run.blockedBy));
      return events;
    },
    writer,
  );
  return { records, ...(broken ? { broken } : {}) };
}

/** The warning for a trail whose chain is broken (said at every run until the trail is repaired or moved away). */
export function brokenTrailWarning(broken: ChainBreak): string {
  return `the audit trail's chain is broken at line ${broken.line} (${broken.detail}); "agent-immune audit verify" shows it: move the trail away once it is reviewed`;
}

/** Result of checking a log's chain. */
export interface AuditVerifyResult extends ChainResult {
  file: string;
  exists: boolean;
}

/**
 * Verifies the hash chain of a log file, streaming, and with `key` the MAC of every record written with it; names the
 * first broken record. The file must be a regular file inside `root` (default: its own folder): a symlink out of it,
 * a FIFO or a device is refused, never read.
 */
export async function verifyAuditLog(file: string, root = path.dirname(file), key?: AuditKey): Promise<AuditVerifyResult> {
  const rootReal = await realpath(root).catch(() => path.resolve(root));
  const verifier = new AuditChainVerifier(key);
  const opened = await openLog(rootReal, file);
  if (!opened) return { file, exists: false, ...verifier.result() };
  const { handle, size } = opened;
  try {
    let lines = 0;
    try {
      for await (const [text, line] of readLines(file, undefined, handle)) {
        lines = line;
        if (verifier.push(text, line)) break;
      }
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      verifier.push('\u0000', error.line ?? lines + 1);
    }
    if (!verifier.result().broken && size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 10) verifier.partialEnd(lines);
    }
  } finally {
    await handle.close();
  }
  return { file, exists: true, ...verifier.result() };
}
