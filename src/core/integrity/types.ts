// Data of the skill-integrity check: the lockfile model, file digests and findings (docs/lockfile.md is the contract).

/** Schema version written in every lockfile (`lockfileVersion`). */
export const LOCKFILE_VERSION = 1;

/** Default lockfile name at the workspace root. */
export const DEFAULT_LOCKFILE = 'agent-immune.lock';

/** One pinned file: SRI sha256, git blob id (sha1 of "blob <size>\0" + content) and size in bytes. */
export interface LockEntry {
  integrity: string;
  gitBlob: string;
  size: number;
}

/** One skill folder (a folder holding SKILL.md): tree hash over its files. */
export interface SkillEntry {
  tree: string;
}

/** The parsed lockfile: paths are POSIX, relative to the workspace root. */
export interface Lockfile {
  lockfileVersion: typeof LOCKFILE_VERSION;
  files: Record<string, LockEntry>;
  skills: Record<string, SkillEntry>;
}

/** What a scan learned about one current file; gitBlob is only computed when pinning. */
export interface FileDigest {
  integrity: string;
  size: number;
  gitBlob?: string;
}

/** Stable finding codes (docs/lockfile.md), each described in findings.ts. */
export type IntegrityCode = 'drift' | 'unpinned' | 'missing' | 'renamed' | 'corrupt-lockfile' | 'symlink-outside-root';

/** Why a lockfile is corrupt. */
export type CorruptReason =
  | 'unreadable'
  | 'outside-root'
  | 'truncated'
  | 'not-json'
  | 'duplicate-key'
  | 'wrong-version'
  | 'bad-schema'
  | 'escapes-root'
  | 'bad-hash'
  | 'tree-mismatch';

/** A finding: plain data, worded by its code's entry in findings.ts. `path` is POSIX relative to the root. */
export type IntegrityFinding =
  | { code: 'drift'; path: string; expected: string; actual: string }
  | { code: 'unpinned'; path: string; actual: string }
  | { code: 'missing'; path: string; expected: string }
  | { code: 'renamed'; path: string; from: string; integrity: string }
  | { code: 'corrupt-lockfile'; path: string; reason: CorruptReason; detail: string; line?: number; entry?: string }
  | { code: 'symlink-outside-root'; path: string };

/** Overall result of a verify (`status` in agent-immune/verify/v1). */
export type IntegrityStatus = 'clean' | 'drift' | 'corrupt-lockfile' | 'no-lockfile';

