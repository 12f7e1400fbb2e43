// Reads an agent's final answer from its output: the configured patterns first (last match wins); then, for a
// multiple-choice task, what real agents write: "(B)", "**B.**", "option B is correct", or the option's own text.

/** Compiles answer patterns once. */
export function compileAnswerPatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((p) => new RegExp(p, 'gi'));
}

/** The options of a multiple-choice question: letter -> option text (lower-cased, whitespace squashed). */
export type Choices = ReadonlyMap<string, string>;

// "A) text, B) text" (MMLU prompts), "(A) text, (B) text" (TruthfulQA prompts), "A. text" on its own line.
const OPTION = /(?:^|[\s:,;])\(?([A-J])[).]\s+(.+?)(?=(?:[\s,;]+\(?[A-J][).]\s)|\.\s+(?:Explain|Answer|Please|Choose|Select|Put|Give)\b|\n|$)/g;

// "A: text" on a line of its own (a colon only there: "Plan A: ..., Plan B: ..." in prose is no list of options). Such
// lines are options under an "Options:" / "Choices:" line, or when there are at least three of them: two speakers'
// turns ("A: I left it open" / "B: That was careless") are not.
const LINE_OPTION = /^[ \t]*\(?([A-J])\)?[ \t]*:[ \t]+(\S.*)$/gm;
const OPTIONS_HEADING = /^[ \t]*(?:answer[ \t]+)?(?:options|choices)[ \t]*:?[ \t]*$/im;

// A dataset's choices printed as they are stored (CommonsenseQA, ARC, OpenBookQA): "label: ['A', 'B', ...]" and
// "text: ['bank', 'library', ...]", the keys quoted or not, with or without the braces of a dict.
const LABEL_LIST = /(?<!\w)['"]?label['"]?\s*:\s*\[/;
const TEXT_LIST = /(?<!\w)['"]?text['"]?\s*:\s*\[/;

/** Parses the options out of a question; undefined unless it lists at least two consecutive letters from A. */
export function parseChoices(question: string | undefined): Choices | undefined {
  if (!question) return undefined;
  return lettered(question, OPTION) ?? lineOptions(question) ?? storedChoices(question);
}

/** The options `form` finds (letter in group 1, text in group 2), when it finds at least two consecutive from A. */
function lettered(question: string, form: RegExp): Choices | undefined {
  const found = new Map<string, string>();
  for (const match of question.matchAll(form)) {
    const letter = match[1];
    const expected = String.fromCharCode(65 + found.size);
    if (letter !== expected) {
      if (letter === 'A') found.clear();
      else continue;
    }
    found.set(letter, squash(match[2].replace(/[.,;]+$/, '')));
  }
  return found.size >= 2 ? found : undefined;
}

/** "A: text" lines as options: under an options heading, or at least three of them. */
function lineOptions(question: string): Choices | undefined {
  const found = lettered(question, LINE_OPTION);
  return found && (found.size >= 3 || OPTIONS_HEADING.test(question)) ? found : undefined;
}

/** The options of a stored choices record: a label list of consecutive letters from A, and as many texts. */
function storedChoices(question: string): Choices | undefined {
  const letters = quotedListAfter(question, LABEL_LIST);
  const options = letters && quotedListAfter(question, TEXT_LIST);
  if (!letters || !options || letters.length < 2 || letters.length !== options.length || letters.some((l, i) => l !== String.fromCharCode(65 + i))) return undefined;
  return new Map(letters.map((l, i) => [l, squash(options[i])]));
}

/**
 * The items of the list that the first match of `opening` opens: quoted strings (escapes undone) separated by commas,
 * up to the "]" that closes it; undefined for anything else. One forward pass: a quote never closed ends it.
 */
function quotedListAfter(question: string, opening: RegExp): string[] | undefined {
  const open = opening.exec(question);
  if (!open) return undefined;
  const items: string[] = [];
  let i = open.index + open[0].length;
  for (;;) {
    while (i < question.length && /[\s,]/.test(question[i])) i++;
    const quote = question[i];
    if (quote === ']') return items;
    if (quote !== "'" && quote !== '"') return undefined;
    let item = '';
    for (i++; i < question.length && question[i] !== quote; i++) item += question[i] === '\\' ? question[++i] ?? '' : question[i];
    if (i >= question.length) return undefined;
    items.push(item);
    i++;
  }
}

/** How much of the end of an output the answer patterns read. */
const PATTERN_TAIL = 4000;

/** The normalised answer in `text`, or undefined when none parses. `choices` (the task's options) enables the free-form reading. */
export function extractAnswer(text: string | undefined, patterns: readonly RegExp[], choices?: Choices): string | undefined {
  if (!text) return undefined;
  // The patterns may come from a repository's config (src/core/regexSafety.ts bounds them): they read the end of the
  // output, where answers are given, with each run of whitespace as one character, so that repetitions of whitespace
  // in a row (`\s*:?\s*` in the defaults: "<ANSWER>:" and 2,000 blanks took 3.8 s) stay short.
  const tail = (text.length > PATTERN_TAIL ? text.slice(-PATTERN_TAIL) : text).replace(/\s{2,}/g, (run) => (run.includes('\n') ? '\n' : ' '));
  for (const pattern of patterns) {
    let last: string | undefined;
    pattern.lastIndex = 0;
    // A record's empty field is no answer ("answer: null" in a search tool's result, flattened from its JSON).
    for (const match of tail.matchAll(pattern)) if (!NO_VALUE.test(match[1])) last = match[1];
    // With the task's options known, a pattern that caught something else ("answer is: The son ...") does not count.
    if (last !== undefined && (!choices || choices.has(normalizeAnswer(last)))) return normalizeAnswer(last);
  }
  return choices ? choiceAnswer(text, choices) : undefined;
}

/** A field written empty in JSON, YAML or Python (a dict printed by `str()`: "'answer': None"). */
const NO_VALUE = /^\s*(?:[Nn][Uu][Ll][Ll]|~|None)\s*$/;

/** Canonical form for comparing answers: trimmed, upper-cased, trailing punctuation and parentheses dropped. */
export function normalizeAnswer(answer: string): string {
  return answer.trim().replace(/^[([]|[)\].,;:!]+$/g, '').trim().toUpperCase();
}

// Letter forms, each with the letter in group 1: "(B)", "**B.**" / "**B)**" / "**(B)**", "option B", "answer is B",
// "B is correct", a reply that starts with "B." or "B)", "C) $625" and the template's own "(X) B".
const LETTER_FORMS = [
  /\(([A-J])\)/g,
  /\*\*\s*\(?([A-J])\b[).:]?/g,
  /\b(?:[Oo]ption|[Cc]hoice|[Aa]nswer(?:\s+is|\s+would\s+be)?|[Aa]nswer\s*:)\s*\(?([A-J])\b(?![-'])/g,
  /\b([A-J])\)?\s+(?:is|would be|seems|remains)\s+(?:\w+ly\s+)?(?:the\s+)?(?:most\s+)?(?:correct|right|best|accurate|appropriate)/g,
  /^\s*([A-J])[.)]\s/g,
  /(?:^|\s)([A-J])\)\s/g,
  /\(X\)\s*:?\s*\(?([A-J])\b/g,
];

/** The option a free-form reply commits to: of every letter form and every quoted option text, the one written last. */
function choiceAnswer(text: string, choices: Choices): string | undefined {
  let best: string | undefined;
  let bestAt = -1;
  const consider = (letter: string, at: number) => {
    if (choices.has(letter) && at >= bestAt) [best, bestAt] = [letter, at];
  };
  for (const form of LETTER_FORMS) {
    form.lastIndex = 0;
    for (const match of text.matchAll(form)) consider(match[1], match.index ?? 0);
  }
  // The option's own text (long enough to be specific); a longer option that contains a shorter one wins at a tie.
  const lower = squash(text);
  const scale = text.length / Math.max(1, lower.length);
  for (const [letter, option] of [...choices].sort((a, b) => a[1].length - b[1].length)) {
    if (option.length < 8) continue;
    const at = lower.lastIndexOf(option);
    if (at >= 0) consider(letter, Math.round((at + option.length) * scale) - 1);
  }
  return best;
}

function squash(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

// Words that carry no answer: articles, copulas, conjunctions and prepositions.
const FILLER = new Set('a an the of and or in on at to for by with is are was were be it its this that as from'.split(' '));
const POLARITY = new Set(['yes', 'no']);
/** How many distinct answers a run's grouping compares; past it an answer is its own group (no run's agents write so many). */
const MAX_GROUPED = 2000;

/**
 * Groups a free-form task's answers as they arrive, so that "Wake" and "Wake County", or "The Aztecs." and "the Aztec
 * (Mexica) people", count as one answer. An answer joins the group of the earlier ones whose words it contains or that
 * contain its words (the words the question itself uses, and fillers, not counted, plurals as singulars); when it is
 * related to two groups it stays alone. "Yes, …" and "Technically no, …" answers group by their yes or no (among the
 * first three words).
 */
export class FreeFormAnswers {
  private readonly questionWords: Set<string>;
  private readonly known = new Map<string, string>();
  /** Each distinct word set seen, with the group (its first answer) it joined. */
  private readonly sets: { words: Set<string>; group: string }[] = [];
  private readonly byWord = new Map<string, number[]>();

  constructor(question: string | undefined) {
    this.questionWords = new Set(wordsOf(question ?? ''));
  }

  /** The group `answer` (normalised) belongs to: the first answer of that group. */
  groupOf(answer: string): string {
    const known = this.known.get(answer);
    if (known !== undefined) return known;
    const { group, own } = this.match(answer);
    if (own) {
      const n = this.sets.push({ words: own, group }) - 1;
      for (const word of own) {
        const list = this.byWord.get(word);
        if (list) list.push(n);
        else this.byWord.set(word, [n]);
      }
    }
    this.known.set(answer, group);
    return group;
  }

  /** The group `answer` would join, the answers seen so far unchanged (for the task's own answer, which no agent gave). */
  groupFor(answer: string): string {
    return this.known.get(answer) ?? this.match(answer).group;
  }

  /** The group `answer` joins, and the word set it is indexed by (none for a yes or no, or an answer with no words). */
  private match(answer: string): { group: string; own?: Set<string> } {
    const words = wordsOf(answer);
    const polarity = words.slice(0, 3).find((w) => POLARITY.has(w));
    if (polarity !== undefined) return { group: polarity.toUpperCase() };
    const content = words.filter((w) => !this.questionWords.has(w));
    const own = new Set(content.length > 0 ? content : words);
    if (own.size === 0 || this.sets.length >= MAX_GROUPED) return { group: answer };
    const groups = new Set<string>();
    const seen = new Set<number>();
    for (const word of own) {
      for (const n of this.byWord.get(word) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        const other = this.sets[n].words;
        if (within(own, other) || within(other, own)) groups.add(this.sets[n].group);
      }
    }
    return { group: groups.size === 1 ? [...groups][0] : answer, own };
  }
}

/** The words of a text, lower-cased, fillers dropped, a plural "-s" taken off, a number's thousands separators dropped
 * ("$57,500" and GSM8K's "57500" are one answer). */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const [word] of text.toLowerCase().replace(/(\d),(?=\d{3}(?!\d))/g, '$1').matchAll(/[\p{L}\p{N}]+/gu)) {
    if (FILLER.has(word)) continue;
    words.push(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  return words;
}

function within(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  if (small.size > large.size) return false;
  for (const word of small) if (!large.has(word)) return false;
  return true;
}
