// Compares the current digests of the pinned scope with the lockfile and returns sorted findings.
import { BLOCKING_CODES, type FileDigest, type IntegrityFinding, type IntegrityStatus, type Lockfile } from './types';

/** Findings for `current` (path -> digest of every existing file that is in scope or pinned) against `lock`. */
export function compareToLock(lock: Lockfile, current: ReadonlyMap<string, FileDigest>): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const missing = new Map<string, string[]>();
  for (const [path, entry] of Object.entries(lock.files)) {
    const digest = current.get(path);
    if (!digest) {
      const list = missing.get(entry.integrity) ?? [];
      list.push(path);
      missing.set(entry.integrity, list);
    } else if (digest.integrity !== entry.integrity) {
      findings.push({ code: 'drift', path, expected: entry.integrity, actual: digest.integrity });
    }
  }
  const unpinned = [...current.keys()].filter((path) => !Object.prototype.hasOwnProperty.call(lock.files, path)).sort();
  for (const path of unpinned) {
    const integrity = current.get(path)!.integrity;
    const from = missing.get(integrity)?.sort().shift();
    if (from !== undefined) findings.push({ code: 'renamed', path, from, integrity });
    else findings.push({ code: 'unpinned', path, actual: integrity });
  }
  for (const [integrity, paths] of missing) for (const path of paths) findings.push({ code: 'missing', path, expected: integrity });
  return sortFindings(findings);
}

/** Sorts findings by path, then code, so output is stable. */
export function sortFindings(findings: IntegrityFinding[]): IntegrityFinding[] {
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The overall status: corrupt-lockfile beats drift; only advisory findings (unpinned) still count as clean. */
export function integrityStatus(findings: readonly IntegrityFinding[]): Exclude<IntegrityStatus, 'no-lockfile'> {
  if (findings.some((f) => f.code === 'corrupt-lockfile')) return 'corrupt-lockfile';
  return findings.some((f) => BLOCKING_CODES.has(f.code)) ? 'drift' : 'clean';
}

/** True when strict mode must block on these findings. */
export function blocksUnderStrict(findings: readonly IntegrityFinding[]): boolean {
  return findings.some((f) => BLOCKING_CODES.has(f.code));
}
