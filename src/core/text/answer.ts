// Reads an agent's final answer from its output with the configured patterns (last match wins).

/** Compiles answer patterns once. */
export function compileAnswerPatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((p) => new RegExp(p, 'gi'));
}

/** The normalised answer in `text`, or undefined when none parses. The last match of the first matching pattern wins. */
export function extractAnswer(text: string | undefined, patterns: readonly RegExp[]): string | undefined {
  if (!text) return undefined;
  for (const pattern of patterns) {
    let last: string | undefined;
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) last = match[1];
    if (last !== undefined) return normalizeAnswer(last);
  }
  return undefined;
}

/** Canonical form for comparing answers: trimmed, upper-cased, trailing punctuation and parentheses dropped. */
export function normalizeAnswer(answer: string): string {
  return answer.trim().replace(/^[([]|[)\].,;:!]+$/g, '').trim().toUpperCase();
}
