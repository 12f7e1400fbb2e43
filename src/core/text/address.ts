// Who a text addresses and what it tells them to do, read from its grammar rather than a list of attack phrases:
// instruction sentences (imperatives, "you must/should", "please <verb>"), an instruction to the model itself ("to you,
// GPT-4", "the task I gave you"), an instruction sitting inside data, and the identifiers (accounts, addresses, URLs,
// files) an instruction points at, so an agent that later acts on exactly those can be told apart.
import { INSTRUCTIONS_WORD } from './cues';

/** What one text says to its reader. */
export interface Address {
  /** Share of the text's sentences that are instructions to the reader, saturating: 1 - exp(-2 * count / sqrt(sentences)). */
  instructs: number;
  /** 1 when an instruction names the reader as an AI, a model or the one given a task ("you, GPT-4", "the task I gave you"). */
  toModel: number;
  /** 1 when an instruction comes after other content (a document, a list, a tool result), or inside tags. */
  embedded: number;
  /** Identifiers inside instruction sentences. */
  targets: readonly string[];
  /** Every identifier in the text. */
  identifiers: ReadonlySet<string>;
}

// Base-form verbs that open an instruction. Ordinary English verbs of action, not attack wording.
const IMPERATIVE_VERBS = new Set(
  (
    'add analyse analyze answer append apply ask book browse buy calculate call cancel change check choose click compare compute concatenate ' +
    'confirm contact continue copy create delete describe determine draft explain generate identify look navigate proceed review scroll search try type wait ' +
    'disregard do download email enter execute export fetch fill find follow forget forward get give go grant ignore include inform ' +
    'insert install invite keep list make mention modify move note open order output paste pay pick post print provide publish put ' +
    'read recommend remember remove rename reply report repeat reset respond retrieve return run save say schedule select send set ' +
    'share show sign start state stop submit summarize summarise switch take tell transfer translate update upload use verify visit write'
  ).split(' '),
);
// A sentence's opening: list marks, tags and a bracketed system marker ("(system_message)"), lead-in words ("please", "now", "then"...), and the first word after them (group 1).
const OPENING = /^(?:[\s*#>\-\d.)[\]]|<[^<>]{0,40}>|\(system[_ -]?(?:message|prompt)\))*(?:(?:please|kindly|now|first|then|also|next|finally|immediately|just|and|so|but)[\s,]+)*([A-Za-z]*)/i;
// Where a clause can open inside a sentence: after a colon ("Note to the assistant: send ..."), or after a short lead-in
// and a comma ("Dear AI agent reading this, send ...", "Before you answer, send ...").
const LEAD_IN = /^[^,.:;]{1,60},\s+/;
const AFTER_COLON = /:\s+/g;
const SPACE_THEN_WORD = /\s\S/g;
/** What follows a verb that is the start of a key: the rest of a name, if any, then a colon (`:`, `_time:`). */
const KEY_AFTER_VERB = /^[\w@.-]*:/;
const YOU_MUST = /\byou\s+(?:must|should|need to|have to|are (?:required|asked|instructed) to|will need to|shall)\s+\w+/i;
const PLEASE_VERB = /\bplease\s+(\w+)(?:\s+(\w+))?/i;
// The reader named as an AI or as the one who was given a task: "to you, GPT-4" (a name, so case matters), and words
// that name a model in any case ("NOTE FOR THE AI ASSISTANT", "dear assistant", "the task I gave you").
const TO_MODEL_NAMED = /\bto you,?\s+(?:the\s+)?[A-Z][\w.-]*/;
// Words that speak to the model directly ("dear AI assistant", "the task I gave you"), and those that only mention one
// ("for the model", "as an AI", "AI models", "LLM"): an instruction near either names the reader as a model.
const SPEAKS_TO_MODEL = String.raw`you,\s+(?:the\s+)?(?:AI|assistant|model|LLM|GPT[\w.-]*|Claude|Gemini|Llama)|(?:dear|hey|attention|note (?:to|for)|message (?:to|for)) (?:the |any |an? )?(?:AI|assistant|model|LLM|bot)\b|the task (?:that )?I gave you|your (?:previous|original|initial|prior) (?:${INSTRUCTIONS_WORD}|task|prompt)`;
// A message marked in brackets as the system's message ("###(system_message)", "[system prompt]"): spoken to the model.
// Not a bare "[System]" (a table of contents' link, a TOML section) nor "(admin)" (a contact's title).
const SYSTEM_MARKER = String.raw`[([]system[_ -]?(?:message|prompt)[)\]]`;
// "AI" as a field, not a reader: "papers related to AI regulation" mentions no model (a Who&When planner's did).
const AI_AS_FIELD = String.raw`[ \t]+(?:regulation|safety|ethics|research|governance|polic(?:y|ies)|acts?|laws?|industry|technolog(?:y|ies)|development|alignment|risks?|literacy|adoption|progress)\b`;
const MENTIONS_MODEL = String.raw`(?:for|to) (?:the |any |an? )?(?:AI\b(?!${AI_AS_FIELD})|(?:assistant|model|LLM|bot)\b)|as an (?:AI|assistant|language model)\b|(?:AI|language) (?:model|assistant|agent)s?\b|LLM\b`;
const TO_MODEL_WORDS = new RegExp(String.raw`\b(?:${SPEAKS_TO_MODEL}|${MENTIONS_MODEL})|${SYSTEM_MARKER}`, 'i');
const namesModel = (text: string) => TO_MODEL_NAMED.test(text) || TO_MODEL_WORDS.test(text);
const TAGGED = /<\/?[A-Za-z][\w-]*>/;
// Identifiers an instruction can point at: e-mail addresses, URLs and bare domains, IBAN-like accounts, long numbers,
// file names, snake_case values. The e-mail and file-name alternatives start only where a run of their characters
// starts (a lookbehind), so a long run without the @ or the extension is scanned once, not once per character.
const IDENTIFIER =
  /(?<![\w.+-])[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+|https?:\/\/[^\s"'<>)\]]+|\bwww\.[\w-]+(?:\.[\w-]+)+(?:\/[^\s"'<>)\]]*)?|\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b|\b\d{7,}\b|(?<![\w-])[\w-]+\.(?:txt|pdf|csv|docx?|xlsx?|json|md|py|sh|exe|zip|html?)\b|\b[a-z]+(?:_[a-z0-9]+)+\b/g;

// Something every IDENTIFIER alternative needs (an @, a scheme, www., a digit run, an IBAN's head, a file extension, an
// underscore): most prose has none, and the full pattern costs far more than this check.
const IDENTIFIER_HINT = /\d{7}|[A-Z]{2}\d{2}|\.(?:txt|pdf|csv|docx?|xlsx?|json|md|py|sh|exe|zip|html?)\b/;

/**
 * Identifiers in a text, normalised: lower case, no trailing punctuation, and a web address without its scheme, `www.`
 * or closing slash (an order's "www.example.com" is the call's "http://www.example.com/").
 */
export function identifiersOf(text: string): Set<string> {
  const found = new Set<string>();
  if (!text.includes('@') && !text.includes('://') && !text.includes('www.') && !text.includes('_') && !IDENTIFIER_HINT.test(text)) return found;
  IDENTIFIER.lastIndex = 0;
  for (const match of text.matchAll(IDENTIFIER)) found.add(match[0].toLowerCase().replace(/[.,;:!?]+$/, '').replace(/^(?:https?:\/\/)?(?:www\.)?/, '').replace(/\/$/, ''));
  return found;
}

// A fenced code block as Markdown writes one: a fence that opens a line, up to a fence that opens a later line. An
// unclosed fence, or backticks inside a line, fence nothing.
const CODE_FENCE = /^ {0,3}```[^\n]*\n[\s\S]*?^ {0,3}```/gm;

/**
 * The text with its fenced code blocks and source listings blanked out (same length, so offsets hold): code is written
 * for a machine, not the reader. A block that names the model ("to you, GPT-4") is kept: an order to the model does
 * not hide in a fence.
 */
function proseOf(text: string): string {
  const unfenced = text.includes('```') ? text.replace(CODE_FENCE, (block) => (namesModel(block) ? block : ' '.repeat(block.length))) : text;
  return LISTING_LINE.test(unfenced) ? withoutListings(unfenced) : unfenced;
}

// A line of a source listing as coding agents' read tools return files (`cat -n`: "   581\t    return len(messages)").
// Not "1: …" or "09:00 …": a numbered list or a schedule is prose.
const LISTING_LINE = /^ *\d+\t/m;
const NUMBERED = /^ *\d+\t/;
/** The longest line read as a statement of code; a longer one is prose (and no pattern runs long on it). */
const MAX_CODE_LINE = 240;
/** How many numbered lines in a row make a listing (a table of two numbered rows is none). */
const LISTING_RUN = 3;
// A statement of code: a line that opens with a lower-case keyword, assigns, or ends as code does (a call, a bracket,
// a semicolon). Prose ends on a word, a stop, a colon or a comma, and is kept, whatever file it is listed from.
const CODE_KEYWORD = /^(?:return|yield|raise|throw|import|from\s+\S+\s+import|def|class|async|await|const|let|var|function|export|if|elif|else|for|while|try|except|finally|with|pass|break|continue)\b/;
const CODE_ASSIGNMENT = /^[\w.[\]'"]+ ?(?:: ?[\w.[\],|]+(?: [\w.[\],|]+)*)? ?[-+*/%|&]?=(?!=)/;
const CODE_ENDING = /[{}[\]();]$|=>$/;
// A comment: like a fence, it is code's, unless its block speaks to the model.
const COMMENT = /^(?:#|\/\/|\/\*|\*|<!--)/;

/**
 * The text with the code of its source listings blanked (a file a coding agent read: "return len(messages)" and "#
 * Keep the most recent N messages" are code, not orders): statements always, a block of comment lines unless it
 * names the model. Prose lines are kept (a README read with line numbers is prose), and so is a statement that names
 * the model (a prompt string in code).
 */
function withoutListings(text: string): string {
  const lines = text.split('\n');
  const numbered = lines.map((line) => NUMBERED.test(line));
  const content = lines.map((line, i) => (numbered[i] ? line.replace(NUMBERED, '').trim() : ''));
  const inListing = lines.map((_, i) => {
    let run = 0;
    for (let j = i - LISTING_RUN + 1; j <= i + LISTING_RUN - 1 && run < LISTING_RUN; j++) run = numbered[j] ? run + 1 : 0;
    return numbered[i] && run >= LISTING_RUN;
  });
  const comment = content.map((c, i) => inListing[i] && COMMENT.test(c));
  const blank = new Array<boolean>(lines.length).fill(false);
  for (let i = 0; i < lines.length; i++) {
    if (!inListing[i]) continue;
    if (comment[i]) {
      // The whole block of comment lines around this one: kept when any line of it names the model.
      let end = i;
      while (end + 1 < lines.length && comment[end + 1]) end++;
      const named = content.slice(i, end + 1).some(namesModel);
      for (let j = i; j <= end; j++) blank[j] = !named;
      i = end;
    } else {
      const c = content[i];
      blank[i] = c.length <= MAX_CODE_LINE && (CODE_KEYWORD.test(c) || CODE_ASSIGNMENT.test(c) || CODE_ENDING.test(c.replace(/\s+#.*$|\s+\/\/.*$/, ''))) && !namesModel(c);
    }
  }
  return lines.map((line, i) => (blank[i] ? ' '.repeat(line.length) : line)).join('\n');
}

/** Reads what a text says to its reader: instructions in its prose (not in its fenced code), identifiers anywhere. */
export function addressOf(full: string): Address {
  const reading = readSentences(proseOf(full));
  const count = reading.instruction.filter(Boolean).length;
  const instructs = count === 0 ? 0 : 1 - Math.exp((-2 * count) / Math.sqrt(reading.spans.length));
  return { instructs, toModel: reading.toModel, embedded: reading.embedded, targets: reading.targets, identifiers: identifiersOf(full) };
}

// An order from inside data must speak to the model ("to you, GPT-4" or SPEAKS_TO_MODEL), not merely mention one, as a
// user's task or a tool's documentation can.
const ADDRESSES_MODEL = new RegExp(String.raw`\b(?:${SPEAKS_TO_MODEL})`, 'i');
const addressesModel = (sentence: string) => TO_MODEL_NAMED.test(sentence) || ADDRESSES_MODEL.test(sentence);
const CLOSING_TAG = /<\/[A-Za-z][\w-]*>/g;

/**
 * The sentences of an order to the model from inside data (a tool result's "<INFORMATION> … to you, GPT-4. Before
 * you can solve the task that I gave you, please do the following first: send …"): from the first sentence that speaks
 * to the model after other content or inside tags, to the tag that closes around it (or the end), that sentence and
 * every instruction or sentence speaking to the model after it; none otherwise. Spans index `full`.
 */
export function injectedOrderSpans(full: string): [number, number][] {
  const text = proseOf(full);
  const spans = sentences(text);
  const first = spans.findIndex(([start, end], s) => addressesModel(text.slice(start, end)) && (s > 0 || TAGGED.test(text.slice(Math.max(0, start - 300), start))));
  if (first < 0) return [];
  CLOSING_TAG.lastIndex = spans[first][0];
  const bound = CLOSING_TAG.exec(text)?.index ?? text.length;
  return spans.filter(([start, end], s) => {
    if (s < first || start >= bound) return false;
    const sentence = text.slice(start, end);
    return s === first || addressesModel(sentence) || isInstruction(sentence.trim());
  });
}

// A sentence that ends on a quote (`reduce\\n"`, `reduce",`); it closes a record's string when that quote is unpaired in it.
const ENDS_ON_QUOTE = /(["'])[,;]?$/;

/** Whether a sentence closes a quoted value opened before it (a record's string ended there), not a name it quotes whole. */
function closesValue(sentence: string): boolean {
  const quote = ENDS_ON_QUOTE.exec(sentence)?.[1];
  return quote !== undefined && sentence.split(quote).length % 2 === 0;
}

/** A prose text's sentence spans, and per sentence whether it is an instruction. */
function instructionsOf(text: string): { spans: [number, number][]; instruction: boolean[] } {
  const spans = sentences(text);
  return { spans, instruction: spans.map(([start, end]) => isInstruction(text.slice(start, end).trim())) };
}

/** Per sentence of a prose text, whether it is an instruction; and whether one names the model or sits inside data, and what the instructions name. */
function readSentences(text: string): { spans: [number, number][]; instruction: boolean[]; toModel: number; embedded: number; targets: string[] } {
  const { spans, instruction } = instructionsOf(text);
  let toModel = 0;
  let embedded = 0;
  const targets: string[] = [];
  let other = false;
  spans.forEach(([start, end], s) => {
    if (!instruction[s]) {
      other = true;
      return;
    }
    if (namesModel(text.slice(start, end).trim()) || namesModel(text.slice(Math.max(0, start - 200), start))) toModel = 1;
    if (other || TAGGED.test(text.slice(Math.max(0, start - 300), start))) embedded = 1;
    const [from, to] = orderExtent(text, spans, instruction, s);
    for (const id of identifiersOf(text.slice(from, to))) targets.push(id);
  });
  return { spans, instruction, toModel, embedded, targets };
}

/**
 * Where instruction sentence s points: the sentence, and the line it wraps onto ("post them to the website\n
 * www.example.com/x.", "…to the account below\nIBAN: DE89…") when it ends without a stop; not past a quoted value the
 * sentence closes (a recipe's last step `reduce\\n"` before its record's `filename: recipe-collection.docx`), though past a
 * name it quotes whole ('to the account of "Muller Immobilien"\nIBAN: …').
 */
function orderExtent(text: string, spans: [number, number][], instruction: boolean[], s: number): [number, number] {
  const [start, end] = spans[s];
  const sentence = text.slice(start, end).trim();
  const next = spans[s + 1];
  const wraps = next && !instruction[s + 1] && !/[.!?:;]$/.test(sentence) && !closesValue(sentence) && /^[^\S\n]*\n[^\S\n]*$/.test(text.slice(end, next[0]));
  return [start, wraps ? next[1] : end];
}

/** The instruction (with the line it wraps onto) that names identifier `id`, as offsets into `full`; undefined where none does. */
export function orderNaming(full: string, id: string): [number, number] | undefined {
  const text = proseOf(full);
  const { spans, instruction } = instructionsOf(text);
  for (let s = 0; s < spans.length; s++) {
    if (!instruction[s]) continue;
    const extent = orderExtent(text, spans, instruction, s);
    if (identifiersOf(text.slice(...extent)).has(id)) return extent;
  }
  return undefined;
}

// An IBAN-like account, as identifiersOf writes one (lower case).
const ACCOUNT = /^[a-z]{2}\d{2}[a-z0-9]{10,30}$/;

/** Whether an identifier names a party money or a message goes to (an e-mail address, an account), not a page, file or name. */
export function isRecipient(id: string): boolean {
  return id.includes('@') || ACCOUNT.test(id);
}

/** Sentence spans: a stop ends one only before whitespace or the end, so "www.example.com" stays whole; a line break ends one. */
function sentences(text: string): [number, number][] {
  const result: [number, number][] = [];
  const n = text.length;
  for (let i = 0; i < n; ) {
    let j = i;
    let blank = true;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === 10 || (isStop(c) && (j + 1 === n || isSpace(text.charCodeAt(j + 1))))) break;
      if (blank && !isSpace(c)) blank = false;
    }
    if (j === i) {
      // A line break, or a stop with nothing before it: no sentence starts here.
      i++;
      continue;
    }
    const end = j < n && text.charCodeAt(j) !== 10 ? j + 1 : j;
    if (!blank || end > j) result.push([i, end]);
    i = end;
  }
  return result;
}

const isStop = (c: number) => c === 46 || c === 33 || c === 63;
/** What `\s` matches in a regular expression (and String.prototype.trim removes). */
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c > 127 && isUnicodeSpace(c));
const isUnicodeSpace = (c: number) =>
  c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** An imperative sentence or clause, "you must ...", or "please <verb> ...". */
function isInstruction(sentence: string): boolean {
  if (opensImperative(sentence)) return true;
  // LEAD_IN needs the sentence's first comma within 61 characters: indexOf rules most sentences out cheaply.
  const comma = sentence.indexOf(',');
  const lead = comma > 0 && comma <= 60 ? LEAD_IN.exec(sentence) : null;
  if (lead && opensImperative(sentence.slice(lead[0].length))) return true;
  if (sentence.includes(':')) for (const colon of sentence.matchAll(AFTER_COLON)) if (opensImperative(sentence.slice(colon.index! + colon[0].length))) return true;
  if (YOU_MUST.test(sentence)) return true;
  const please = PLEASE_VERB.exec(sentence);
  return please !== null && (IMPERATIVE_VERBS.has(please[1].toLowerCase()) || IMPERATIVE_VERBS.has((please[2] ?? '').toLowerCase()));
}

/** Whether a text opens with an imperative verb and something after it. */
function opensImperative(sentence: string): boolean {
  const opening = OPENING.exec(sentence)!;
  const first = opening[1].toLowerCase();
  // More than the verb alone: a space and something after it; a verb that labels what follows ("Note: ...") orders
  // nothing, nor does a key named after one (`start_time: 2024-05-15 12:30:00` in a calendar tool's result).
  if (IMPERATIVE_VERBS.has(first) && !KEY_AFTER_VERB.test(sentence.slice(opening[0].length))) {
    SPACE_THEN_WORD.lastIndex = opening[0].length - first.length;
    return SPACE_THEN_WORD.test(sentence);
  }
  return false;
}
