// The project's own defences (the immunity warning and the delegation boundary label) describe a mind virus in the
// words of one, so the propagation reader blanks them first, wherever harden put them: in prose, a comment or a
// string literal, reflowed, quoted or split by concatenation.
import { DELEGATION_BOUNDARY_LABEL, MIND_VIRUS_IMMUNITY_WARNING } from '../harden/texts';

const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string) => text.toLowerCase().match(WORD) ?? [];
const DEFENCES = [wordsOf(MIND_VIRUS_IMMUNITY_WARNING), wordsOf(DELEGATION_BOUNDARY_LABEL)];
/** A phrase each defence holds, cheap to look for before any word is split out. */
const NEEDLES = ['mind virus', 'delegated_task'];

/** `lower` with every whole copy of a known defence replaced by spaces (offsets kept); unchanged when none is there. */
export function maskKnownDefences(lower: string): string {
  if (!NEEDLES.some((n) => lower.includes(n))) return lower;
  const tokens = [...lower.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  let masked = lower;
  for (const defence of DEFENCES) {
    for (let i = 0; i + defence.length <= tokens.length; i++) {
      if (tokens[i].word !== defence[0]) continue;
      let k = 0;
      while (k < defence.length && tokens[i + k].word === defence[k]) k++;
      if (k < defence.length) continue;
      const start = tokens[i].start;
      const end = tokens[i + k - 1].end;
      masked = masked.slice(0, start) + masked.slice(start, end).replace(/[^\n]/g, ' ') + masked.slice(end);
      i += k - 1;
    }
  }
  return masked;
}
