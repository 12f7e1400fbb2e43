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

/** What a scan learned about one current file: its hashes and size. */
export interface FileDigest {
  integrity: string;
  size: number;
  gitBlob: string;
  /** A link to a skill folder, pinned by its target path as git keeps a link: that target. */
  link?: string;
  /** The same text's hashes with its line endings the other way (CRLF / LF), which a pin made on a checkout with other
   * line-ending settings holds: only where the file's pin is not its own hash (files up to 1 MiB; never binary content). */
  otherLineEndings?: ContentDigest;
}

/** The hashes and size of one content. */
export type ContentDigest = Pick<FileDigest, 'integrity' | 'size' | 'gitBlob'>;

/** Stable finding codes (docs/lockfile.md), each described in findings.ts. */
export type IntegrityCode =
  | 'drift'
  | 'skill-file-added'
  | 'unpinned-skill'
  | 'missing'
  | 'renamed'
  | 'corrupt-lockfile'
  | 'lockfile-missing'
  | 'symlink-outside-root'
  | 'unpinnable';

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
  | 'tree-mismatch'
  | 'too-deep'
  | 'entry-mismatch';

/** Why a path in the pinned scope cannot be hashed: a FIFO, socket or device; a folder symlink (never followed); a
 * permission or I/O error; or content that kept changing while it was read. */
export type UnpinnableReason = 'not-a-file' | 'folder-symlink' | 'unreadable' | 'changing' | 'bad-name';

/** How a project adopted a lockfile, so its absence is a finding: `integrity.strict` in its config, git tracks it, or
 * the command names it (`verify --lockfile`, the check's `lockfile` option: CI that names it expects it). */
export type LockfileAdoption = 'config' | 'git' | 'named';

/** A finding: plain data, worded by its code's entry in findings.ts. `path` is POSIX relative to the root. */
export type IntegrityFinding =
  | { code: 'drift'; path: string; expected: string; actual: string; link?: string }
  | { code: 'skill-file-added'; path: string; skill: string; actual: string }
  | { code: 'unpinned-skill'; path: string; actual: string; skill?: string; link?: string }
  | { code: 'missing'; path: string; expected: string }
  | { code: 'renamed'; path: string; from: string; integrity: string }
  | { code: 'corrupt-lockfile'; path: string; reason: CorruptReason; detail: string; line?: number; entry?: string }
  | { code: 'lockfile-missing'; path: string; adopted: LockfileAdoption }
  | { code: 'symlink-outside-root'; path: string }
  | { code: 'unpinnable'; path: string; reason: UnpinnableReason; detail: string };

/** Overall result of a verify (`status` in agent-immune/verify/v1). */
export type IntegrityStatus = 'clean' | 'drift' | 'corrupt-lockfile' | 'no-lockfile';

