// Verifies a workspace against its lockfile (the CLI's verify, the runtime API and the extension share it), fully or
// incrementally after some files changed.
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { integrityStatus, LockComparison, sortFindings } from '../../core/integrity/compare';
import type { IntegrityConfig } from '../../core/integrity/scope';
import type { FileDigest, IntegrityFinding, IntegrityStatus, LockfileAdoption, Lockfile } from '../../core/integrity/types';
import { CONFIG_FILE_NAME } from '../../core/config';
import { pinOf, unsafeRelativePath } from '../../core/integrity/lockfile';
import { inSkillFolder } from '../../core/integrity/scope';
import { isPluginFile, pluginFolderOf } from '../../core/promptFiles';
import { isTrackedByGit } from './gitBlob';
import { hashFile, isDigest } from './hashFile';
import { readLockfile } from './lockfileIo';
import { openIntegrityWorkspace, scanWorkspace, type IntegrityWorkspace } from './scan';
import { classifyWorkspacePath } from '../workspaceFs';

/** Schema id of `verify --json` output. */
export const VERIFY_SCHEMA = 'agent-immune/verify/v1';

/** The verify report (`agent-immune verify --json`, docs/lockfile.md). */
export interface VerifyReport {
  schema: typeof VERIFY_SCHEMA;
  status: IntegrityStatus;
  strict: boolean;
  lockfile: string;
  findings: IntegrityFinding[];
}

/** Full state of one verify, kept by the extension for incremental re-verification. */
export interface VerifyState {
  ws: IntegrityWorkspace;
  report: VerifyReport;
  lock: Lockfile | undefined;
  digests: Map<string, FileDigest>;
  /** What the scan could not pin (symlink-outside-root, unpinnable), by path. */
  scanFindings: IntegrityFinding[];
  /** The incremental comparison (undefined without a valid lockfile). */
  comparison?: LockComparison;
  /** Skill folders, pinned or found on disk. */
  skillDirs: Set<string>;
  /** Plugin folders whose manifest the scope takes, found on disk. */
  plugins: Set<string>;
}

/** How verify was asked: `lockfileNamed` when the caller named the lockfile (`verify --lockfile`), so that its absence is a finding. */
export interface VerifyOptions {
  lockfileNamed?: boolean;
}

/** Verifies `root`; `overrides` replace config settings (e.g. strict, lockfile). */
export async function verifyWorkspace(root: string, overrides: Partial<IntegrityConfig> = {}, options: VerifyOptions = {}): Promise<VerifyState> {
  const ws = await openIntegrityWorkspace(root, overrides);
  return verifyOpened(ws, options);
}

/** How the project adopted its lockfile, so that its absence is a finding: git tracking the lockfile (then it can be
 * restored from git), `integrity.strict` in the project's own config, or the caller naming it; undefined for a project
 * that never adopted one. */
export async function lockfileAdoption(ws: IntegrityWorkspace, lockfile: string, named = false): Promise<LockfileAdoption | undefined> {
  if (await isTrackedByGit(ws.root, lockfile)) return 'git';
  if (ws.projectStrict) return 'config';
  return named ? 'named' : undefined;
}

/** The lockfile-missing finding for an absent lockfile the project adopted; none where it never adopted one. */
export async function missingLockfileFindings(ws: IntegrityWorkspace, lockfile: string, named = false): Promise<IntegrityFinding[]> {
  const adopted = await lockfileAdoption(ws, lockfile, named);
  return adopted ? [{ code: 'lockfile-missing', path: lockfile, adopted }] : [];
}

/** Verifies an already opened workspace. */
export async function verifyOpened(ws: IntegrityWorkspace, options: VerifyOptions = {}): Promise<VerifyState> {
  const read = await readLockfile(ws.root, ws.config.lockfile);
  const base = { schema: VERIFY_SCHEMA, strict: ws.config.strict, lockfile: read.path } as const;
  const empty = { ws, lock: undefined, digests: new Map(), scanFindings: [], skillDirs: new Set<string>(), plugins: new Set<string>() };
  if (read.state === 'absent') return { ...empty, report: { ...base, status: 'no-lockfile', findings: await missingLockfileFindings(ws, read.path, options.lockfileNamed) } };
  if (read.state === 'corrupt') return { ...empty, report: { ...base, status: 'corrupt-lockfile', findings: [read.finding] } };
  const scan = await scanWorkspace(ws, read.lock);
  const state: VerifyState = {
    ws,
    lock: read.lock,
    digests: scan.digests,
    scanFindings: scan.findings,
    comparison: new LockComparison(read.lock, scan.digests, { lockfile: read.path, skillDirs: scan.skillDirs }),
    skillDirs: new Set([...Object.keys(read.lock.skills), ...scan.skillDirs]),
    plugins: scan.plugins,
    report: { ...base, status: 'clean', findings: [] },
  };
  return recompare(state);
}

/** Recomputes the report from the state's comparison (after reverifyPaths updated some paths); a path the scan could
 * not pin is reported as such, not also as missing. */
function recompare(state: VerifyState): VerifyState {
  if (!state.comparison) return state;
  const unpinned = new Set(state.scanFindings.map((f) => f.path));
  const findings = sortFindings([...state.comparison.findings().filter((f) => !(f.code === 'missing' && unpinned.has(f.path))), ...state.scanFindings]);
  state.report = { ...state.report, status: integrityStatus(findings), findings };
  return state;
}

/** True when a change to `file` can change the scope (a skill marker, a plugin manifest) or the lockfile itself, so only a full verify is correct. */
export function needsFullVerify(ws: IntegrityWorkspace, file: string): boolean {
  return file === ws.config.lockfile || file === CONFIG_FILE_NAME || file === '.gitignore' || file.endsWith('/.gitignore') || ws.matcher.isSkillMarker(file) || pluginFolderOf(file) !== undefined;
}

/** True when `file` is in the pinned scope or pinned by the lockfile (others never change the findings). */
export function inScope(state: VerifyState, file: string): boolean {
  const { lock, ws, skillDirs, plugins, digests } = state;
  return Boolean(lock?.files[file]) || ws.matcher.isPrompt(file) || inSkillFolder(file, skillDirs) || isPluginFile(file, plugins) || digests.has(file);
}

/**
 * Re-verifies after some files changed: rehashes only those in scope and recompares (milliseconds); falls back to a
 * full verify when a change can move the scope (a skill marker, a plugin manifest, the lockfile, the config, any
 * .gitignore) or a changed path is no longer a plain file or a symlink (a FIFO, a folder: the walk decides how to report
 * it). Without a valid lockfile, other changes leave the result as it is.
 */
export async function reverifyPaths(state: VerifyState, files: Iterable<string>): Promise<VerifyState> {
  const changed = [...new Set(files)];
  const full = () => openIntegrityWorkspace(state.ws.root, { strict: state.ws.config.strict, lockfile: state.ws.config.lockfile }).then(verifyOpened);
  if (changed.some((file) => needsFullVerify(state.ws, file))) return full();
  // Without a valid lockfile only the lockfile, the config or the scope can change the result.
  if (!state.lock) return state;
  const walked = changed.filter((file) => !unsafeRelativePath(file) && !state.ws.matcher.isExcluded(file, false));
  const relevant = walked.filter((file) => inScope(state, file));
  // A new symlink outside the scope may be a folder linked in from outside the root (a skill?): the walk judges it.
  const isLink = (file: string) => lstat(path.join(state.ws.root, file)).then((info) => info.isSymbolicLink(), () => false);
  const links = await Promise.all(walked.filter((file) => !inScope(state, file)).map(isLink));
  if (links.includes(true)) return full();
  const kinds = await Promise.all(relevant.map((file) => classifyWorkspacePath(state.ws.root, path.join(state.ws.root, file))));
  // Not a plain file, or a link to nothing: the walk decides how to report it.
  if (kinds.includes('other') || (await Promise.all(relevant.filter((_, i) => kinds[i] === 'missing').map(isLink))).includes(true)) return full();
  const outcomes = await Promise.all(relevant.map((file, i) => (kinds[i] === 'file' ? hashFile(path.join(state.ws.root, file), pinOf(state.lock?.files, file)?.integrity) : undefined)));
  const touched = new Set(relevant);
  state.scanFindings = state.scanFindings.filter((f) => !touched.has(f.path));
  relevant.forEach((file, i) => {
    const outcome = outcomes[i];
    const digest = isDigest(outcome) ? outcome : undefined;
    if (digest) state.digests.set(file, digest);
    else state.digests.delete(file);
    state.comparison?.update(file, digest);
    if (kinds[i] === 'outside') state.scanFindings.push({ code: 'symlink-outside-root', path: file });
    else if (outcome && !isDigest(outcome)) state.scanFindings.push({ code: 'unpinnable', path: file, reason: outcome.reason, detail: outcome.detail });
  });
  return recompare(state);
}
