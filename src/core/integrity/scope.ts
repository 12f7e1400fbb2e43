// What is pinned: the integrity section of agent-immune.config.json (globs, excludes, lockfile path, strict) and the
// matcher that picks skill folders and always-on prompt files out of a workspace's file list.
import ignore, { type Ignore } from 'ignore';
import { CONFIG_FILE_NAME } from '../config';
import { InputError } from '../errors';
import { globMatcher, globsRefused, globTooComplex } from '../globs';
import { AGENT_CONFIG_GLOBS, ALWAYS_ON_PROMPT_GLOBS, isPluginFile, pluginFolderOf, pluginFoldersOf } from '../promptFiles';
import { DEFAULT_LOCKFILE } from './types';

/** The `integrity` section of the project config. */
export interface IntegrityConfig {
  /** Lockfile path relative to the root (a project may use its own name, e.g. agenthood.lock). */
  lockfile: string;
  /** Globs of skill marker files; each marks its folder (and everything under it) as a skill. */
  skills: string[];
  /** Globs of always-on prompt files pinned on their own. */
  prompts: string[];
  /** .gitignore-style patterns never pinned nor walked. */
  exclude: string[];
  /** Also honour the workspace's .gitignore files (the root's and those in the folders walked). */
  gitignore: boolean;
  /** Drift blocks (exit 1, thrown error, refused run). */
  strict: boolean;
}

/** Defaults: skill folders anywhere plus the always-on prompt files. */
export const DEFAULT_INTEGRITY_CONFIG: Readonly<IntegrityConfig> = Object.freeze({
  lockfile: DEFAULT_LOCKFILE,
  skills: ['**/SKILL.md'],
  prompts: [...ALWAYS_ON_PROMPT_GLOBS, ...AGENT_CONFIG_GLOBS],
  exclude: [],
  gitignore: true,
  strict: false,
});

/** Folders agents load skills, commands, prompts, rules or steering from, at any depth (a path with slashes around it). */
const LOADED_FOLDERS =
  /\/(?:\.(?:claude|agents|codex|gemini|github|cursor)\/skills|\.claude\/(?:commands|agents|output-styles)|\.github\/(?:prompts|instructions|agents|chatmodes)|\.(?:cursor|roo|windsurf|amazonq|kilocode|continue|augment|trae)\/rules|\.kiro\/steering|\.continue\/(?:prompts|agents|checks)|\.clinerules|\.opencode\/(?:agents?|commands?)|\.(?:cursor|gemini|qwen|augment)\/commands|\.(?:windsurf|kilocode)\/workflows)\//;

/** The tool's own folder at the root (audit trail, alert log, live recordings): never walked nor pinned. */
const TOOL_FOLDER = '.agent-immune';

/** Folders agents load skills and prompts from: a .gitignore does not hide what is under them (agents read it anyway). */
const AGENT_FOLDERS: ReadonlySet<string> = new Set([
  '.claude', '.agents', '.codex', '.cursor', '.gemini', '.github', 'skills',
  '.amazonq', '.kilocode', '.continue', '.augment', '.trae', '.opencode', '.windsurf', '.qwen', '.junie', '.roo', '.kiro', '.clinerules',
]);

/**
 * Why a lockfile path (relative to the root) cannot be one, or undefined: a repository's config chose where `lock`
 * writes, and `.git/config`, the config itself, a README or a SKILL.md were overwritten. A lockfile's name ends in
 * `.lock`, and it lies in no `.git` or `.agent-immune` folder (where the audit trail and its own lock live).
 */
export function lockfilePathProblem(lockfile: string): string | undefined {
  const parts = lockfile.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (parts.some((part) => /^\.(?:git|agent-immune)$/i.test(part))) return `${JSON.stringify(lockfile)} is inside a .git or .agent-immune folder; keep the lockfile elsewhere in the project`;
  if (!/\.lock$/i.test(parts.at(-1) ?? '')) return `${JSON.stringify(lockfile)} does not end in .lock; a lockfile is named NAME.lock (default ${DEFAULT_LOCKFILE}): rename the file and this setting together`;
  return undefined;
}

/** Validates the raw `integrity` config section over the defaults; throws InputError('invalid-config'). */
export function resolveIntegrityConfig(raw: unknown, file?: string): IntegrityConfig {
  const config: IntegrityConfig = { ...DEFAULT_INTEGRITY_CONFIG, skills: [...DEFAULT_INTEGRITY_CONFIG.skills], prompts: [...DEFAULT_INTEGRITY_CONFIG.prompts], exclude: [] };
  if (raw === undefined) return config;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError('invalid-config', '"integrity" must be an object', file, undefined, 'integrity');
  for (const [key, value] of Object.entries(raw)) {
    const field = `integrity.${key}`;
    if (key === 'lockfile') {
      if (typeof value !== 'string' || value.trim() === '') throw new InputError('invalid-config', `${field} must be a non-empty path`, file, undefined, field);
      const problem = lockfilePathProblem(value);
      if (problem) throw new InputError('invalid-config', `${field}: ${problem}`, file, undefined, field);
      config.lockfile = value;
    } else if (key === 'skills' || key === 'prompts' || key === 'exclude') {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new InputError('invalid-config', `${field} must be an array of globs`, file, undefined, field);
      const refused = globsRefused(value as string[]);
      if (refused) throw new InputError('invalid-config', `${field}: ${refused}`, file, undefined, field);
      config[key] = value as string[];
    } else if (key === 'gitignore' || key === 'strict') {
      if (typeof value !== 'boolean') throw new InputError('invalid-config', `${field} must be true or false`, file, undefined, field);
      config[key] = value;
    } else {
      throw new InputError('invalid-config', `unknown setting ${field}; known: lockfile, skills, prompts, exclude, gitignore, strict`, file, undefined, field);
    }
  }
  return config;
}

/** Decides, per POSIX relative path, whether it is walked, a skill marker or a prompt file. */
export class ScopeMatcher {
  /** Never walked nor pinned, whatever a .gitignore says: the config's `exclude` and the tool folders. */
  private readonly forced: Ignore;
  /** The .gitignore files honoured, by the folder holding them ('' for the root); a folder's parents come first. */
  private readonly gitignores = new Map<string, Ignore>();
  private readonly skill: (path: string) => boolean;
  private readonly prompt: (path: string) => boolean;
  /** Skill folders the walk found: a .gitignore hides nothing inside them. */
  private readonly skillFolders = new Set<string>();

  /** `gitignoreText` is the root .gitignore's content when the config honours it. */
  constructor(config: Pick<IntegrityConfig, 'skills' | 'prompts' | 'exclude' | 'lockfile'>, gitignoreText = '') {
    this.forced = ignore({ allowRelativePaths: true }).add(config.exclude);
    if (gitignoreText) this.addGitignore('', gitignoreText);
    // Compiled once to plain regular expressions: testing 10,000 paths stays in the low milliseconds.
    this.skill = globMatcher(config.skills);
    this.prompt = globMatcher(config.prompts);
  }

  /** Honours the .gitignore in folder `dir` from now on (the walk adds each as it enters the folder, parents first; a
   * second walk replaces a folder's rules in place). */
  addGitignore(dir: string, text: string): void {
    // A line with more wildcards than can be matched in bounded time (a repository's .gitignore is its author's) is
    // not honoured: the files it would hide are walked and pinned.
    const lines = text.split(/\r?\n/).filter((line) => !globTooComplex(line));
    this.gitignores.set(dir, ignore({ allowRelativePaths: true }).add(lines));
  }

  /** Marks a folder the walk found holding a skill marker: nothing inside it is hidden by a .gitignore from now on. */
  addSkillFolder(dir: string): void {
    this.skillFolders.add(dir);
  }

  /**
   * True when the walker must skip this file or folder (folders are tested with `isDir`): never-entered folders and
   * the config's excludes; and what a .gitignore hides, except what agents load whatever git says (a prompt file, a
   * skill marker, anything in an agents' folder or a skill folder the walk found).
   */
  isExcluded(path: string, isDir: boolean): boolean {
    if (this.isForcedOut(path, isDir)) return true;
    if (!this.isGitignored(path, isDir)) return false;
    // A file a plugin would load (its manifest decides whether it is pinned) is listed too.
    if (!isDir && (this.isPrompt(path) || this.isSkillMarker(path) || pluginFoldersOf(path).length > 0)) return false;
    const segments = path.split('/');
    if (segments.some((segment) => AGENT_FOLDERS.has(segment))) return false;
    return !inSkillFolder(path, this.skillFolders) && !this.skillFolders.has(path);
  }

  /**
   * True for a path no .gitignore can bring back: the config's excludes, git's folders, the root's `.agent-immune` (the
   * tool's own), and what is under a `node_modules` folder, unless it is inside a folder agents load from
   * (LOADED_FOLDERS) or a skill folder (the skill's scripts load it). Only the root's tool folder is skipped: a
   * `.agent-immune` or `node_modules` a repository puts in `.claude/skills/` held a whole new skill that verify never saw.
   */
  isForcedOut(path: string, isDir: boolean): boolean {
    if (this.forced.ignores(isDir ? path + '/' : path)) return true;
    const segments = path.split('/');
    // A `.git` folder at any depth (a `.git` file, a submodule's pointer, is pinned like any other).
    const gitFolder = segments.findIndex((segment) => segment === '.git');
    if ((segments[0] === TOOL_FOLDER && (isDir || segments.length > 1)) || (gitFolder >= 0 && (isDir || gitFolder < segments.length - 1))) return true;
    const modules = segments.indexOf('node_modules');
    if (modules < 0) return false;
    // In a folder agents load skills or rules from (`.claude/skills`, `.cursor/rules`, `.kiro/steering`, the root's
    // `skills/`): walked. A JavaScript action's or a hook's dependencies elsewhere in `.github` or `.claude` (whose
    // packages ship SKILL.md files of their own) and a package named `skills` keep theirs out.
    const above = segments.slice(0, modules);
    if (above[0] === 'skills' || LOADED_FOLDERS.test(`/${above.join('/')}/`)) return false;
    const owner = above.join('/');
    return !(owner !== '' && (this.skillFolders.has(owner) || inSkillFolder(owner, this.skillFolders)));
  }

  /** True when the .gitignore files honoured hide this path. */
  private isGitignored(path: string, isDir: boolean): boolean {
    const candidate = isDir ? path + '/' : path;
    // Git's precedence: the deepest .gitignore with a matching line decides (its `!` lines can re-include), and
    // within one file the last matching line.
    let excluded = false;
    for (const [dir, rules] of this.gitignores) {
      if (dir !== '' && !candidate.startsWith(`${dir}/`)) continue;
      const verdict = rules.test(dir === '' ? candidate : candidate.slice(dir.length + 1));
      if (verdict.ignored) excluded = true;
      else if (verdict.unignored) excluded = false;
    }
    return excluded;
  }

  /** True for a skill marker file (its folder becomes a skill folder); a marker at the root pins only itself. */
  isSkillMarker(path: string): boolean {
    return this.skill(path);
  }

  /** True for a file pinned on its own: an always-on prompt file, or the project config (it decides what is pinned). */
  isPrompt(path: string): boolean {
    return this.prompt(path) || (this.skill(path) && !path.includes('/')) || path === CONFIG_FILE_NAME;
  }
}

/**
 * Picks the pinned files, skill folders and plugin folders out of the workspace's (non-excluded) file paths: a plugin's
 * prompts and hooks are pinned with its manifest when the scope takes that.
 */
export function selectPinned(paths: Iterable<string>, matcher: ScopeMatcher): { pinned: Set<string>; skillDirs: Set<string>; plugins: Set<string> } {
  const all = [...paths];
  const skillDirs = new Set<string>();
  const plugins = new Set<string>();
  for (const path of all) {
    const slash = path.lastIndexOf('/');
    if (slash > 0 && matcher.isSkillMarker(path)) skillDirs.add(path.slice(0, slash));
    const plugin = pluginFolderOf(path);
    if (plugin !== undefined && matcher.isPrompt(path)) plugins.add(plugin);
  }
  const pinned = new Set<string>();
  for (const path of all) if (matcher.isPrompt(path) || inSkillFolder(path, skillDirs) || isPluginFile(path, plugins)) pinned.add(path);
  return { pinned, skillDirs, plugins };
}

/** True when some ancestor folder of `path` is a skill folder. */
export function inSkillFolder(path: string, skillDirs: ReadonlySet<string>): boolean {
  if (skillDirs.size === 0) return false;
  let slash = path.lastIndexOf('/');
  while (slash > 0) {
    if (skillDirs.has(path.slice(0, slash))) return true;
    slash = path.lastIndexOf('/', slash - 1);
  }
  return false;
}
