// Compares the current digests of the pinned scope with the lockfile and returns sorted findings. Incremental:
// after a full comparison, updating one path costs O(1) plus O(k log k) in the number of findings.
import { isBlocking } from './findings';
import type { FileDigest, IntegrityFinding, IntegrityStatus, Lockfile } from './types';

/** A lockfile comparison that can be updated path by path (the editor re-verifies only what changed). */
export class LockComparison {
  private readonly drift = new Map<string, IntegrityFinding>();
  private readonly missing = new Map<string, string>();
  private readonly unpinned = new Map<string, string>();

  /** Compares every path of `current` (each existing file in scope or pinned) and of the lock. */
  constructor(
    private readonly lock: Lockfile,
    current: ReadonlyMap<string, FileDigest>,
  ) {
    for (const path of Object.keys(lock.files)) if (!current.has(path)) this.update(path, undefined);
    for (const [path, digest] of current) this.update(path, digest);
  }

  /** Sets the current digest of one path (undefined: the file is gone or not readable). */
  update(path: string, digest: FileDigest | undefined): void {
    this.drift.delete(path);
    this.missing.delete(path);
    this.unpinned.delete(path);
    const entry = Object.prototype.hasOwnProperty.call(this.lock.files, path) ? this.lock.files[path] : undefined;
    if (entry && !digest) this.missing.set(path, entry.integrity);
    else if (!entry && digest) this.unpinned.set(path, digest.integrity);
    else if (entry && digest && entry.integrity !== digest.integrity) this.drift.set(path, { code: 'drift', path, expected: entry.integrity, actual: digest.integrity });
  }

  /** The findings, sorted; an unpinned file whose hash equals a missing entry's is reported once, as renamed. */
  findings(): IntegrityFinding[] {
    const findings: IntegrityFinding[] = [...this.drift.values()];
    const missingByHash = new Map<string, string[]>();
    for (const [path, integrity] of [...this.missing].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      missingByHash.set(integrity, [...(missingByHash.get(integrity) ?? []), path]);
    }
    for (const [path, integrity] of [...this.unpinned].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const from = missingByHash.get(integrity)?.shift();
      findings.push(from === undefined ? { code: 'unpinned', path, actual: integrity } : { code: 'renamed', path, from, integrity });
    }
    for (const [integrity, paths] of missingByHash) for (const path of paths) findings.push({ code: 'missing', path, expected: integrity });
    return sortFindings(findings);
  }
}

/** Findings for `current` (path -> digest of every existing file that is in scope or pinned) against `lock`. */
export function compareToLock(lock: Lockfile, current: ReadonlyMap<string, FileDigest>): IntegrityFinding[] {
  return new LockComparison(lock, current).findings();
}

/** Sorts findings by path, then code, so output is stable. */
export function sortFindings(findings: IntegrityFinding[]): IntegrityFinding[] {
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The overall status: corrupt-lockfile beats drift; only advisory findings (non-blocking codes) still count as clean. */
export function integrityStatus(findings: readonly IntegrityFinding[]): Exclude<IntegrityStatus, 'no-lockfile'> {
  if (findings.some((f) => f.code === 'corrupt-lockfile')) return 'corrupt-lockfile';
  return findings.some(isBlocking) ? 'drift' : 'clean';
}

/** True when strict mode must block on these findings. */
export function blocksUnderStrict(findings: readonly IntegrityFinding[]): boolean {
  return findings.some(isBlocking);
}
