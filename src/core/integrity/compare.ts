// Compares the current digests of the pinned scope with the lockfile and returns sorted findings, in O(n log n) however
// many entries share a hash. Incremental: after a full comparison, updating one path costs O(1); listing the findings
// costs O(k log k) in their number.
import { blockingFindings } from './findings';
import { pinOf, skillFolderOf } from './lockfile';
import type { FileDigest, IntegrityFinding, IntegrityStatus, Lockfile } from './types';

/** What the comparison needs besides the lock: the lockfile's path (for entry mismatches) and the skill folders found
 * on disk (to name the new skill an unpinned file belongs to). */
export interface ComparisonContext {
  lockfile: string;
  skillDirs: ReadonlySet<string>;
}

/** A lockfile comparison that can be updated path by path (the editor re-verifies only what changed). */
export class LockComparison {
  private readonly drift = new Map<string, IntegrityFinding>();
  private readonly missing = new Map<string, string>();
  private readonly unpinned = new Map<string, FileDigest>();
  private readonly pinnedSkills: ReadonlySet<string>;

  /** Compares every path of `current` (each existing file in scope or pinned) and of the lock. */
  constructor(
    private readonly lock: Lockfile,
    current: ReadonlyMap<string, FileDigest>,
    private readonly context: ComparisonContext,
  ) {
    this.pinnedSkills = new Set(Object.keys(lock.skills));
    for (const path of Object.keys(lock.files)) if (!current.has(path)) this.update(path, undefined);
    for (const [path, digest] of current) this.update(path, digest);
  }

  /** Sets the current digest of one path (undefined: the file is gone or cannot be hashed). */
  update(path: string, digest: FileDigest | undefined): void {
    this.drift.delete(path);
    this.missing.delete(path);
    this.unpinned.delete(path);
    const entry = pinOf(this.lock.files, path);
    if (entry && !digest) this.missing.set(path, entry.integrity);
    else if (!entry && digest) this.unpinned.set(path, digest);
    if (!entry || !digest) return;
    // Only the line endings differ: the same text checked out with other settings (core.autocrlf), not a change.
    const content = digest.otherLineEndings?.integrity === entry.integrity ? digest.otherLineEndings : digest;
    if (entry.integrity !== content.integrity) this.drift.set(path, { code: 'drift', path, expected: entry.integrity, actual: digest.integrity, ...(digest.link !== undefined ? { link: digest.link } : {}) });
    else if (entry.size !== content.size || entry.gitBlob !== content.gitBlob) {
      const field = entry.size !== content.size ? `size ${entry.size}, the content has ${content.size} bytes` : `gitBlob ${entry.gitBlob}, the content's is ${content.gitBlob}`;
      this.drift.set(path, { code: 'corrupt-lockfile', path: this.context.lockfile, reason: 'entry-mismatch', detail: `entry "${path}" has the content's sha256 but ${field} (edited by hand?)`, entry: path });
    }
  }

  /** The findings, sorted. An unpinned file whose hash equals a missing entry's is reported once, as renamed; other
   * unpinned files are additions to a pinned skill (skill-file-added) or a new skill or prompt (unpinned-skill). */
  findings(): IntegrityFinding[] {
    const findings: IntegrityFinding[] = [...this.drift.values()];
    const missingByHash = new Map<string, { paths: string[]; taken: number }>();
    for (const [path, integrity] of [...this.missing].sort(byPath)) {
      const bucket = missingByHash.get(integrity);
      if (bucket) bucket.paths.push(path);
      else missingByHash.set(integrity, { paths: [path], taken: 0 });
    }
    for (const [path, digest] of [...this.unpinned].sort(byPath)) {
      const bucket = missingByHash.get(digest.integrity);
      if (bucket && bucket.taken < bucket.paths.length) findings.push({ code: 'renamed', path, from: bucket.paths[bucket.taken++], integrity: digest.integrity });
      else findings.push(this.unpinnedFinding(path, digest));
    }
    for (const [integrity, bucket] of missingByHash) {
      for (let i = bucket.taken; i < bucket.paths.length; i++) findings.push({ code: 'missing', path: bucket.paths[i], expected: integrity });
    }
    return sortFindings(findings);
  }

  private unpinnedFinding(path: string, { integrity: actual, link }: FileDigest): IntegrityFinding {
    const pinnedSkill = skillFolderOf(path, this.pinnedSkills);
    if (pinnedSkill !== undefined) return { code: 'skill-file-added', path, skill: pinnedSkill, actual };
    const skill = skillFolderOf(path, this.context.skillDirs);
    return { code: 'unpinned-skill', path, actual, ...(skill !== undefined ? { skill } : {}), ...(link !== undefined ? { link } : {}) };
  }
}

function byPath<T>(a: [string, T], b: [string, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** Findings for `current` (path -> digest of every existing file that is in scope or pinned) against `lock`. */
export function compareToLock(lock: Lockfile, current: ReadonlyMap<string, FileDigest>, context: ComparisonContext): IntegrityFinding[] {
  return new LockComparison(lock, current, context).findings();
}

/** Sorts findings by path, then code, so output is stable. */
export function sortFindings(findings: IntegrityFinding[]): IntegrityFinding[] {
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The overall status of a comparison: corrupt-lockfile beats drift; only advisory findings still count as clean. */
export function integrityStatus(findings: readonly IntegrityFinding[]): Exclude<IntegrityStatus, 'no-lockfile'> {
  if (findings.some((f) => f.code === 'corrupt-lockfile')) return 'corrupt-lockfile';
  return blockingFindings(findings).length > 0 ? 'drift' : 'clean';
}

/** What the CLI, the editor and the runtime API decide on a verify report, the same way: strict mode blocks when any
 * finding is blocking; `blocking` lists those findings (reported, and recorded as blocks, in every mode). */
export interface IntegrityVerdict {
  blocked: boolean;
  blocking: IntegrityFinding[];
}

/** The verdict on a report (its `strict` and `findings`). */
export function integrityVerdict(report: { strict: boolean; findings: readonly IntegrityFinding[] }): IntegrityVerdict {
  const blocking = blockingFindings(report.findings);
  return { blocked: report.strict && blocking.length > 0, blocking };
}
