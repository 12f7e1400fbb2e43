// The audit log on disk (.agent-immune/audit.ndjson): chained appends under a cross-process lock, each batch one
// O_APPEND write so no reader ever sees a partial record, through the workspace file layer (a log or folder the
// repository made a symlink is refused, never followed); and streaming chain verification.
import { realpath, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { AUDIT_LOG, AuditChainVerifier, buildAuditRecords, type AuditActor, type AuditEvent, type AuditRecord, type ChainBreak, type ChainHead } from '../../core/integrity/audit';
import { InputError } from '../../core/errors';
import { readLines } from '../lines';
import { withFileLock } from './fileLock';
import { appendWorkspaceFile, classifyWorkspacePath, ensureWorkspaceDir, openWorkspaceFile, UnsafePathError } from '../workspaceFs';
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

/** Reads the last record's seq and hash from the end of the log without reading the whole file. */
async function readHead(rootReal: string, file: string): Promise<ChainHead | undefined> {
  const opened = await openWorkspaceFile(rootReal, file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!opened) return undefined;
  const { handle, info } = opened;
  try {
    const size = info.size;
    for (let span = 4096; ; span *= 4) {
      const start = Math.max(0, size - span);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      const text = buffer.toString('utf8').replace(/\n+$/, '');
      const newline = text.lastIndexOf('\n');
      if (newline === -1 && start > 0) continue;
      const last = text.slice(newline + 1);
      if (last === '') return undefined;
      try {
        const record = JSON.parse(last) as AuditRecord;
        return typeof record.seq === 'number' && typeof record.hash === 'string' ? { seq: record.seq, hash: record.hash } : undefined;
      } catch {
        return undefined;
      }
    }
  } finally {
    await handle.close();
  }
}

/** Appends events (decision + provenance records each) to `<root>/.agent-immune/audit.ndjson`; returns the records. */
export async function appendAuditEvents(root: string, events: readonly AuditEvent[], actor: AuditActor, logPath = AUDIT_LOG): Promise<AuditRecord[]> {
  if (events.length === 0) return [];
  const rootReal = await realpath(root);
  const file = path.resolve(rootReal, logPath);
  await ensureWorkspaceDir(rootReal, path.dirname(file));
  return withFileLock(file, async () => {
    const head = await readHead(rootReal, file);
    const { text, records } = buildAuditRecords(events, actor, new Date().toISOString(), head);
    await appendWorkspaceFile(rootReal, file, [Buffer.from(text, 'utf8')]);
    return records;
  });
}

/** Result of checking a log's chain. */
export interface AuditVerifyResult {
  file: string;
  exists: boolean;
  records: number;
  head: ChainHead | undefined;
  broken: ChainBreak | undefined;
}

/**
 * Verifies the hash chain of a log file, streaming; names the first broken record. The file must be a regular file
 * inside `root` (default: its own folder): a symlink out of it, a FIFO or a device is refused, never read.
 */
export async function verifyAuditLog(file: string, root = path.dirname(file)): Promise<AuditVerifyResult> {
  const rootReal = await realpath(root).catch(() => path.resolve(root));
  const kind = await classifyWorkspacePath(rootReal, file);
  if (kind === 'missing') return { file, exists: false, records: 0, head: undefined, broken: undefined };
  if (kind !== 'file') throw new UnsafePathError(file, kind === 'outside' ? 'outside-root' : 'not-a-file');
  const info = await stat(file);
  const verifier = new AuditChainVerifier();
  let lines = 0;
  try {
    for await (const [text, line] of readLines(file)) {
      lines = line;
      if (verifier.push(text, line)) break;
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    verifier.push('\u0000', error.line ?? lines + 1);
  }
  if (!verifier.result().broken && info.size > 0) {
    const { handle } = await openWorkspaceFile(rootReal, file);
    try {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, info.size - 1);
      if (last[0] !== 10) verifier.partialEnd(lines);
    } finally {
      await handle.close();
    }
  }
  return { file, exists: true, ...verifier.result() };
}
