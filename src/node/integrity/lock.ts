// Writing pins: `agent-immune lock` (re)writes the whole lockfile; repinFile approves one file's change;
// restoreLockfile puts back a deleted lockfile from git. Each holds the lockfile's cross-process lock and records what
// it writes in the audit trail before writing it (what the trail cannot record is not written). Nothing in the pinned
// scope is ever left out silently: when a path cannot be pinned, `lock` writes nothing and returns the findings that
// say why; nor does it re-pin where an adopted lockfile is gone (unless told to pin anew), since that would trust what
// the deletion hid.
import * as path from 'node:path';
import type { AuditEvent } from '../../core/integrity/audit';
import { LockfileStateError } from '../../core/integrity/errors';
import { formatFinding } from '../../core/integrity/findings';
import { buildLockfile, parseLockfile, pinOf, serializeLockfile, unsafeRelativePath } from '../../core/integrity/lockfile';
import type { IntegrityConfig } from '../../core/integrity/scope';
import { sriSha256 } from '../../core/integrity/sha256';
import { DEFAULT_LOCKFILE, type FileDigest, type IntegrityFinding, type Lockfile } from '../../core/integrity/types';
import { appendAuditEvents, type AuditWriter } from './auditLog';
import { ignoredByGit, readTrackedFile } from './gitBlob';
import { hashFile, isDigest, nodeSri } from './hashFile';
import { MAX_LOCKFILE_BYTES, readLockfile, withLockfileLock, writeLockfile, writeLockfileText } from './lockfileIo';
import { openIntegrityWorkspace, scanWorkspace } from './scan';
import { lockfileAdoption, missingLockfileFindings } from './verify';
import { classifyPath } from './walk';

/** What `lock` did. */
export interface LockResult {
  lockfile: string;
  /** False when a path in the scope could not be pinned (see `findings`): the lockfile was left as it was. */
  written: boolean;
  files: number;
  skills: number;
  /** Of `files`, those inside a skill folder (the rest are always-on prompt files and the project config). */
  skillFiles: number;
  /** Previously pinned files whose pin changed or was dropped. */
  repinned: string[];
  /** Pinned files git ignores and does not track (a `__pycache__` in a skill folder): a clone will not have them. */
  ignoredByGit: string[];
  /** The lockfile itself is ignored by git and not tracked (a `*.lock` rule): it will not be committed, so clones have no pins. */
  lockfileIgnored: boolean;
  /** Skill markers at the root: pinned as files alone, so the files beside them are no skill folder's. */
  rootSkillMarkers: string[];
  /** What stopped the write: paths in the scope that cannot be pinned (symlink-outside-root, unpinnable), or the
   * adopted lockfile gone (lockfile-missing, unless pinned anew). */
  findings: IntegrityFinding[];
}

/** How to lock: `anew` pins even where the adopted lockfile is gone (`lock --anew`, the editor's Pin Anyway). */
export interface LockOptions {
  anew?: boolean;
}

/** Pins the workspace's current scope into the lockfile; records re-pins and the write when `writer` is given. */
export async function lockWorkspace(root: string, writer: AuditWriter | undefined, overrides: Partial<IntegrityConfig> = {}, options: LockOptions = {}): Promise<LockResult> {
  const ws = await openIntegrityWorkspace(root, overrides);
  return withLockfileLock(ws.root, ws.config.lockfile, async () => {
    const previous = await readLockfile(ws.root, ws.config.lockfile);
    const gone = previous.state === 'absent' && !options.anew ? await missingLockfileFindings(ws, previous.path) : [];
    const notWritten = (findings: IntegrityFinding[]): LockResult => ({
      lockfile: previous.path, written: false, files: 0, skills: 0, skillFiles: 0, repinned: [], ignoredByGit: [], lockfileIgnored: false, rootSkillMarkers: [], findings,
    });
    if (gone.length > 0) return notWritten(gone);
    // A broken lockfile at the default name is replaced (a merge left conflict markers); a file elsewhere that is no
    // lockfile may be another tool's (`yarn.lock`, `Cargo.lock`) that a repository's config named: never written over.
    if (previous.state === 'corrupt' && path.posix.normalize(ws.config.lockfile.replace(/\\/g, '/')) !== DEFAULT_LOCKFILE) {
      throw new LockfileStateError('corrupt-lockfile', `${ws.config.lockfile} is not an Agent Immune lockfile (${previous.finding.reason}); lock does not write over it: if it is a broken lockfile, remove it and lock again`);
    }
    const pins = previous.state === 'ok' ? previous.lock.files : {};
    const scan = await scanWorkspace(ws, undefined, pins);
    if (scan.findings.length > 0) return notWritten(scan.findings);
    const lock = buildLockfile(keepingEndingOnlyPins(scan.digests, pins), scan.skillDirs, nodeSri);
    const lockfile = previous.path;
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
    // Recorded before it is written: a re-pin the trail cannot record (its folder or log a file, a link, a folder) is not made.
    if (writer) await appendAuditEvents(ws.root, events, writer);
    await writeLockfile(ws.root, ws.config.lockfile, lock);
    const skillDirs = Object.keys(lock.skills);
    const skillFiles = Object.keys(lock.files).filter((file) => skillDirs.some((dir) => file.startsWith(`${dir}/`))).length;
    const ignored = await ignoredByGit(ws.root, Object.keys(lock.files));
    const lockfileIgnored = (await ignoredByGit(ws.root, [path.posix.normalize(ws.config.lockfile.replace(/\\/g, '/'))])).length > 0;
    const rootSkillMarkers = Object.keys(lock.files).filter((file) => !file.includes('/') && ws.matcher.isSkillMarker(file));
    const files = Object.keys(lock.files).length;
    return { lockfile, written: true, files, skills: skillDirs.length, skillFiles, repinned, ignoredByGit: ignored, lockfileIgnored, rootSkillMarkers, findings: [] };
  });
}

/** The digests to pin, where a file that matches its old pin but for its line endings keeps that pin (a lock on a CRLF
 * checkout of a project pinned with LF re-pins nothing). */
function keepingEndingOnlyPins(digests: ReadonlyMap<string, FileDigest>, pins: Lockfile['files']): Map<string, FileDigest> {
  return new Map(
    [...digests].map(([file, digest]) => {
      const pinned = pinOf(pins, file);
      return [file, pinned && pinned.integrity === digest.otherLineEndings?.integrity ? digest.otherLineEndings : digest];
    }),
  );
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
 * pinned prompt. Throws LockfileStateError when there is no valid lockfile or the file cannot be hashed, and (kind
 * `drifted`) when `expected` is given and the file's pin is none of those hashes: the content an edit started from was
 * not the pinned one.
 */
export async function repinFile(root: string, file: string, writer: AuditWriter, overrides: Partial<IntegrityConfig> = {}, expected?: readonly string[]): Promise<RepinResult> {
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
    const outcome = kind === 'file' ? await hashFile(abs) : undefined;
    if (outcome && !isDigest(outcome)) throw new LockfileStateError('unpinnable', formatFinding({ code: 'unpinnable', path: file, ...outcome }));
    const old = read.lock.files[file]?.integrity;
    if (expected !== undefined && (old === undefined || !expected.includes(old))) throw new LockfileStateError('drifted', `"${file}" no longer matched its pin before it was edited; review that change (agent-immune verify) before approving it`);
    const next = nextLock(read.lock, file, outcome, ws.matcher.isSkillMarker(file));
    const now = next.files[file]?.integrity;
    await appendAuditEvents(ws.root, [{ event: 'repin', decision: 'approve', path: file, ...(old ? { old } : {}), ...(now ? { new: now } : {}) }], writer);
    await writeLockfile(ws.root, ws.config.lockfile, next);
    return { path: file, old, new: now };
  });
}

/** What restoreLockfile did: the lockfile written, where git's copy came from, how many files it pins. */
export interface RestoreResult {
  lockfile: string;
  from: 'index' | 'HEAD';
  files: number;
}

/**
 * Puts back a deleted lockfile as git tracks it (the index's copy, else HEAD's), byte for byte, and records it in the
 * audit trail (when `writer` is given): the files are then verified against what was pinned, not trusted as they are
 * (as `lock` would). Throws LockfileStateError when a lockfile is there, git has no copy, or its copy is not valid.
 */
export async function restoreLockfile(root: string, writer: AuditWriter | undefined, overrides: Partial<IntegrityConfig> = {}): Promise<RestoreResult> {
  const ws = await openIntegrityWorkspace(root, overrides);
  return withLockfileLock(ws.root, ws.config.lockfile, async () => {
    const read = await readLockfile(ws.root, ws.config.lockfile);
    if (read.state === 'corrupt') throw new LockfileStateError('lockfile-present', `${read.path} is there but cannot be trusted (${read.finding.reason}); inspect it, or remove it to restore git's copy`);
    if (read.state === 'ok') throw new LockfileStateError('lockfile-present', `${read.path} is there; there is nothing to restore`);
    const tracked = await readTrackedFile(ws.root, read.path, MAX_LOCKFILE_BYTES);
    if (!tracked) throw new LockfileStateError('no-lockfile', `git has no copy of ${read.path} (in the index or HEAD); run "agent-immune lock${(await lockfileAdoption(ws, read.path)) ? ' --anew' : ''}" to pin the files as they are`);
    if ('failure' in tracked) throw new LockfileStateError('no-lockfile', `cannot read git's copy of ${read.path}: ${tracked.failure}`);
    const parsed = parseLockfile(tracked.content.toString('utf8'), read.path, nodeSri);
    if (!parsed.ok) throw new LockfileStateError('corrupt-lockfile', `git's copy of ${read.path} (${tracked.from}) is not a valid lockfile (${parsed.finding.reason}): ${parsed.finding.detail}`);
    const lockfile = read.path;
    const files = Object.keys(parsed.lock.files).length;
    if (writer) await appendAuditEvents(ws.root, [{ event: 'restore', decision: 'approve', path: lockfile, new: nodeSri(tracked.content), detail: `restored from git (${tracked.from}), ${files} files pinned` }], writer);
    await writeLockfileText(ws.root, ws.config.lockfile, tracked.content);
    return { lockfile, from: tracked.from, files };
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
  // A skill folder left without files is dropped (each file's ancestors listed once: linear in the entries).
  const dirsWithFiles = new Set<string>();
  for (const pinned of digests.keys()) {
    for (let i = pinned.lastIndexOf('/'); i > 0 && !dirsWithFiles.has(pinned.slice(0, i)); i = pinned.lastIndexOf('/', i - 1)) dirsWithFiles.add(pinned.slice(0, i));
  }
  for (const dir of skillDirs) if (!dirsWithFiles.has(dir)) skillDirs.delete(dir);
  return buildLockfile(digests, skillDirs, nodeSri);
}
