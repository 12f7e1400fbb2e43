// Regular expressions from a repository's config (answer.patterns, harden.systemPromptNames) are hostile input: V8's
// engine backtracks. A group that repeats while it can match the same text in several ways (`^(a+)+$`, `(a|aa)*`,
// `((a|a)b)+`) takes exponential time on a short string; open-ended repetitions in a row (`\w*\w*\w*!`, `.*y.*z`) take
// polynomial time of that degree. A pattern is refused unless its repeated groups are unambiguous and each path through
// it repeats at most one open-ended part of anything but whitespace; the readers collapse whitespace runs first.

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The most open-ended repetitions of something other than whitespace along one path of a pattern. */
export const MAX_OPEN_REPETITIONS = 1;

/** Why a regular expression could take more than about quadratic time to match, or undefined. */
export function regexTooSlow(source: string): string | undefined {
  // Per open group: whether it can match one text in several ways (a choice or an alternation inside it), the open
  // repetitions along its current branch, and the most along its finished branches.
  const groups: { ambiguous: boolean; run: number; most: number }[] = [{ ambiguous: false, run: 0, most: 0 }];
  let atomIsSpace = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    const top = groups[groups.length - 1];
    if (c === '\\') {
      atomIsSpace = /[stnr]/.test(source[i + 1] ?? '');
      i++;
    } else if (c === '[') {
      const end = classEnd(source, i);
      atomIsSpace = /^\[(?:(?:\\[stnr]| )+|\^\\S(?:\\[nr])*)\]$/.test(source.slice(i, end + 1));
      i = end;
    } else if (c === '(') {
      groups.push({ ambiguous: false, run: 0, most: 0 });
      // The group's kind (`(?:`, `(?=`, `(?<!`, `(?<name>`) is no quantifier.
      const kind = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i + 1, i + 40));
      if (kind) i += kind[0].length;
      continue;
    } else if (c === ')' && groups.length > 1) {
      const group = groups.pop()!;
      const parent = groups[groups.length - 1];
      const quantifier = quantifierAt(source, i + 1);
      if (quantifier.repeats && group.ambiguous) {
        return `the group ending at character ${i + 1} repeats and can match the same text in several ways (like "(a+)+" or "(a|aa)*"): it can take exponential time`;
      }
      parent.run += Math.max(group.most, group.run, quantifier.open ? 1 : 0);
      parent.ambiguous ||= group.ambiguous || quantifier.choice;
      i += quantifier.length;
      if (parent.run > MAX_OPEN_REPETITIONS) return tooMany(parent.run);
      continue;
    } else if (c === '|') {
      top.most = Math.max(top.most, top.run);
      top.run = 0;
      top.ambiguous = true;
      continue;
    } else {
      atomIsSpace = c === ' ' || c === '\t';
    }
    // The atom just read (an escape, a class or a character) and its quantifier, if any.
    const quantifier = quantifierAt(source, i + 1);
    if (quantifier.choice) top.ambiguous = true;
    if (quantifier.open && !atomIsSpace) top.run++;
    if (top.run > MAX_OPEN_REPETITIONS) return tooMany(top.run);
    i += quantifier.length;
  }
  return undefined;
}

/** Why a config regular expression is refused (`"^(a+)+$" is refused: …`), or undefined. */
export function regexRefused(source: string): string | undefined {
  const why = regexTooSlow(source);
  return why && `"${source.slice(0, 80)}" is refused: ${why}`;
}

function tooMany(count: number): string {
  return `it repeats ${count} open-ended parts in a row (like "\\w*\\w*" or ".*y.*"): at most ${MAX_OPEN_REPETITIONS} is matched in bounded time; bound the others ({1,40})`;
}

/** The index of the `]` that closes the character class opening at `start` (the end of the source when none does). */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}

/**
 * The quantifier at `at` and its length (with a lazy or possessive mark): `choice` when it lets the engine choose how
 * often (`?`, `*`, `+`, `{n,m}`), `repeats` when it allows more than one repetition, `open` when it has no upper bound.
 */
function quantifierAt(source: string, at: number): { choice: boolean; repeats: boolean; open: boolean; length: number } {
  const c = source[at];
  const lazy = (n: number) => n + (source[at + n] === '?' || source[at + n] === '+' ? 1 : 0);
  if (c === '*' || c === '+') return { choice: true, repeats: true, open: true, length: lazy(1) };
  if (c === '?') return { choice: true, repeats: false, open: false, length: lazy(1) };
  const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 24)) : null;
  if (!braces) return { choice: false, repeats: false, open: false, length: 0 };
  const least = Number(braces[1]);
  const most = braces[2] === undefined ? least : braces[3] === '' ? Infinity : Number(braces[3]);
  return { choice: most > least, repeats: most > 1, open: most === Infinity, length: lazy(braces[0].length) };
}
