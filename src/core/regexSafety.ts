// Regular expressions from a repository's config (answer.patterns, harden.systemPromptNames) are hostile input: V8's
// engine backtracks, and a group that repeats while it can match the same text in several ways (`^(a+)+$`,
// `(a|aa)*`) takes exponential time on a short string. Such a pattern is refused when the config is read; the texts
// the patterns read are bounded where they are used, which keeps the polynomial cases short too.

/** Why a regular expression could take exponential time (a repeated group that itself repeats or alternates), or undefined. */
export function regexTooSlow(source: string): string | undefined {
  // Per open group: whether it holds a quantifier or an alternation.
  const groups: { repeats: boolean; alternates: boolean }[] = [{ repeats: false, alternates: false }];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      i = classEnd(source, i);
    } else if (c === '(') {
      groups.push({ repeats: false, alternates: false });
      // The group's kind (`(?:`, `(?=`, `(?<!`, `(?<name>`) is no quantifier.
      const kind = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i + 1, i + 40));
      if (kind) i += kind[0].length;
    } else if (c === ')' && groups.length > 1) {
      const group = groups.pop()!;
      const quantifier = quantifierAt(source, i + 1);
      if (quantifier.repeats && (group.repeats || group.alternates)) {
        return `the group ending at character ${i + 1} repeats and ${group.repeats ? 'holds a repetition' : 'alternates'} itself (like "(a+)+"): it can take exponential time`;
      }
      groups[groups.length - 1].repeats ||= group.repeats || quantifier.choice;
    } else if (c === '|') {
      groups[groups.length - 1].alternates = true;
    } else if (quantifierAt(source, i).choice) {
      groups[groups.length - 1].repeats = true;
    }
  }
  return undefined;
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
 * The quantifier at `at`: `choice` when it lets the engine choose how often (`?`, `*`, `+`, `{n,m}`), `repeats` when
 * it allows more than one repetition (`{2}` repeats without a choice).
 */
function quantifierAt(source: string, at: number): { choice: boolean; repeats: boolean } {
  const c = source[at];
  if (c === '*' || c === '+') return { choice: true, repeats: true };
  if (c === '?') return { choice: true, repeats: false };
  const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 24)) : null;
  if (!braces) return { choice: false, repeats: false };
  const least = Number(braces[1]);
  const most = braces[2] === undefined ? least : braces[3] === '' ? Infinity : Number(braces[3]);
  return { choice: most > least, repeats: most > 1 };
}
