// Scans the pinned scope of a workspace: walk, select (skill folders + prompt files + anything already pinned), hash
// with bounded concurrency, and report what cannot be pinned: symlinks that leave the root, FIFOs, sockets, devices,
// folder symlinks, unreadable files and folders, files that kept changing while read.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { configWarnings } from '../../core/config';
import { loadProjectConfig } from '../config';
import { inSkillFolder, lockfilePathProblem, resolveIntegrityConfig, ScopeMatcher, selectPinned, type IntegrityConfig } from '../../core/integrity/scope';
import { InputError } from '../../core/errors';
import { pinOf, unsafeRelativePath } from '../../core/integrity/lockfile';
import { isPluginFile } from '../../core/promptFiles';
import type { FileDigest, IntegrityFinding, Lockfile } from '../../core/integrity/types';
import { hashFiles, hashLink, isDigest } from './hashFile';
import { classifyWorkspacePath } from '../workspaceFs';
import { readGitignore, walkWorkspace, type WalkedUnpinnable } from './walk';

/** A workspace root resolved for integrity work: its real path, config and scope matcher. */
export interface IntegrityWorkspace {
  root: string;
  config: IntegrityConfig;
  /** `integrity.strict` as the project's own config sets it (before command-line or editor overrides). */
  projectStrict: boolean;
  matcher: ScopeMatcher;
  /** What the project config holds that cannot be meant (configWarnings: a glob that never matches). */
  configWarnings: string[];
}

/** Resolves the root's real path and loads the `integrity` config section (overrides win) and root .gitignore (the walk
 * adds the nested ones). */
export async function openIntegrityWorkspace(root: string, overrides: Partial<IntegrityConfig> = {}): Promise<IntegrityWorkspace> {
  // A lockfile named by a caller (the editor's agentImmune.integrity.lockfile, a committed .vscode/settings.json) obeys
  // the config's rule: `.git/index.lock` or a CLAUDE.md was created there.
  const problem = overrides.lockfile === undefined ? undefined : lockfilePathProblem(overrides.lockfile);
  if (problem) throw new InputError('invalid-config', `the lockfile setting: ${problem}`, undefined, undefined, 'lockfile');
  const rootReal = await realpath(root);
  const project = await loadProjectConfig(rootReal);
  const own = resolveIntegrityConfig(project.sections.integrity, path.join(rootReal, 'agent-immune.config.json'));
  const config = { ...own, ...stripUndefined(overrides) };
  const gitignore = config.gitignore ? await readGitignore(rootReal, path.join(rootReal, '.gitignore')) : '';
  return { root: rootReal, config, projectStrict: own.strict, matcher: new ScopeMatcher(config, gitignore), configWarnings: configWarnings(project) };
}

/** Result of a scan: digests of every existing file in scope or pinned, the skill and plugin folders, and the findings
 * of what could not be pinned (symlink-outside-root, unpinnable). */
export interface ScanResult {
  digests: Map<string, FileDigest>;
  skillDirs: Set<string>;
  plugins: Set<string>;
  findings: IntegrityFinding[];
}

/** Scans the workspace; `lock` adds pinned paths outside the current scope and its skill folders to the scope; `pins`
 * (the lock's by default) are the hashes each file is pinned to, against which a line-ending-only change is told. */
export async function scanWorkspace(ws: IntegrityWorkspace, lock: Lockfile | undefined, pins: Lockfile['files'] = lock?.files ?? {}): Promise<ScanResult> {
  const walked = await walkWorkspace(ws.root, ws.matcher, ws.config.gitignore);
  const lockFile = ws.config.lockfile.split(path.sep).join('/');
  const { pinned, skillDirs, plugins } = selectPinned(walked.files.filter((file) => file !== lockFile), ws.matcher);
  const scopeDirs = new Set([...skillDirs, ...Object.keys(lock?.skills ?? {})]);
  // A skill folder the lockfile pins stays one without its marker: renaming SKILL.md hid every file added beside it.
  for (const file of walked.files) if (file !== lockFile && !pinned.has(file) && inSkillFolder(file, scopeDirs)) pinned.add(file);
  const pinnedFiles = Object.keys(lock?.files ?? {});
  const inScope = (file: string) =>
    ws.matcher.isPrompt(file) || ws.matcher.isSkillMarker(file) || inSkillFolder(file, scopeDirs) || isPluginFile(file, plugins) || Boolean(lock?.files[file]);
  const seen = new Set(walked.files);
  const outside = new Set(walked.outside);
  const findings: IntegrityFinding[] = [];
  // A folder link out of the root is reported wherever it is: what it holds (a skill?) cannot be known without reading it.
  for (const file of walked.outside) if (inScope(file) || walked.outsideFolders.has(file)) findings.push({ code: 'symlink-outside-root', path: file });
  // A link to a skill folder the scope pins whole (`.claude/skills/x -> ../../.agents/skills/x`, a skill shared by two
  // agents) is pinned as git keeps a link, by its target path: what it leads to is pinned where it is.
  const links = walked.unpinnable.filter((entry) => entry.reason === 'folder-symlink' && entry.target !== undefined && (scopeDirs.has(entry.target) || inSkillFolder(entry.target, scopeDirs)));
  const linkPaths = new Set(links.map((entry) => entry.path));
  for (const entry of walked.unpinnable) {
    if (linkPaths.has(entry.path)) continue;
    if (entry.isDir ? dirInScope(entry, scopeDirs, plugins, pinnedFiles) : inScope(entry.path)) findings.push({ code: 'unpinnable', path: entry.path, reason: entry.reason, detail: entry.detail });
  }
  const reported = new Set(findings.map((f) => f.path));
  // Pinned files the walk did not list (now excluded, or inside a folder that is no longer a skill) are still checked.
  for (const file of pinnedFiles) {
    if (pinned.has(file) || outside.has(file) || reported.has(file) || linkPaths.has(file)) continue;
    if (seen.has(file)) {
      pinned.add(file);
      continue;
    }
    const kind = await classifyWorkspacePath(ws.root, path.join(ws.root, file));
    if (kind === 'file') pinned.add(file);
    else if (kind === 'outside') findings.push({ code: 'symlink-outside-root', path: file });
    else if (kind === 'other') findings.push({ code: 'unpinnable', path: file, reason: 'not-a-file', detail: 'it is not a regular file' });
  }
  // A name no lockfile entry can hold (a backslash, a control character: legal on POSIX) is reported, not pinned: the
  // lockfile reader would refuse the entry, and every later verify would fail on it.
  for (const file of pinned) {
    const unsafe = unsafeRelativePath(file);
    if (!unsafe) continue;
    pinned.delete(file);
    findings.push({ code: 'unpinnable', path: file, reason: 'bad-name', detail: `no lockfile entry can hold its name: ${unsafe}` });
  }
  const files = [...pinned].filter((file) => !linkPaths.has(file)).sort();
  const outcomes = await hashFiles(
    files.map((file) => path.join(ws.root, file)),
    files.map((file) => pinOf(pins, file)?.integrity),
  );
  const linkOutcomes = await Promise.all(links.map((link) => hashLink(path.join(ws.root, link.path))));
  const digests = new Map<string, FileDigest>();
  [...files, ...links.map((link) => link.path)].forEach((file, i) => {
    const outcome = i < files.length ? outcomes[i] : linkOutcomes[i - files.length];
    if (isDigest(outcome)) digests.set(file, i < files.length ? outcome : { ...outcome, link: links[i - files.length].target });
    else if (outcome) findings.push({ code: 'unpinnable', path: file, reason: outcome.reason, detail: outcome.detail });
  });
  return { digests, skillDirs, plugins, findings };
}

/** True when a folder the walk could not enter is in the scope: any unreadable folder, a skill folder or inside one, a
 * plugin's prompt folder or inside one, a folder symlink to a skill or prompt, or a folder holding pinned files. */
function dirInScope(entry: WalkedUnpinnable, scopeDirs: ReadonlySet<string>, plugins: ReadonlySet<string>, pinnedFiles: readonly string[]): boolean {
  // A folder that cannot be read is in scope wherever it is, like a folder link out of the root: whether it holds a
  // skill (a SKILL.md behind chmod 000) cannot be known without reading it.
  if (entry.reason === 'unreadable' || entry.markers || scopeDirs.has(entry.path) || inSkillFolder(entry.path, scopeDirs)) return true;
  // Whatever a linked `agents/` or `commands/` of a plugin holds would be loaded as the plugin's prompts.
  if (isPluginFile(`${entry.path}/_.md`, plugins)) return true;
  const prefix = entry.path + '/';
  return pinnedFiles.some((file) => file.startsWith(prefix));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
