// Finds prompt files under the given paths, runs hardening over each, and (with write) saves the fixed text;
// reports which of the changed files are pinned in the integrity lockfile so they can be re-pinned.
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { findPrompts, fixAll, hardenText } from '../../core/harden/analyze';
import { fileKindOf, PromptFileMatcher, type HardenConfig } from '../../core/harden/config';
import type { HardenFinding, PromptFileKind } from '../../core/harden/types';
import type { AuditWriter } from '../integrity/auditLog';
import { repinFile, type RepinResult } from '../integrity/lock';
import { readLockfile } from '../integrity/lockfileIo';
import { openIntegrityWorkspace } from '../integrity/scan';
import { rewriteWorkspaceFile } from '../workspaceFs';

/** Files larger than this are skipped (generated bundles, data), never scanned. */
export const MAX_PROMPT_FILE_BYTES = 4 * 1024 * 1024;

/** One scanned file: its path (POSIX, relative to the root), kind, text, findings and, after write, what changed. */
export interface HardenedFile {
  path: string;
  kind: PromptFileKind;
  text: string;
  findings: HardenFinding[];
  /** Prompts found in the file (all roles). */
  prompts: number;
  /** Findings left after the fix (no safe edit, or overlapping edits); set only with write. */
  unfixed?: HardenFinding[];
  changed?: boolean;
}

const NEVER_DESCEND = new Set(['node_modules', '.git']);

function posix(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * The prompt files under `paths` (absolute): folders are walked with the include/exclude globs; a file named
 * explicitly is scanned whenever its extension is a prompt kind. Returns absolute paths, sorted.
 */
export async function listPromptFiles(root: string, paths: readonly string[], matcher: PromptFileMatcher): Promise<{ file: string; kind: PromptFileKind }[]> {
  const found = new Map<string, PromptFileKind>();
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      const rel = posix(root, abs);
      if (entry.isDirectory()) {
        if (!NEVER_DESCEND.has(entry.name) && !matcher.skipsFolder(rel)) await visit(abs);
      } else if (entry.isFile()) {
        const kind = matcher.kindOf(rel);
        if (kind) found.set(abs, kind);
      }
    }
  };
  for (const target of paths) {
    const info = await lstat(target);
    if (info.isDirectory()) await visit(target);
    else {
      const kind = fileKindOf(target);
      if (kind) found.set(target, kind);
    }
  }
  return [...found].sort(([a], [b]) => a.localeCompare(b)).map(([file, kind]) => ({ file, kind }));
}

/** Scans (and with `write`, fixes and saves) every prompt file under `paths`; paths in the result are relative to `root`. */
export async function hardenPaths(root: string, paths: readonly string[], config: HardenConfig, write: boolean): Promise<HardenedFile[]> {
  const files = await listPromptFiles(root, paths, new PromptFileMatcher(config));
  const results: HardenedFile[] = [];
  for (const { file, kind } of files) {
    if ((await lstat(file)).size > MAX_PROMPT_FILE_BYTES) continue;
    const text = await readFile(file, 'utf8');
    if (text.includes('\u0000')) continue;
    const rel = posix(root, file);
    const findings = hardenText(text, kind, rel, config);
    const result: HardenedFile = { path: rel, kind, text, findings, prompts: findPrompts(text, kind, rel, config).length };
    if (write && findings.length > 0) {
      const fixed = fixAll(text, findings).text;
      result.unfixed = hardenText(fixed, kind, rel, config);
      result.changed = fixed !== text;
      // The walk never enters a folder symlink; the write itself never follows a file symlink.
      if (result.changed) await rewriteWorkspaceFile(await realpath(path.dirname(file)), file, fixed);
    }
    results.push(result);
  }
  return results;
}

/** Which of `files` (POSIX, relative to root) are pinned in the integrity lockfile; `corrupt` when the lockfile cannot be read. */
export async function pinnedAmong(root: string, files: readonly string[]): Promise<{ pinned: string[]; lockfile: 'absent' | 'corrupt' | 'ok' }> {
  const ws = await openIntegrityWorkspace(root);
  const read = await readLockfile(ws.root, ws.config.lockfile);
  if (read.state !== 'ok') return { pinned: [], lockfile: read.state };
  return { pinned: files.filter((file) => Object.hasOwn(read.lock.files, file)), lockfile: 'ok' };
}

/** Re-pins hardened files to their new content, one audit record (event repin, decision approve) each. */
export async function repinHardened(root: string, files: readonly string[], writer: AuditWriter): Promise<RepinResult[]> {
  const results: RepinResult[] = [];
  for (const file of files) results.push(await repinFile(root, file, writer));
  return results;
}
