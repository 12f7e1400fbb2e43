// Writing pins: `agent-immune lock` (re)writes the whole lockfile; repinFile approves one file's change. Both hold
// the lockfile's cross-process lock and record what they approved in the audit trail.
import * as path from 'node:path';
import type { AuditActor, AuditEvent } from '../../core/integrity/audit';
import { LockfileStateError } from '../../core/integrity/errors';
import { buildLockfile, serializeLockfile, unsafeRelativePath } from '../../core/integrity/lockfile';
import type { IntegrityConfig } from '../../core/integrity/scope';
import { sriSha256 } from '../../core/integrity/sha256';
import type { FileDigest, Lockfile } from '../../core/integrity/types';
import { appendAuditEvents } from './auditLog';
import { hashFile, nodeSri } from './hashFile';
import { readLockfile, withLockfileLock, writeLockfile } from './lockfileIo';
import { openIntegrityWorkspace, scanWorkspace } from './scan';
import { classifyPath } from './walk';

/** What `lock` did. */
export interface LockResult {
  lockfile: string;
  files: number;
  skills: number;
  /** Previously pinned files whose pin changed or was dropped. */
  repinned: string[];
}

/** Pins the workspace's current scope into the lockfile; records re-pins and the write when `actor` is given. */
export async function lockWorkspace(root: string, actor: AuditActor | undefined, overrides: Partial<IntegrityConfig> = {}): Promise<LockResult> {
  const ws = await openIntegrityWorkspace(root, overrides);
  return withLockfileLock(ws.root, ws.config.lockfile, async () => {
    const previous = await readLockfile(ws.root, ws.config.lockfile);
    const scan = await scanWorkspace(ws, undefined, true);
    const lock = buildLockfile(scan.digests, scan.skillDirs, nodeSri);
    const lockfile = await writeLockfile(ws.root, ws.config.lockfile, lock);
    const events: AuditEvent[] = [];
    const repinned: string[] = [];
    if (previous.state === 'ok') {
      for (const [file, entry] of Object.entries(previous.lock.files)) {
        const now = lock.files[file];
        if (now?.integrity === entry.integrity) continue;
        repinned.push(file);
        events.push({ event: 'repin', decision: 'approve', path: file, old: entry.integrity, ...(now ? { new: now.integrity } : {}) });
      }
    }
    const replaced = previous.state === 'corrupt' ? `; replaced a corrupt lockfile (${previous.finding.reason})` : '';
    events.push({ event: 'lock', decision: 'approve', path: lockfile, new: sriSha256(serializeLockfile(lock)), detail: `${Object.keys(lock.files).length} files pinned in ${Object.keys(lock.skills).length} skill folders${replaced}` });
    if (actor) await appendAuditEvents(ws.root, events, actor);
    return { lockfile, files: Object.keys(lock.files).length, skills: Object.keys(lock.skills).length, repinned };
  });
}

/** What repinFile did: the file's old and new pin (undefined when it was unpinned / is now gone). */
export interface RepinResult {
  path: string;
  old: string | undefined;
  new: string | undefined;
}

/**
 * Re-pins one file (POSIX path relative to the root) to its current content, or drops its pin when it is gone, and
 * records the approval in the audit trail. Used by the "Approve change" quick fix and by hardening after it edits a
 * pinned prompt. Throws LockfileStateError when there is no valid lockfile.
 */
export async function repinFile(root: string, file: string, actor: AuditActor, overrides: Partial<IntegrityConfig> = {}): Promise<RepinResult> {
  const unsafe = unsafeRelativePath(file);
  if (unsafe) throw new LockfileStateError('unsafe-path', `cannot pin "${file}": ${unsafe}`);
  const ws = await openIntegrityWorkspace(root, overrides);
  return withLockfileLock(ws.root, ws.config.lockfile, async () => {
    const read = await readLockfile(ws.root, ws.config.lockfile);
    if (read.state === 'absent') throw new LockfileStateError('no-lockfile', `no lockfile at ${read.path}; run "agent-immune lock" first`);
    if (read.state === 'corrupt') throw new LockfileStateError('corrupt-lockfile', `${read.path} is corrupt (${read.finding.reason}); inspect it, then run "agent-immune lock"`);
    const abs = path.join(ws.root, file);
    const kind = await classifyPath(ws.root, abs);
    if (kind === 'outside') throw new LockfileStateError('unsafe-path', `"${file}" is a symlink outside the workspace; it cannot be pinned`);
    const old = read.lock.files[file]?.integrity;
    const next = nextLock(read.lock, file, kind === 'file' ? await hashFile(abs, true) : undefined, ws.matcher.isSkillMarker(file));
    await writeLockfile(ws.root, ws.config.lockfile, next);
    const now = next.files[file]?.integrity;
    await appendAuditEvents(ws.root, [{ event: 'repin', decision: 'approve', path: file, ...(old ? { old } : {}), ...(now ? { new: now } : {}) }], actor);
    return { path: file, old, new: now };
  });
}

/** The lockfile with one entry set (digest) or removed (undefined), skill folders and tree hashes updated. */
function nextLock(lock: Lockfile, file: string, digest: FileDigest | undefined, isMarker: boolean): Lockfile {
  const digests = new Map<string, FileDigest>(Object.entries(lock.files));
  const skillDirs = new Set(Object.keys(lock.skills));
  const slash = file.lastIndexOf('/');
  if (digest) {
    digests.set(file, digest);
    if (isMarker && slash > 0) skillDirs.add(file.slice(0, slash));
  } else {
    digests.delete(file);
    if (isMarker && slash > 0) skillDirs.delete(file.slice(0, slash));
  }
  for (const dir of skillDirs) if (![...digests.keys()].some((p) => p.startsWith(dir + '/'))) skillDirs.delete(dir);
  return buildLockfile(digests, skillDirs, nodeSri);
}
