// The "harden" section of agent-immune.config.json: which files hold prompts, which names mark a prompt in code,
// and the severity of each finding code. Validated here, merged over the defaults.
import { globMatcher, globsRefused } from '../globs';
import { ALWAYS_ON_PROMPT_GLOBS, PLUGIN_SUBAGENT_FOLDER, pluginFoldersAbove } from '../promptFiles';
import { regexRefused } from '../regexSafety';
import { errorMessage, InputError } from '../errors';
import { SEVERITIES, type Severity } from '../findings';
import { defaultHardenSeverities, HARDEN_CODES, isHardenCode } from './findings';
import type { HardenCode, PromptFileKind } from './types';

/** Prompt hardening settings. */
export interface HardenConfig {
  /** Globs (POSIX, relative to the scanned root) of files scanned for prompts. */
  include: string[];
  /** Globs of files and folders never scanned (tests and fixtures among them by default). */
  exclude: string[];
  /** Severity per finding code. */
  severity: Record<HardenCode, Severity>;
  /** Case-insensitive pattern of names that make a prose string a system prompt even where no sink is seen. */
  systemPromptNames: string;
}

/** Folders and files of tests and fixtures: their literals are asserted verbatim, so they are out of scope by default. */
export const TEST_GLOBS: readonly string[] = [
  '**/test/**', '**/tests/**', '**/__tests__/**', '**/test-utils/**', '**/test_utils/**', '**/test-helpers/**', '**/test_helpers/**', '**/__mocks__/**', '**/integration-tests/**', '**/integration_tests/**',
  '**/fixtures/**', '**/__fixtures__/**', '**/*.test.*', '**/*.test-d.ts', '**/*.spec.*', '**/*.spec-d.ts', '**/*.vitest.*',
  '**/test-utils.*', '**/test_utils.*', '**/test_*.py', '**/*_test.py', '**/conftest.py',
];

export const DEFAULT_HARDEN_CONFIG: Readonly<HardenConfig> = Object.freeze<HardenConfig>({
  include: [
    '**/SKILL.md', ...ALWAYS_ON_PROMPT_GLOBS, '**/skills/*/agents/*.md', '**/prompts/**/*.{md,txt,j2,jinja,jinja2}',
    '**/{system,system_prompt,system_message}.{j2,jinja,jinja2}',
    '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py}', '**/*.{yaml,yml}', '**/*.ipynb',
  ],
  exclude: [
    '**/node_modules/**', '**/.git/**', '**/dist/**', '**/out/**', '**/build/**', '**/.venv/**', '**/venv/**', '**/__pycache__/**', '**/*.d.ts', '**/*.min.js',
    '**/.github/workflows/**/*.{yml,yaml}', '**/.github/ISSUE_TEMPLATE/**', '**/prompts/**/{README,CHANGELOG,LICENSE,CONTRIBUTING}.md', '**/.ipynb_checkpoints/**',
    ...TEST_GLOBS,
  ],
  severity: defaultHardenSeverities(),
  systemPromptNames: '^(?:\\w*?system_?prompts?|\\w*?system_?messages?|\\w*?system_?instructions?|\\w+_instructions?|developer_?prompt|\\w*?_backstory)(?:_?template|_?text|_?base)?$',
});

function stringList(value: unknown, field: string, file?: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new InputError('invalid-config', `harden.${field} must be an array of non-empty glob strings`, file, undefined, `harden.${field}`);
  }
  const refused = globsRefused(value as string[]);
  if (refused) throw new InputError('invalid-config', `harden.${field}: ${refused}`, file, undefined, `harden.${field}`);
  return value as string[];
}

function pattern(value: unknown, field: string, file?: string): string {
  if (typeof value !== 'string') throw new InputError('invalid-config', `harden.${field} must be a regular expression (string)`, file, undefined, `harden.${field}`);
  try {
    new RegExp(value, 'i');
  } catch (error) {
    throw new InputError('invalid-config', `harden.${field}: ${errorMessage(error)}`, file, undefined, `harden.${field}`);
  }
  const refused = regexRefused(value);
  if (refused) throw new InputError('invalid-config', `harden.${field}: ${refused}`, file, undefined, `harden.${field}`);
  return value;
}

/** Validates the raw "harden" section and merges it over the defaults; throws InputError('invalid-config'). */
export function resolveHardenConfig(raw: unknown, file?: string): HardenConfig {
  const defaults = DEFAULT_HARDEN_CONFIG;
  const config: HardenConfig = { ...defaults, include: [...defaults.include], exclude: [...defaults.exclude], severity: { ...defaults.severity } };
  if (raw === undefined || raw === null) return config;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new InputError('invalid-config', '"harden" must be an object', file, undefined, 'harden');
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'include' || key === 'exclude') config[key] = stringList(value, key, file);
    else if (key === 'systemPromptNames') config[key] = pattern(value, key, file);
    else if (key === 'severity') config.severity = resolveSeverity(value, config.severity, file);
    else throw new InputError('invalid-config', `unknown setting harden.${key}; known: include, exclude, severity, systemPromptNames`, file, undefined, `harden.${key}`);
  }
  return config;
}

function resolveSeverity(value: unknown, base: Record<HardenCode, Severity>, file?: string): Record<HardenCode, Severity> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError('invalid-config', 'harden.severity must be an object of code -> severity', file, undefined, 'harden.severity');
  }
  const severity = { ...base };
  for (const [code, level] of Object.entries(value)) {
    if (!isHardenCode(code)) {
      throw new InputError('invalid-config', `unknown code harden.severity.${code}; known: ${HARDEN_CODES.join(', ')}`, file, undefined, `harden.severity.${code}`);
    }
    if (!SEVERITIES.includes(level as Severity)) {
      throw new InputError('invalid-config', `harden.severity.${code} must be one of ${SEVERITIES.join(', ')}`, file, undefined, `harden.severity.${code}`);
    }
    severity[code] = level as Severity;
  }
  return severity;
}

/** Plain-text prompt files, read as Markdown when the globs include them: `.txt` and Jinja templates. */
const PLAIN_TEXT_FILE = /\.(?:txt|j2|jinja2?)$/i;

/** A watcher's glob for the files `fileKindOf` and `PLAIN_TEXT_FILE` name (the editor re-reads them on change). */
export const PROMPT_FILE_WATCH_GLOB = '**/*.{md,mdc,markdown,ts,tsx,mts,cts,js,jsx,mjs,cjs,py,pyi,yaml,yml,ipynb,txt,j2,jinja,jinja2}';

/** The kind of prompt file a path is by its name: Markdown, TypeScript/JavaScript, Python, YAML or a notebook. */
export function fileKindOf(path: string): PromptFileKind | undefined {
  if (/\.(?:md|mdc|markdown)$/i.test(path)) return 'markdown';
  if (/\.(?:[cm]?[jt]sx?)$/i.test(path)) return 'typescript';
  if (/\.pyi?$/i.test(path)) return 'python';
  if (/\.ya?ml$/i.test(path)) return 'yaml';
  if (/\.ipynb$/i.test(path)) return 'notebook';
  return undefined;
}

/**
 * Decides from the include/exclude globs whether a POSIX relative path is scanned, and as which kind; the subagents of
 * the Claude Code plugins a walk found are scanned too (the exclude globs still apply).
 */
export class PromptFileMatcher {
  private readonly included: (path: string) => boolean;
  private readonly excluded: (path: string) => boolean;
  private readonly plugins = new Set<string>();

  constructor(config: Pick<HardenConfig, 'include' | 'exclude'>) {
    this.included = globMatcher(config.include);
    this.excluded = globMatcher(config.exclude);
  }

  /** True for a folder the walker must not enter (tested with a trailing `/x` so `dir/**` globs match). */
  skipsFolder(path: string): boolean {
    return this.excluded(path) || this.excluded(`${path}/x`);
  }

  /** Records a plugin folder (one holding a plugin manifest) the walk found: its subagents are prompt files from now on. */
  addPlugin(folder: string): void {
    this.plugins.add(folder);
  }

  /** Forgets the plugins recorded, before a new walk of the folder finds those still there. */
  forgetPlugins(): void {
    this.plugins.clear();
  }

  /** True for a file the exclude globs leave out. */
  excludes(path: string): boolean {
    return this.excluded(path);
  }

  /**
   * The kind to scan the file as, or undefined when it is not scanned (a plain-text file the globs include is a prompt
   * file: `.txt`, a Jinja template, or a name without an extension such as `.cursorrules`).
   */
  kindOf(path: string): PromptFileKind | undefined {
    if (this.excluded(path)) return undefined;
    if (!this.included(path)) return pluginFoldersAbove(path, [PLUGIN_SUBAGENT_FOLDER]).some((folder) => this.plugins.has(folder)) ? 'markdown' : undefined;
    const plainText = PLAIN_TEXT_FILE.test(path) || !/.\./.test(path.slice(path.lastIndexOf('/') + 1));
    return fileKindOf(path) ?? (plainText ? 'markdown' : undefined);
  }
}
