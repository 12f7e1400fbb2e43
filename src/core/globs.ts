// Globs from a repository (its agent-immune.config.json, its .gitignore files, its workspace settings) are hostile
// input. picomatch and ignore compile them to backtracking regular expressions whose time grows as a power of the
// path's length with each wildcard: `*a*a*a…*az` against a 60-letter file name ran for minutes, `*a*a/*a*a/*a*a/*a*az`
// against four long folder names for 223 s, `{a,aa}` forty times for over 30 s. A glob is matched only with at most 2
// `**` segments, 3 other `*` (about 8 ms on a 3,600-character path at worst) and 3 brace groups, and extglobs
// (`+(a|aa)`) are read as literal text.
import picomatch from 'picomatch';
import { inline } from './text/printable';

/** The most `**` segments a glob may have. */
export const MAX_GLOBSTARS = 2;
/** The most other `*` wildcards (runs of `*` inside a segment) a glob may have. */
export const MAX_STARS = 3;
/** The most brace groups (`{a,b}`, compiled to an alternation) a glob may have. */
export const MAX_BRACES = 3;

const GLOBSTAR = /(?:^|\/)\*\*(?=\/|$)/g;

/** picomatch's options here: dot files match, extglobs are literal text (their nested quantifiers backtrack without bound). */
export const GLOB_OPTIONS = { dot: true, noextglob: true } as const;

/** The longest glob matched (picomatch refuses past 65,536 characters, and no path is longer than this). */
export const MAX_GLOB_LENGTH = 4096;

/** Why a glob would take too long to match (too long, too many wildcards), or undefined when it is accepted. */
export function globTooComplex(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH) return `it is ${glob.length} characters long; at most ${MAX_GLOB_LENGTH} are matched`;
  const globstars = (glob.match(GLOBSTAR) ?? []).length;
  const stars = (glob.replace(GLOBSTAR, '/').match(/\*+/g) ?? []).length;
  if (globstars > MAX_GLOBSTARS) return `it has ${globstars} "**" segments; at most ${MAX_GLOBSTARS} are matched in bounded time`;
  if (stars > MAX_STARS) return `it has ${stars} "*" wildcards besides "**"; at most ${MAX_STARS} are matched in bounded time`;
  const braces = (glob.match(/\{/g) ?? []).length;
  if (braces > MAX_BRACES) return `it has ${braces} brace groups; at most ${MAX_BRACES} are matched in bounded time`;
  return undefined;
}

/**
 * Why a glob matched against paths relative to the project root never matches one, or undefined when it may: it starts
 * with `/` (under .gitignore rules, where that anchors the glob at the root, with `./`), or has a `..` or an empty
 * folder name. `gitignore`: read with .gitignore rules.
 */
export function globNeverMatches(glob: string, { gitignore = false } = {}): string | undefined {
  const shown = (text: string) => inline(text.slice(0, 80));
  if (!gitignore && glob.startsWith('/')) return `it starts with "/"; globs are relative to the project root (write "${shown(glob.replace(/^\/+/, ''))}")`;
  if (gitignore && glob.startsWith('./')) return `it starts with "./", which .gitignore rules never match (write "${shown(glob.slice(2))}", or "/${shown(glob.slice(2))}" for the root's only)`;
  const segments = glob.replace(/^\.\//, '').split('/');
  if (segments.includes('..')) return 'it has a ".." folder; only paths inside the project root are matched';
  if (segments.slice(gitignore && glob.startsWith('/') ? 1 : 0, -1).includes('')) return 'it has an empty folder name ("//")';
  return undefined;
}

/** One predicate for a list of globs (`nocase`: letters match either case); a glob too complex to match in bounded time never matches. */
export function globMatcher(globs: readonly string[], { nocase = false } = {}): (path: string) => boolean {
  const regexes = globs.filter((glob) => !globTooComplex(glob)).map((glob) => picomatch.makeRe(glob, { ...GLOB_OPTIONS, nocase }));
  return (path) => regexes.some((re) => re.test(path));
}

/** Why a list of globs is refused, naming its first glob too complex (`"*a*a…" is refused: …`); undefined when none is. */
export function globsRefused(globs: readonly string[]): string | undefined {
  for (const glob of globs) {
    const why = globTooComplex(glob);
    if (why) return `"${glob.slice(0, 80)}" is refused: ${why}`;
  }
  return undefined;
}
