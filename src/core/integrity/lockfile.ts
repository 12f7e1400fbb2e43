// The lockfile (agent-immune.lock): build it from digests, serialize it deterministically, and parse it failing
// closed — any doubt about its content becomes a corrupt-lockfile finding, never "clean".
import { parseStrictJson } from './strictJson';
import { sriSha256, sriToHex } from './sha256';
import { LOCKFILE_VERSION, type CorruptReason, type FileDigest, type IntegrityFinding, type LockEntry, type Lockfile } from './types';

const GIT_BLOB = /^[0-9a-f]{40}$/;

/** `sha256-` + the canonical base64 of 32 bytes: 43 characters and `=`, the last character's 2 spare bits zero (so a
 * digest has exactly one spelling). */
const SRI = /^sha256-[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

function isSri(value: unknown): value is string {
  return typeof value === 'string' && SRI.test(value);
}

/** An empty path-keyed record without a prototype: a path "__proto__" or "constructor" is an ordinary own key. */
function pathRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Why a relative path cannot be an entry (absolute, `..`, backslash, drive letter, control characters), else undefined. */
export function unsafeRelativePath(path: string): string | undefined {
  if (path === '') return 'empty path';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive-letter path';
  if (path.includes('\\')) return 'backslash in path (paths are POSIX)';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control character in path';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'path escapes the root or is not normalised';
  return undefined;
}

/** The lockfile's entry for `path` (own entries only: a path named `__proto__` or `constructor` is no entry). */
export function pinOf(files: Lockfile['files'] | undefined, path: string): LockEntry | undefined {
  return files && Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
}

/** The skill folder a file belongs to: its nearest ancestor folder that holds a SKILL.md (the root never counts). */
export function skillFolderOf(path: string, skillDirs: ReadonlySet<string>): string | undefined {
  let slash = path.lastIndexOf('/');
  while (slash > 0) {
    const dir = path.slice(0, slash);
    if (skillDirs.has(dir)) return dir;
    slash = dir.lastIndexOf('/');
  }
  return undefined;
}

/** SRI sha256 of UTF-8 text; the pure one by default, node:crypto's when src/node injects it (faster). */
export type SriHasher = (text: string) => string;

/** Tree hash of a skill folder: SRI sha256 over sorted `<hex>  <path-in-folder>\n` lines (`\` and newlines escaped). */
export function treeHash(dir: string, files: Iterable<[string, string]>, hash: SriHasher = sriSha256): string {
  const lines: string[] = [];
  for (const [path, integrity] of files) {
    const relative = path.slice(dir.length + 1).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    lines.push(`${sriToHex(integrity) ?? integrity}  ${relative}\n`);
  }
  lines.sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : a.slice(66) > b.slice(66) ? 1 : 0));
  return hash(lines.join(''));
}

/** Tree hashes of every skill folder from file entries (path -> integrity). */
export function skillTrees(files: Iterable<[string, string]>, skillDirs: ReadonlySet<string>, hash: SriHasher = sriSha256): Record<string, string> {
  const byDir = new Map<string, [string, string][]>();
  for (const [path, integrity] of files) {
    const dir = skillFolderOf(path, skillDirs);
    if (dir === undefined) continue;
    const list = byDir.get(dir) ?? [];
    list.push([path, integrity]);
    byDir.set(dir, list);
  }
  const out = pathRecord<string>();
  for (const dir of [...skillDirs].sort()) out[dir] = treeHash(dir, byDir.get(dir) ?? [], hash);
  return out;
}

/** Builds the lockfile model from the pinned files' digests (each with its gitBlob) and the skill folders. */
export function buildLockfile(digests: ReadonlyMap<string, FileDigest>, skillDirs: ReadonlySet<string>, hash: SriHasher = sriSha256): Lockfile {
  const files = pathRecord<LockEntry>();
  for (const path of [...digests.keys()].sort()) {
    const digest = digests.get(path)!;
    files[path] = { gitBlob: digest.gitBlob, integrity: digest.integrity, size: digest.size };
  }
  const trees = skillTrees(Object.entries(files).map(([path, entry]) => [path, entry.integrity]), skillDirs, hash);
  const skills: Lockfile['skills'] = pathRecord();
  for (const [dir, tree] of Object.entries(trees)) skills[dir] = { tree };
  return { lockfileVersion: LOCKFILE_VERSION, files, skills };
}

/** Deterministic text: sorted keys, two-space indent, trailing newline, no timestamps. */
export function serializeLockfile(lock: Lockfile): string {
  return JSON.stringify(sortKeys(lock), null, 2) + '\n';
}

/** Deep copy of a JSON value with object keys in code-unit order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out = pathRecord<unknown>();
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** Result of parsing: the lockfile, or the corrupt-lockfile finding that explains why it cannot be trusted. */
export type ParsedLockfile = { ok: true; lock: Lockfile } | { ok: false; finding: Extract<IntegrityFinding, { code: 'corrupt-lockfile' }> };

/** Parses and validates lockfile text; `lockPath` names the lockfile in the finding. Never throws. */
export function parseLockfile(text: string, lockPath: string, hash: SriHasher = sriSha256): ParsedLockfile {
  const corrupt = (reason: CorruptReason, detail: string, extra: { line?: number; entry?: string } = {}): ParsedLockfile => ({
    ok: false,
    finding: { code: 'corrupt-lockfile', path: lockPath, reason, detail, ...extra },
  });
  if (text.trim() === '') return corrupt('truncated', 'the lockfile is empty');
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return corrupt(parsed.error.reason, parsed.error.detail, { line: parsed.error.line });
  const raw = parsed.value;
  if (!isObject(raw)) return corrupt('bad-schema', 'the lockfile must be a JSON object');
  if (raw.lockfileVersion !== LOCKFILE_VERSION) {
    return corrupt('wrong-version', `lockfileVersion must be ${LOCKFILE_VERSION}, found ${JSON.stringify(raw.lockfileVersion) ?? 'none'}`);
  }
  const unknownKey = Object.keys(raw).find((key) => !['lockfileVersion', 'files', 'skills'].includes(key));
  if (unknownKey !== undefined) return corrupt('bad-schema', `unknown top-level key "${unknownKey}"`);
  if (!isObject(raw.files) || !isObject(raw.skills)) return corrupt('bad-schema', '"files" and "skills" must be objects');
  const files = pathRecord<LockEntry>();
  for (const [path, entry] of Object.entries(raw.files)) {
    const unsafe = unsafeRelativePath(path);
    if (unsafe) return corrupt('escapes-root', `entry "${path}": ${unsafe}`, { entry: path });
    if (!isObject(entry) || Object.keys(entry).some((key) => !['integrity', 'gitBlob', 'size'].includes(key))) {
      return corrupt('bad-schema', `entry "${path}" must hold exactly integrity, gitBlob and size`, { entry: path });
    }
    if (!isSri(entry.integrity)) {
      return corrupt('bad-hash', `entry "${path}": integrity must be sha256-<canonical base64 of 32 bytes>`, { entry: path });
    }
    if (typeof entry.gitBlob !== 'string' || !GIT_BLOB.test(entry.gitBlob)) {
      return corrupt('bad-hash', `entry "${path}": gitBlob must be 40 lower-case hex digits`, { entry: path });
    }
    if (typeof entry.size !== 'number' || !Number.isSafeInteger(entry.size) || entry.size < 0) {
      return corrupt('bad-schema', `entry "${path}": size must be a non-negative integer`, { entry: path });
    }
    files[path] = { integrity: entry.integrity, gitBlob: entry.gitBlob, size: entry.size };
  }
  const dirsWithFiles = new Set<string>();
  for (const path of Object.keys(files)) {
    for (let slash = path.lastIndexOf('/'); slash > 0 && !dirsWithFiles.has(path.slice(0, slash)); slash = path.lastIndexOf('/', slash - 1)) {
      dirsWithFiles.add(path.slice(0, slash));
    }
  }
  const skills: Lockfile['skills'] = pathRecord();
  for (const [dir, entry] of Object.entries(raw.skills)) {
    const unsafe = unsafeRelativePath(dir);
    if (unsafe) return corrupt('escapes-root', `skill "${dir}": ${unsafe}`, { entry: dir });
    if (!isObject(entry) || !isSri(entry.tree) || Object.keys(entry).length !== 1) {
      return corrupt('bad-hash', `skill "${dir}": tree must be sha256-<canonical base64 of 32 bytes>`, { entry: dir });
    }
    if (!dirsWithFiles.has(dir)) return corrupt('bad-schema', `skill "${dir}" has no file entries`, { entry: dir });
    skills[dir] = { tree: entry.tree };
  }
  const trees = skillTrees(Object.entries(files).map(([path, entry]) => [path, entry.integrity]), new Set(Object.keys(skills)), hash);
  for (const [dir, tree] of Object.entries(trees)) {
    if (skills[dir].tree !== tree) return corrupt('tree-mismatch', `skill "${dir}": tree hash does not match its file entries (edited by hand?)`, { entry: dir });
  }
  return { ok: true, lock: { lockfileVersion: LOCKFILE_VERSION, files, skills } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
