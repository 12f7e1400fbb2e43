// The "monitor" section of agent-immune.config.json: which signals run, their thresholds, the vocabulary and the
// globs of files agents persist to. Validated here; a bad threshold is clamped, never allowed to disable a signal.
import { InputError } from '../errors';
import { globsRefused } from '../globs';
import { ALWAYS_ON_PROMPT_GLOBS, PLUGIN_MANIFEST, SLASH_COMMAND_GLOBS } from '../promptFiles';
import { SIGNALS, type SignalName } from './types';
import { compileVocabulary, DEFAULT_VOCABULARY, type MarkerSpec, type Vocabulary } from './vocabulary';

/** The monitor's settings, as written in the config file (all optional there). */
export interface MonitorSettings {
  /** Signals that run; all four by default (additive, default on). */
  signals: Record<SignalName, boolean>;
  /** viralPersona fires when the weights of the distinct markers within one window add up to this; clamped to [1, total weight]. */
  viralPersonaMarkers: number;
  /** Width of the window, in characters, the distinct markers must fall in. */
  viralPersonaWindow: number;
  /** Of those markers, at least this many must be themes (not ambient technical words); clamped to the themes available. */
  viralPersonaMinThemes: number;
  /** The marker vocabulary; replaces the default when given. */
  vocabulary: MarkerSpec[];
  /** Markers added to the vocabulary (default or configured). */
  extraMarkers: MarkerSpec[];
  /** propagation fires when one marker recurs in this many distinct sessions/agents that each reach viralPersona. */
  propagationSessions: number;
  /** The window those sessions must fall in: rounds for traces, seconds (file times) for persisted files. */
  propagationWindowRounds: number;
  propagationWindowSeconds: number;
  /** verbatimSpread: shortest shared span in word tokens, and fewest agents along the chain. */
  verbatimMinTokens: number;
  verbatimMinAgents: number;
  /** One alert per (signal, subject) within this many seconds. */
  cooldownSeconds: number;
  /** Files agents persist to, scanned by `scan` and the editor. */
  globs: string[];
  /** Trace files inside a scanned directory. */
  traceGlobs: string[];
  /** Paths never scanned. */
  ignore: string[];
}

/** The resolved monitor config: settings plus the compiled vocabulary and the effective (clamped) threshold. */
export interface MonitorConfig extends MonitorSettings {
  compiled: Vocabulary;
  /** viralPersonaMarkers after clamping to [1, vocabulary size]. */
  threshold: number;
  /** viralPersonaMinThemes after clamping to [0, number of non-ambient markers]. */
  minThemes: number;
}

/** Files agents persist to or load every session: skills, souls, memories and the always-on prompt files. */
export const DEFAULT_PERSISTED_GLOBS: readonly string[] = Object.freeze([
  '**/SKILL.md',
  '**/SOUL.md',
  ...ALWAYS_ON_PROMPT_GLOBS,
  '**/MEMORY.md',
  '**/memory.md',
  '**/*.soul.md',
  '**/*.memory.md',
  '**/memory/**/*.{md,txt,json,jsonl,yaml,yml}',
  '**/memories/**/*.{md,txt,json,jsonl,yaml,yml}',
  // Cline's and Roo's memory bank, read at the start of every task.
  '**/memory-bank/**/*.md',
  // The rest of an OpenClaw-style workspace, loaded into every session beside SOUL.md and MEMORY.md.
  '**/IDENTITY.md',
  '**/USER.md',
  '**/TOOLS.md',
  '**/HEARTBEAT.md',
  '**/BOOTSTRAP.md',
  ...SLASH_COMMAND_GLOBS,
  // A Claude Code plugin's manifest: with it, the Markdown of the plugin's commands/ and agents/ folders is read.
  `**/${PLUGIN_MANIFEST}`,
  '**/.bashrc',
  '**/.zshrc',
]);

/**
 * The text a skill loads on demand besides its SKILL.md (references, examples, templates): read with the skill, so a
 * file under a folder holding a SKILL.md the globs take is read when its name matches SKILL_TEXT (SKILL_TEXT_GLOB).
 */
const SKILL_TEXT_EXTENSIONS = ['md', 'mdx', 'mdc', 'markdown', 'txt', 'rst'];
export const SKILL_TEXT = new RegExp(`\\.(?:${SKILL_TEXT_EXTENSIONS.join('|')})$`, 'i');
export const SKILL_TEXT_GLOB = `**/*.{${SKILL_TEXT_EXTENSIONS.join(',')}}`;

/** The file name that makes a folder a skill (as agents look for it: exactly `SKILL.md`). */
export const SKILL_FILE = /^SKILL\.md$/;

/** The defaults (all signals on). */
export function defaultMonitorSettings(): MonitorSettings {
  return {
    signals: { viralPersona: true, propagation: true, propagationRequest: true, verbatimSpread: true },
    viralPersonaMarkers: 4,
    viralPersonaWindow: 1000,
    viralPersonaMinThemes: 1,
    vocabulary: DEFAULT_VOCABULARY.map((m) => ({ ...m, forms: [...m.forms] })),
    extraMarkers: [],
    propagationSessions: 3,
    propagationWindowRounds: 4,
    propagationWindowSeconds: 7 * 24 * 3600,
    verbatimMinTokens: 12,
    verbatimMinAgents: 3,
    cooldownSeconds: 3600,
    globs: [...DEFAULT_PERSISTED_GLOBS],
    traceGlobs: ['**/*.trace.jsonl', '**/traces/**/*.jsonl'],
    ignore: ['**/node_modules/**', '**/.git/**', '**/.agent-immune/**', '**/dist/**'],
  };
}

/** The threshold actually used: the configured one, to the nearest half, clamped to [1, the vocabulary's total weight]. */
export function clampThreshold(markers: number, totalWeight: number): number {
  return Math.max(1, Math.min(Math.round(markers * 2) / 2, Math.max(1, totalWeight)));
}

/** Adds the compiled vocabulary and the clamped threshold to settings. */
export function compileMonitorConfig(settings: MonitorSettings): MonitorConfig {
  const specs = [...settings.vocabulary, ...settings.extraMarkers];
  const compiled = compileVocabulary(specs);
  const themes = compiled.ambient.filter((a) => !a).length;
  const threshold = clampThreshold(settings.viralPersonaMarkers, compiled.weight.reduce((sum, w) => sum + w, 0));
  return { ...settings, compiled, threshold, minThemes: Math.max(0, Math.min(Math.round(settings.viralPersonaMinThemes), themes, threshold)) };
}

/** The defaults, compiled. */
export function defaultMonitorConfig(): MonitorConfig {
  return compileMonitorConfig(defaultMonitorSettings());
}

type NumberKey = 'viralPersonaMarkers' | 'viralPersonaWindow' | 'viralPersonaMinThemes' | 'propagationSessions' | 'propagationWindowRounds' | 'propagationWindowSeconds' | 'verbatimMinTokens' | 'verbatimMinAgents' | 'cooldownSeconds';
const NUMBERS: Record<NumberKey, [number, number]> = {
  viralPersonaMarkers: [-1e9, 1e9],
  viralPersonaWindow: [100, 1e9],
  viralPersonaMinThemes: [0, 1e9],
  propagationSessions: [2, 1e6],
  propagationWindowRounds: [1, 1e9],
  propagationWindowSeconds: [1, 1e12],
  verbatimMinTokens: [4, 1e6],
  verbatimMinAgents: [2, 1e6],
  cooldownSeconds: [0, 1e12],
};
const LISTS = ['globs', 'traceGlobs', 'ignore'] as const;

/** Validates the raw "monitor" section (or undefined) over the defaults; throws InputError('invalid-config'). */
export function resolveMonitorConfig(raw: unknown, file?: string): MonitorConfig {
  const settings = defaultMonitorSettings();
  if (raw === undefined || raw === null) return compileMonitorConfig(settings);
  const fail = (field: string, message: string) => new InputError('invalid-config', message, file, undefined, `monitor${field ? '.' + field : ''}`);
  if (typeof raw !== 'object' || Array.isArray(raw)) throw fail('', '"monitor" must be an object');
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key in NUMBERS) {
      const [lo, hi] = NUMBERS[key as NumberKey];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi) throw fail(key, `monitor.${key} must be a number in [${lo}, ${hi}]`);
      settings[key as NumberKey] = value;
    } else if ((LISTS as readonly string[]).includes(key)) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) throw fail(key, `monitor.${key} must be an array of glob strings`);
      const refused = globsRefused(value as string[]);
      if (refused) throw fail(key, `monitor.${key}: ${refused}`);
      settings[key as (typeof LISTS)[number]] = [...(value as string[])];
    } else if (key === 'signals') {
      settings.signals = resolveSignals(value, fail);
    } else if (key === 'vocabulary' || key === 'extraMarkers') {
      settings[key] = resolveMarkers(value, key, fail);
    } else {
      throw fail(key, `unknown setting monitor.${key}; known: ${[...Object.keys(NUMBERS), ...LISTS, 'signals', 'vocabulary', 'extraMarkers'].join(', ')}`);
    }
  }
  if (settings.vocabulary.length + settings.extraMarkers.length === 0) throw fail('vocabulary', 'monitor.vocabulary is empty; give at least one marker');
  return compileMonitorConfig(settings);
}

function resolveSignals(value: unknown, fail: (field: string, message: string) => InputError): Record<SignalName, boolean> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('signals', 'monitor.signals must be an object of booleans');
  const signals = defaultMonitorSettings().signals;
  for (const [name, on] of Object.entries(value)) {
    if (!SIGNALS.includes(name as SignalName)) throw fail(`signals.${name}`, `unknown signal "${name}"; known: ${SIGNALS.join(', ')}`);
    if (typeof on !== 'boolean') throw fail(`signals.${name}`, `monitor.signals.${name} must be true or false`);
    signals[name as SignalName] = on;
  }
  return signals;
}

/** A marker is a word ("spiral", all its inflections count) or {"marker": id, "forms": [words], "ambient"?: boolean, "weight"?: number}. */
function resolveMarkers(value: unknown, key: string, fail: (field: string, message: string) => InputError): MarkerSpec[] {
  if (!Array.isArray(value)) throw fail(key, `monitor.${key} must be an array of words or {"marker", "forms"} objects`);
  return value.map((entry, i) => {
    if (typeof entry === 'string' && entry.trim()) return { marker: entry.trim().toLowerCase(), forms: [entry.trim()] };
    const spec = entry as Partial<MarkerSpec> | null;
    const weightOk = spec?.weight === undefined || (typeof spec.weight === 'number' && Number.isFinite(spec.weight) && spec.weight > 0 && spec.weight <= 100);
    if (spec && typeof spec === 'object' && typeof spec.marker === 'string' && spec.marker.trim() && (spec.forms === undefined || (Array.isArray(spec.forms) && spec.forms.every((f) => typeof f === 'string' && f.trim()))) && (spec.ambient === undefined || typeof spec.ambient === 'boolean') && weightOk) {
      const forms = (spec.forms ?? [spec.marker]).map((f) => f.trim());
      return { marker: spec.marker.trim(), forms, ...(spec.ambient ? { ambient: true } : {}), ...(spec.weight !== undefined ? { weight: spec.weight } : {}) };
    }
    throw fail(`${key}[${i}]`, `monitor.${key}[${i}] must be a word or {"marker": "id", "forms": ["word", ...], "ambient"?: true, "weight"?: a number in (0, 100]}`);
  });
}
