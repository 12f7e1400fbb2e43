// The closest known name for a typo, for "did you mean" in usage errors (options and commands).

/** The candidate closest to `typed` (edit distance at most 2, or a unique prefix), if any. */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const prefixed = candidates.filter((c) => typed.length >= 3 && c.startsWith(typed));
  if (prefixed.length === 1) return prefixed[0];
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (distance <= Math.min(2, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
