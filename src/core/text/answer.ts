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
    for (const match of tail.matchAll(pattern)) last = match[1];
    // With the task's options known, a pattern that caught something else ("answer is: The son ...") does not count.
    if (last !== undefined && (!choices || choices.has(normalizeAnswer(last)))) return normalizeAnswer(last);
  }
  return choices ? choiceAnswer(text, choices) : undefined;
}

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
