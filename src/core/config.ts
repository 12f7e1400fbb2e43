// The project config file (agent-immune.config.json): the guard's thresholds with the paper's defaults,
// answer extraction, and raw sections each feature validates itself.
import { errorMessage, InputError } from './errors';
import { globNeverMatches } from './globs';
import { inline } from './text/printable';
import { regexRefused } from './regexSafety';

/** File name of the project config at the workspace root. */
export const CONFIG_FILE_NAME = 'agent-immune.config.json';

/** The guard's thresholds (DESIGN.md, INFA-Guard defaults). */
export interface GuardConfig {
  /** P_atk threshold for the attacker head. */
  attackerThreshold: number;
  /** P_inf threshold for the infected head. */
  infectedThreshold: number;
  /** EMA smoothing factor for P_inf. */
  emaAlpha: number;
  /** Hop distance beyond which an isolated infected flag is pruned. */
  distanceThreshold: number;
  /** Hop distance used instead when the topology is a chain. */
  chainDistanceThreshold: number;
  /** Minimum trend (EMA delta) that keeps or raises an infected flag. */
  trendThreshold: number;
  /** Highest P_atk a donor may have to replace an attacker. */
  donorMaxPAtk: number;
  /**
   * A trend jump alone pulls in a neighbour only when its larger score reaches this (a flagged infected agent that is
   * kept pulls in its most suspicious neighbour whatever its score), and an adopter, or a target follower whose calls the
   * trace does not show, needs this P_inf;
   * 0, the ten switches off and trendThreshold 0.05 give the reference rules.
   */
  pullInFloor: number;
  /** Infected agents that no attacker reaches (within d_th, or through infected agents) make their most suspicious sender an attacker; false gives the reference rules. */
  pullInSources: boolean;
  /**
   * An agent that moved to the answer a flagged attacker it hears from has held since round 0, one only flagged attackers
   * gave in round 0, is pulled in as infected (P_inf at least pullInFloor, except in a debate: options listed, heard by
   * all); false gives the reference rules.
   */
  pullInAdopters: boolean;
  /** An agent that every other agent hears, holding every round a round-0 answer no other agent gave, is an attacker; false gives the reference rules. */
  flagLoneHolders: boolean;
  /** An agent that every other agent hears and that changed its answer at least twice, only to answers none of those it hears had given, is an attacker; false: reference rules. */
  flagAwayMovers: boolean;
  /** An agent that every other agent hears and that alone left an answer every agent had given, for one nobody had, and never went back, is an attacker; false: reference rules. */
  flagConsensusLeavers: boolean;
  /**
   * An agent that has held since round 0 the answer a flagged attacker has held since round 0, one that fewer than half
   * the agents whose round-0 answer was read gave, and fewer than gave another, is an attacker too (the attackers of a
   * run push one planted answer); false: reference rules.
   */
  flagAttackerAnswerHolders: boolean;
  /**
   * An agent whose output carries an identifier a flagged attacker it hears from named in an instruction to the model
   * is infected once its P_inf reaches pullInFloor; false: reference rules.
   */
  pullInTargetFollowers: boolean;
  /** An agent that says in its own words that it is steering the other agents (to a wrong or an assigned answer) is an attacker; false: reference rules. */
  flagDeclaredSteering: boolean;
  /**
   * A tool whose result gave an order naming a recipient (an e-mail address, an account) that neither the task nor what
   * the tool was sent held, and that an agent then passed to a tool call, is an attacker, unless the user had asked the
   * agent to carry out orders written in what it reads ("do the actions in the email"); false: reference rules.
   */
  flagObeyedToolOrders: boolean;
  /**
   * In a debate (options listed, every other agent hears the agent), the answers say who moved whom: an agent that moved
   * to the answer most of the agents it hears (flagged attackers aside) had just given sided with the group, and one whose
   * most suspicious sender did not give the answer it took, or gave the group's, was persuaded: neither is infected;
   * false: reference rules.
   */
  readGroupMoves: boolean;
}

/** How to read an agent's final answer from its output. */
export interface AnswerConfig {
  /** Regular expressions with one capture group, tried in order. */
  patterns: string[];
}

/** The whole config: typed guard/answer sections plus raw sections owned by other features. */
export interface ProjectConfig {
  guard: GuardConfig;
  answer: AnswerConfig;
  sections: Record<string, unknown>;
}

export const DEFAULT_GUARD_CONFIG: Readonly<GuardConfig> = Object.freeze({
  attackerThreshold: 0.5,
  infectedThreshold: 0.5,
  emaAlpha: 0.3,
  distanceThreshold: 2,
  chainDistanceThreshold: 3,
  // The paper's tau is 0.05; at 0.1 a trend jump pulls in a neighbour less often on real debates (docs/detection.md).
  trendThreshold: 0.1,
  donorMaxPAtk: 0.1,
  pullInFloor: 0.3,
  pullInSources: true,
  pullInAdopters: true,
  flagLoneHolders: true,
  flagAwayMovers: true,
  flagConsensusLeavers: true,
  flagAttackerAnswerHolders: true,
  pullInTargetFollowers: true,
  flagDeclaredSteering: true,
  flagObeyedToolOrders: true,
  readGroupMoves: true,
});

export const DEFAULT_ANSWER_CONFIG: Readonly<AnswerConfig> = Object.freeze({
  patterns: [
    '<ANSWER>\\s*:?\\s*([^<\\n]+?)\\s*(?:</ANSWER>|$)',
    '\\\\boxed\\{([^{}]+)\\}',
    '\\b(?:final answer|answer)\\s*(?:is)?\\s*[:=]\\s*\\(?([A-Za-z0-9.\\-]+)\\)?(?=[\\s.,;)!*]{0,8}(?:\\n|$))',
    '\\b(?:final answer|answer)\\s*(?:is)?\\s*[:=][ \\t*]{0,4}([^\\n*]{1,60}?)[ \\t*]{0,4}\\.?[ \\t*]{0,4}(?:\\n|$)',
  ],
});

/** The defaults, as a fresh object. */
export function defaultConfig(): ProjectConfig {
  return { guard: { ...DEFAULT_GUARD_CONFIG }, answer: { patterns: [...DEFAULT_ANSWER_CONFIG.patterns] }, sections: {} };
}

/** The guard's on/off switches; every other guard setting is a number. */
const SWITCHES = ['pullInSources', 'pullInAdopters', 'flagLoneHolders', 'flagAwayMovers', 'flagConsensusLeavers', 'flagAttackerAnswerHolders', 'pullInTargetFollowers', 'flagDeclaredSteering', 'flagObeyedToolOrders', 'readGroupMoves'] as const;
type SwitchKey = (typeof SWITCHES)[number];
type NumericGuardKey = Exclude<keyof GuardConfig, SwitchKey>;

const numberRanges: Record<NumericGuardKey, [number, number]> = {
  attackerThreshold: [0, 1],
  infectedThreshold: [0, 1],
  emaAlpha: [0, 1],
  distanceThreshold: [0, 1000],
  chainDistanceThreshold: [0, 1000],
  trendThreshold: [-1, 1],
  donorMaxPAtk: [0, 1],
  pullInFloor: [0, 1],
};

/** Sections owned and validated by the features: integrity (lockfile), harden (prompts), monitor (alerts). */
const FEATURE_SECTIONS = ['integrity', 'harden', 'monitor'];

/** Validates parsed config JSON and merges it over the defaults; throws InputError('invalid-config'). */
export function resolveConfig(raw: unknown, file?: string): ProjectConfig {
  const config = defaultConfig();
  if (raw === undefined || raw === null) return config;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new InputError('invalid-config', 'config must be a JSON object', file);
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'guard') config.guard = resolveGuard(value, file);
    else if (key === 'answer') config.answer = resolveAnswer(value, file);
    else if (FEATURE_SECTIONS.includes(key)) config.sections[key] = value;
    else if (key !== '$schema') throw new InputError('invalid-config', `unknown section "${key}"; known: guard, answer, ${FEATURE_SECTIONS.join(', ')}`, file, undefined, key);
  }
  return config;
}

/** The settings that hold globs matched against paths from the project root (`gitignore`: read with .gitignore rules). */
const GLOB_SETTINGS: readonly { section: string; key: string; gitignore?: boolean }[] = [
  { section: 'integrity', key: 'skills' },
  { section: 'integrity', key: 'prompts' },
  { section: 'integrity', key: 'exclude', gitignore: true },
  { section: 'harden', key: 'include' },
  { section: 'harden', key: 'exclude' },
  { section: 'monitor', key: 'globs' },
  { section: 'monitor', key: 'traceGlobs' },
  { section: 'monitor', key: 'ignore' },
];

/** The config warnings said at the most; the rest are counted in one more line. */
const MAX_CONFIG_WARNINGS = 5;

/** What a valid config holds that cannot be what its author meant: each glob of a setting that never matches a path,
 * five of them, then how many more. */
export function configWarnings(config: ProjectConfig): string[] {
  const warnings = GLOB_SETTINGS.flatMap(({ section, key, gitignore }) => {
    const globs = (config.sections[section] as Record<string, unknown> | undefined)?.[key];
    return (Array.isArray(globs) ? globs : []).flatMap((glob: unknown) => {
      const why = typeof glob === 'string' ? globNeverMatches(glob, { gitignore }) : undefined;
      return why ? [`${section}.${key}: "${inline(String(glob).slice(0, 80))}" never matches: ${why}`] : [];
    });
  });
  const more = warnings.length - MAX_CONFIG_WARNINGS;
  return more > 0 ? [...warnings.slice(0, MAX_CONFIG_WARNINGS), `and ${more} more glob(s) that never match`] : warnings;
}

function resolveGuard(value: unknown, file?: string): GuardConfig {
  const guard = { ...DEFAULT_GUARD_CONFIG };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError('invalid-config', '"guard" must be an object', file, undefined, 'guard');
  }
  for (const [key, v] of Object.entries(value)) {
    if (SWITCHES.includes(key as SwitchKey)) {
      if (typeof v !== 'boolean') throw new InputError('invalid-config', `guard.${key} must be true or false`, file, undefined, `guard.${key}`);
      guard[key as SwitchKey] = v;
      continue;
    }
    const range = numberRanges[key as NumericGuardKey];
    if (!range) {
      const known = [...Object.keys(numberRanges), ...SWITCHES].join(', ');
      throw new InputError('invalid-config', `unknown setting guard.${key}; known: ${known}`, file, undefined, `guard.${key}`);
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < range[0] || v > range[1]) {
      throw new InputError('invalid-config', `guard.${key} must be a number in [${range[0]}, ${range[1]}]`, file, undefined, `guard.${key}`);
    }
    guard[key as NumericGuardKey] = v;
  }
  return guard;
}

function resolveAnswer(value: unknown, file?: string): AnswerConfig {
  const patterns = (value as { patterns?: unknown } | null)?.patterns;
  if (!Array.isArray(patterns) || patterns.some((p) => typeof p !== 'string')) {
    throw new InputError('invalid-config', '"answer.patterns" must be an array of regular expressions (strings)', file, undefined, 'answer.patterns');
  }
  for (const pattern of patterns as string[]) {
    try {
      new RegExp(pattern, 'i');
    } catch (error) {
      throw new InputError('invalid-config', `answer.patterns: ${errorMessage(error)}`, file, undefined, 'answer.patterns');
    }
    const refused = regexRefused(pattern);
    if (refused) throw new InputError('invalid-config', `answer.patterns: ${refused}`, file, undefined, 'answer.patterns');
  }
  return { patterns: patterns as string[] };
}
