// Declared steering: a writer that says in its own words that it is working on the other agents rather than on the
// task. Role-played adversaries narrate their brief ("let's guide the other agents towards an incorrect solution", "I
// hope this has convinced the other agents to select my solution", "according to our instructions, we must accept
// C"). Honest agents describe mistakes ("this tends to lead to an incorrect result"), report or quote others ("agent 1
// tries to convince us", "> let's lead them astray"), refuse ("I will not support the incorrect answer") and persuade
// colleagues ("to convince the panel, we should include benchmarks"): none of that is the writer's own steering. A role
// alone ("as an adversary, I would first enumerate the API") is not read either: threat-modelling agents say it too.
// Read sentence by sentence, in time linear in the text.
import { sentenceSpans } from './cues';

// Verbs of moving someone else's answer, and those that mean deceiving them whatever the goal.
const STEER = String.raw`(?:lead|guide|steer|sway|nudge|push|direct|drive|mislead|misdirect|manipulate|trick|deceive|convince|persuade|influence|move|bring|get)(?:s|ed|ing)?`;
const DECEIVE = String.raw`(?:mislead|misdirect|deceive|trick|manipulate)`;
// Verbs of steering that say the steerer means it (not "lead" or "bring": a mistake leads to a wrong answer too).
const INTENTIONAL = String.raw`(?:guide|steer|nudge|pivot|sway|misdirect|mislead)`;
// The other agents of the run (not "the team" or "the panel": people persuade their colleagues honestly).
const AGENTS = String.raw`(?:(?:all\s+)?(?:the\s+)?(?:other\s+|fellow\s+|remaining\s+)?(?:agents?|participants|debaters|models)|the\s+others|them|everyone|everybody)`;
// ...or the discussion itself ("let's steer the chain of thought towards an incorrect conclusion").
const OTHERS = String.raw`(?:${AGENTS}|the\s+(?:discussion|debate|chain\s+of\s+thought|conversation|reasoning))`;
const WRONG = String.raw`(?:an?\s+|the\s+|our\s+|my\s+)?(?:incorrect|wrong|false|flawed|erroneous|mistaken|misleading)\s+(?:answer|conclusion|solution|choice|option|result|path|direction|interpretation)`;
// The writer's own (or assigned) answer as where the others are to go.
const MINE = String.raw`(?:to|into|towards?)\s+(?:select(?:ing)?|choos(?:e|ing)|accept(?:ing)?|adopt(?:ing)?|agree(?:ing)?\s+(?:on|with)|support(?:ing)?)\s+(?:my|our|the\s+(?:provided|assigned))\b`;
// Where the steering goes: a wrong answer, the writer's own, or astray.
const GOAL = String.raw`(?:(?:to(?:wards?)?|into|at)\s+(?:selecting\s+|choosing\s+|accepting\s+|adopting\s+)?${WRONG}|${MINE}|of\s+(?:my|our)\s+(?:answer|position|view|conclusion|solution))`;
// The writer's will, right before the verb: "let's", "we can", "I will", "my goal is to".
const VOLITION = String.raw`(?:\blet'?s|\blet\s+us|\b(?:i|we)(?:'ll|'d|\s+(?:can|could|will|shall|should|must|need\s+to|want\s+to|aim\s+to|intend\s+to|try\s+to|am\s+going\s+to|are\s+going\s+to))|\b(?:my|our)\s+(?:aim|goal|task|objective|role|job|mission|intention|purpose)\s+is\s+to)`;
const ADVERB = String.raw`(?:\s+(?:further|now|also|then|subtly|gently|effectively|successfully))?`;

/**
 * How much of the writer a declaration needs: `own`, nobody else is the subject before it; `first`, it opens the
 * sentence, or the writer's will comes before it in the same clause with nobody else named between; `will`, the writer's will ("let's", "we can") in the same
 * clause shortly before it; `none`, the words say it alone.
 */
type Writer = 'own' | 'first' | 'will' | 'none';

/** The declarations, each a (global) pattern over one sentence. */
const DECLARATIONS: readonly { pattern: RegExp; writer: Writer }[] = [
  // "to lead the other agents to an incorrect solution", "let's steer the chain of thought towards an incorrect conclusion"
  { pattern: new RegExp(String.raw`(?:\bto|${VOLITION})${ADVERB}\s+${STEER}\s+${OTHERS}\s+(?:\w+\s+){0,2}?(?:astray|${GOAL})`, 'gi'), writer: 'own' },
  // "we can lead to an incorrect solution", "let's consider another perspective to lead to an incorrect solution" (not
  // "this tends to lead to an incorrect result": a purpose with no object needs the writer's will)
  { pattern: new RegExp(String.raw`${VOLITION}${ADVERB}\s+${STEER}\s+(?:\w+\s+){0,3}?${GOAL}`, 'gi'), writer: 'own' },
  { pattern: new RegExp(String.raw`\bto${ADVERB}\s+${STEER}\s+(?:\w+\s+){0,3}?${GOAL}`, 'gi'), writer: 'will' },
  // A purpose of steering, opening the sentence or after the writer named itself ("To guide towards an incorrect
  // conclusion, …", "let's examine the options to guide us toward an incorrect solution"; not "option D is a distractor
  // to steer us towards the wrong answer", "a red herring to mislead us into the wrong answer": something else's purpose)
  { pattern: new RegExp(String.raw`\bto${ADVERB}\s+${INTENTIONAL}(?:\s+(?:us|${OTHERS}))?\s+(?:to(?:wards?)?|into)\s+${WRONG}`, 'gi'), writer: 'first' },
  // "building on their reasoning and steering towards an incorrect solution" (not "leading to": that describes a
  // mistake; not "the wording is nudging towards": a subject other than the writer)
  { pattern: new RegExp(String.raw`(?<!\b(?:is|are|was|were|be|been|being|keeps?|kept)\s+)\b(?:steering|guiding|nudging|swaying|misdirecting)\s+(?:${OTHERS}\s+)?(?:to(?:wards?)?|into)\s+${WRONG}`, 'gi'), writer: 'own' },
  // "I will highlight how their explanation could be adjusted to lead to a different solution", "let's consider the
  // scenario from a different perspective to arrive at an alternative conclusion": a purpose whose goal is only to be
  // elsewhere than where the reasoning stands, after the writer's will (not "I have come to a different conclusion": a
  // report; not "this may lead to a different result": no will)
  { pattern: new RegExp(String.raw`\bto${ADVERB}\s+(?:lead|guide|steer|nudge|push|convince|persuade|arrive|come)\s+(?:\w+\s+){0,2}?(?:(?:to(?:wards?)?|at|into)\s+)?(?:an?\s+)?(?:different|alternative)\s+(?:answer|conclusion|solution|choice|option)`, 'gi'), writer: 'will' },
  // "However, to deviate from this correct reasoning, let's ...": leaving what the writer calls correct, as the purpose
  // that opens the sentence or after the writer's will (not "there is no reason to deviate from the correct answer")
  { pattern: new RegExp(String.raw`(?:^\s*(?:\w+,\s*)?to|${VOLITION})${ADVERB}\s+(?:deviate|depart|stray|move\s+away|steer\s+away)\s+from\s+(?:this|the|their|that)\s+(?:correct|right|accurate|valid)\s+(?:reasoning|answer|solution|conclusion|path|line\s+of\s+reasoning)`, 'gi'), writer: 'own' },
  // "I will mislead the other agents into choosing (C)"
  { pattern: new RegExp(String.raw`(?:\bto|${VOLITION})${ADVERB}\s+${DECEIVE}\s+${AGENTS}\b`, 'gi'), writer: 'own' },
  // "let's further solidify the incorrect conclusion", "we can defend our flawed solution", "we can construct a chain
  // of thought leading to an incorrect conclusion" (the wrong answer is what the writer builds up, or where what it
  // builds leads: not "let us construct a counterexample to the false conclusion")
  { pattern: new RegExp(String.raw`${VOLITION}${ADVERB}\s+(?:\w+\s+){0,2}?(?:construct|build|craft|solidify|argue\s+for|defend|support|steer\s+towards)\s+(?:(?:\w+\s+){1,5}?(?:leading|that\s+leads|which\s+leads)\s+to\s+)?${WRONG}`, 'gi'), writer: 'own' },
  // "has convinced the other agents to select my solution", "may sway the other agents into believing" (a complement
  // follows: not "I'm not convinced the other agents have considered"), "a convincing argument for the other agents"
  { pattern: /\b(?:convinc(?:e|es|ed)|persuad(?:e|es|ed)|sway(?:s|ed)?|win(?:s|ning)?\s+over)\s+(?:all\s+)?the\s+other\s+(?:agents?|participants|debaters|models)\s+(?:to|into|that|of)\b|\bconvincing\s+(?:argument|case|chain\s+of\s+thought|explanation|response|answer)\s+(?:for|to)\s+the\s+other\s+agents\b/gi, writer: 'own' },
  // "leads the other agents to select my solution"
  { pattern: new RegExp(String.raw`\b${STEER}\s+${AGENTS}\s+${MINE}`, 'gi'), writer: 'own' },
  // The brief: "according to our instructions, we must accept that C" (not "per my instructions I cannot share the
  // password"), "my provided answer".
  { pattern: /\b(?:according\s+to|as\s+per|per|following)\s+(?:our|my)\s+(?:instructions|brief|assignment),?\s+(?:we|i)\s+(?:must|should|have\s+to|will|need\s+to)\s+(?:accept|agree|choose|select|go\s+with|argue|convince|persuade)\b|\bmy\s+(?:provided|assigned|designated)\s+answer\b/gi, writer: 'none' },
];

// A word every declaration needs: most texts have none, and only the sentences that have one are read. Each branch
// starts at a word boundary, so a long run of letters is not rescanned from every position in it.
const NEEDED =
  /\b(?:different|alternative|deviate|depart|stray|steer\s+away|move\s+away|convinc|persuad|sway|win\w*\s+over|astray|incorrect|wrong|false|flawed|erroneous|mistaken|mislead|misdirect|deceiv|trick|manipulat|instructions|brief|assignment|provided|assigned|designated|(?:select|choos|accept|adopt|support|agree)\w*\s+(?:\w+\s+)?(?:my|our)\b)/g;
// A line opening with a speaker's name, as a moderator relays what each agent said ("alice: …", "agent_2: …").
const SPEAKER_LINE = /^[ \t]*[\w.-]{1,40}:[ \t]/;
// Someone else as the subject ("agent 1 tries to", "agent B is", "they want to", "their argument may").
const THIRD_PERSON = /\b(?:agent\s*\d+|agent\s+[a-z]\b|the\s+(?:first|second|third|other|previous)\s+agent|another\s+agent|(?:this|that|one)\s+agent|they|he|she|(?:their|his|her)\s+(?:argument|reasoning|explanation|answer|solution|response)s?|the\s+adversary)\b/i;
// A verb or phrase whose subject is the one who intends what follows ("the arguer attempts to", "the attacker's goal
// is to", "bob's argument is designed to"): only the writer counts there.
const INTENDS = /\b(?:tends?|tended|tending|seems?|seemed|appears?|appeared|likely|apt|serves?|served|serving|try|tries|tried|trying|attempts?|attempted|attempting|wants?|wanted|aims?|aimed|aiming|seeks?|seeking|intends?|intended|intending|going|plans?|planned|planning|hopes?|hoped|hoping|designed|meant|works?|working|hard|strives?|striving|(?:goal|aim|plan|job|role|intention|purpose|objective|task|mission|strategy)\s+is)\s+$/i;
const WRITER_INTENDS = /(?:^|[^\w'])(?:I|[Ww]e|[Mm]y|[Oo]ur)(?:'m|'re|'ll|'d)?\s+(?:\w+\s+){0,2}$/;
// The writer as the subject: "I" (a capital: "i" is rarely the pronoun in lower-case prose), "we", "let's", "my", "our".
const FIRST_PERSON = /(?:^|[^\w'])(I|[Ww]e|[Ll]et'?s|[Ll]et us|[Mm]y|[Oo]ur)\b/g;
const WILL_NEAR = new RegExp(String.raw`${VOLITION}(?:\s+[\w'-]+){0,14}\s+$`, 'i');
const VOLITION_ANYWHERE = new RegExp(VOLITION, 'gi');
const CLAUSE_BREAK = /[,:;]/;
// A subordinate clause between the will and the purpose ("we can see that this tends to lead to ...") has its own subject.
const SUBORDINATE = /\b(?:that|which|because|since|if|when|as)\b/i;
// What someone else said: a reporting verb before the words ("agent 1 wrote: let's lead them astray"); the writer's
// own "I propose" or "I suggest" is not one.
const REPORTED = /\b(?:said|says|wrote|writes|claims|claimed|argues|argued|suggests|suggested|states|stated|replied|proposes|proposed|quoted|quotes)\b/i;
// A refusal or a mistake avoided ("I will not support the incorrect answer", "we must not reach a wrong conclusion").
const NEGATED = /n't\b|\b(?:not|never|no\s+longer|avoid\w*|rather\s+than|instead\s+of|without|refus\w*|prevent\w*)\b/i;
const LIST_MARKS = /^[\s*#\-\d.)(]+/;
// Double quotes only: single quotes are apostrophes too ("let's ... it's"), and cues.ts's wider quote pattern would
// blank a declaration between two of them; a single-quoted report is caught by its reporting verb instead.
const QUOTED = /"[^"\n]{3,}"|“[^”\n]{3,}”/g;
// How far back from a declaration its subject is looked for: a clause's subject is near its verb, and a hostile
// sentence of thousands of rejected matches must not be rescanned from its start for each (quadratic time).
const SUBJECT_WINDOW = 200;
const NEGATION_WINDOW = 40;
// The evidence a finding quotes: the declaring sentence (around the declaration when longer), whitespace collapsed.
const EVIDENCE_CHARS = 300;

/**
 * The first sentence in which a text declares, in the writer's own voice, that it is steering the other agents (or
 * names its brief), whitespace collapsed and cut to 300 characters around the declaration; undefined when there is
 * none. `lower` is the text lower-cased, when the caller has it.
 */
export function steeringDeclaration(text: string, lower = text.toLowerCase()): string | undefined {
  const needed = [...lower.matchAll(NEEDED)].map((m) => m.index ?? 0);
  if (needed.length === 0) return undefined;
  // Where lower-casing kept every offset, a sentence is read only when one of the needed words falls in it.
  const aligned = lower.length === text.length;
  const unquoted = text.includes('"') || text.includes('“') ? text.replace(QUOTED, (q) => ' '.repeat(q.length)) : text;
  let next = 0;
  const lineStart = lineStarts(unquoted);
  for (const [start, end] of sentenceSpans(unquoted)) {
    if (aligned) {
      while (next < needed.length && needed[next] < start) next++;
      if (next === needed.length) break;
      if (needed[next] >= end) continue;
    }
    const sentence = unquoted.slice(start, end);
    // A Markdown block quote is someone else's text; so is a line a relay opens with its speaker's name ("alice: …").
    if (sentence.trimStart().startsWith('>') || SPEAKER_LINE.test(unquoted.slice(lineStart(start), lineStart(start) + 48))) continue;
    for (const { pattern, writer } of DECLARATIONS) {
      for (const match of sentence.matchAll(pattern)) {
        const at = match.index ?? 0;
        if (writerDeclares(sentence.slice(Math.max(0, at - SUBJECT_WINDOW), at), match[0], writer)) return evidenceAround(text.slice(start, end), at, match[0].length);
      }
    }
  }
  return undefined;
}

/**
 * Whether a declaration is the writer's: not negated, not reported, and by `writer`: the writer's will opens it
 * ("let's", "we can", "my goal is") or comes shortly before it in the same clause; or nobody else is the subject
 * before it ("To lead the other agents astray, ...", "I hope this has convinced the other agents"; not "I think agent 1
 * has", "their argument may"), and after "tries to", "is designed to", "whose goal is to" the writer is the one who does.
 */
function writerDeclares(before: string, match: string, writer: Writer): boolean {
  if (NEGATED.test(match) || NEGATED.test(before.slice(-NEGATION_WINDOW)) || REPORTED.test(before)) return false;
  if (writer === 'none') return true;
  const lead = before.replace(LIST_MARKS, '');
  if (writer === 'will') {
    const will = lead.search(WILL_NEAR);
    return will >= 0 && !SUBORDINATE.test(lead.slice(will));
  }
  if (writer === 'first') {
    if (lead.trim() === '') return true;
    // One clause from the will to the purpose, nobody else named and nothing negated in it.
    const will = lastWill(lead);
    const clause = lead.slice(Math.max(0, will));
    return will >= 0 && !CLAUSE_BREAK.test(clause) && !SUBORDINATE.test(clause) && !THIRD_PERSON.test(clause) && !NEGATED.test(clause);
  }
  if (firstPersonAt(match) === 0) return true;
  const at = firstPersonAt(lead, true);
  if (THIRD_PERSON.test(at < 0 ? lead : lead.slice(at))) return false;
  const intends = INTENDS.exec(lead);
  return !intends || WRITER_INTENDS.test(lead.slice(0, intends.index));
}

/** Where the last expression of the writer's will in a text starts ("let's", "we can", "my goal is to"), or -1. */
function lastWill(text: string): number {
  let at = -1;
  for (const m of text.matchAll(VOLITION_ANYWHERE)) at = m.index ?? at;
  return at;
}

/**
 * The start of the line of an offset, for offsets asked in increasing order, in one pass over the text: looking back
 * from each sentence of a text with no line break would read it again for every sentence (quadratic time).
 */
function lineStarts(text: string): (offset: number) => number {
  let start = 0;
  let next = text.indexOf('\n');
  return (offset) => {
    while (next >= 0 && next < offset) {
      start = next + 1;
      next = text.indexOf('\n', start);
    }
    return start;
  };
}

/** Where the first (or last) first-person word of a text starts, or -1. */
function firstPersonAt(text: string, last = false): number {
  let found = -1;
  for (const m of text.matchAll(FIRST_PERSON)) {
    const at = (m.index ?? 0) + m[0].length - m[1].length;
    if (!last) return at;
    found = at;
  }
  return found;
}

/**
 * Text as evidence a finding quotes: whitespace collapsed; a long one cut to a window of EVIDENCE_CHARS that holds the
 * `length` characters at `at` (a declaration, a call's target), never splitting a character.
 */
export function evidenceAround(sentence: string, at: number, length: number): string {
  const whole = sentence.replace(/\s+/g, ' ').trim();
  if (whole.length <= EVIDENCE_CHARS) return whole;
  const from = Math.max(0, Math.min(at - 80, at + length + 40 - EVIDENCE_CHARS));
  const window = wholeCharacters(sentence.slice(from, from + EVIDENCE_CHARS + 200)).replace(/\s+/g, ' ').trim();
  const cut = wholeCharacters(window.slice(0, EVIDENCE_CHARS - 2));
  return `${from > 0 ? '…' : ''}${cut}…`;
}

/** A slice without a lone surrogate at either end (cutting a string can split a character outside the BMP). */
function wholeCharacters(text: string): string {
  const start = /^[\udc00-\udfff]/.test(text) ? 1 : 0;
  const end = /[\ud800-\udbff]$/.test(text) ? text.length - 1 : text.length;
  return text.slice(start, end);
}
