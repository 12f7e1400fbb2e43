// Scans the pinned scope of a workspace: walk, select (skill folders + prompt files + anything already pinned),
// hash with bounded concurrency, and report symlinks that leave the root.
import { readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { loadProjectConfig } from '../config';
import { inSkillFolder, resolveIntegrityConfig, ScopeMatcher, selectPinned, type IntegrityConfig } from '../../core/integrity/scope';
import type { FileDigest, IntegrityFinding, Lockfile } from '../../core/integrity/types';
import { hashFiles } from './hashFile';
import { classifyPath, walkWorkspace } from './walk';

/** A workspace root resolved for integrity work: its real path, config and scope matcher. */
export interface IntegrityWorkspace {
  root: string;
  config: IntegrityConfig;
  matcher: ScopeMatcher;
}

/** Resolves the root's real path and loads the `integrity` config section (overrides win) and root .gitignore (the walk
 * adds the nested ones). */
export async function openIntegrityWorkspace(root: string, overrides: Partial<IntegrityConfig> = {}): Promise<IntegrityWorkspace> {
  const rootReal = await realpath(root);
  const project = await loadProjectConfig(rootReal);
  const config = { ...resolveIntegrityConfig(project.sections.integrity, path.join(rootReal, 'agent-immune.config.json')), ...stripUndefined(overrides) };
  const gitignore = config.gitignore ? await readFile(path.join(rootReal, '.gitignore'), 'utf8').catch(() => '') : '';
  return { root: rootReal, config, matcher: new ScopeMatcher(config, gitignore) };
}

/** Result of a scan: digests of every existing file in scope or pinned, the skill folders, symlink findings. */
export interface ScanResult {
  digests: Map<string, FileDigest>;
  skillDirs: Set<string>;
  findings: IntegrityFinding[];
}

/** Scans the workspace; `lock` adds pinned paths outside the current scope; `withGitBlob` when pinning. */
export async function scanWorkspace(ws: IntegrityWorkspace, lock: Lockfile | undefined, withGitBlob: boolean): Promise<ScanResult> {
  const walked = await walkWorkspace(ws.root, ws.matcher, ws.config.gitignore);
  const lockFile = ws.config.lockfile.split(path.sep).join('/');
  const { pinned, skillDirs } = selectPinned(walked.files.filter((file) => file !== lockFile), ws.matcher);
  const seen = new Set(walked.files);
  const outside = new Set(walked.outside);
  const findings: IntegrityFinding[] = [];
  for (const file of walked.outside) {
    if (ws.matcher.isPrompt(file) || ws.matcher.isSkillMarker(file) || inSkillFolder(file, skillDirs) || lock?.files[file]) {
      findings.push({ code: 'symlink-outside-root', path: file });
    }
  }
  // Pinned files the walk did not list (now excluded, or inside a folder that is no longer a skill) are still checked.
  for (const file of Object.keys(lock?.files ?? {})) {
    if (pinned.has(file) || outside.has(file)) continue;
    if (seen.has(file)) {
      pinned.add(file);
      continue;
    }
    const kind = await classifyPath(ws.root, path.join(ws.root, file));
    if (kind === 'file') pinned.add(file);
    else if (kind === 'outside') findings.push({ code: 'symlink-outside-root', path: file });
  }
  const files = [...pinned].sort();
  const digests = await hashFiles(files.map((file) => path.join(ws.root, file)), withGitBlob);
  const map = new Map<string, FileDigest>();
  files.forEach((file, i) => {
    if (digests[i]) map.set(file, digests[i]);
  });
  return { digests: map, skillDirs, findings };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
