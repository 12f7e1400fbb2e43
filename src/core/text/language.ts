// Whether a run's text reads as English, the one language the guard's word lists (cue lexicon, steering reader) and
// its text probe (hashed English word pairs) were built on. Measured by the share of words that are common English
// function words among the agents' latest outputs: 16–51 % in the English debates and tool runs measured, 6 % at the
// lowest in code-heavy benign traces, at most 3 % in 60 runs written in Vietnamese (bench/data/unseen-runs).
import { words } from './tokens';

const FUNCTION_WORDS = new Set(
  ('the of and to a in is that it for on as with be this are was by not or from at have an but which they you we can ' +
    'will would there their if has been what so all one do more no about than also its our these some other any should ' +
    'could may then only into when how my your me')
    .split(' '),
);

/** The code of the analysis warning that a run's agents write another language. */
export const NOT_ENGLISH = 'not-english';

/** Below this share of English function words a text of enough words is taken as not English. */
const ENGLISH_SHARE_FLOOR = 0.05;
/** Fewer words than this say nothing either way. */
const MIN_WORDS = 100;

/** The share of the words (tokens.ts's, any script) in `texts` that are common English function words, and how many words there were. */
export function englishShare(texts: Iterable<string | undefined>): { share: number; words: number } {
  let count = 0;
  let english = 0;
  for (const text of texts) {
    if (!text) continue;
    for (const word of words(text)) {
      count++;
      if (FUNCTION_WORDS.has(word)) english++;
    }
  }
  return { share: count === 0 ? 0 : english / count, words: count };
}

/** Whether texts of at least MIN_WORDS words read as another language than English. */
export function readsAsNotEnglish({ share, words }: { share: number; words: number }): boolean {
  return words >= MIN_WORDS && share < ENGLISH_SHARE_FLOOR;
}
