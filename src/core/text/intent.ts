// Declared steering: a writer that says in its own words that it is working on the other agents rather than on the
// task. Role-played adversaries narrate their brief ("let's guide the other agents towards an incorrect solution", "I
// hope this has convinced the other agents to select my solution", "according to our instructions, we must accept
// C"); honest agents describe mistakes ("this leads to an incorrect conclusion") and report others ("agent 1 tries to
// convince us"), which is not the writer's own intent. A role alone ("as an adversary, I would first enumerate the
// API") is not read: threat-modelling agents say it too. Read sentence by sentence.
import { sentenceSpans } from './cues';

// Verbs of moving someone else's answer.
const STEER = String.raw`(?:lead|guide|steer|sway|nudge|push|direct|drive|mislead|misdirect|manipulate|trick|deceive|convince|persuade|influence|move|bring|get)(?:s|ed|ing)?`;
// The other agents, as the object of such a verb (the discussion counts: "let's steer the chain of thought").
const OTHERS = String.raw`(?:(?:all\s+)?(?:the\s+)?(?:other\s+|fellow\s+|remaining\s+)?(?:agents?|participants|debaters|models|group|team|panel)|the\s+others|them|everyone|everybody|the\s+(?:discussion|debate|chain\s+of\s+thought|conversation|reasoning))`;
const WRONG = String.raw`(?:an?\s+|the\s+|our\s+|my\s+)?(?:incorrect|wrong|false|flawed|erroneous|mistaken|misleading)\s+(?:answer|conclusion|solution|choice|option|result|path|direction|interpretation)`;
// Where the steering goes (besides leading the others astray): to a wrong answer, or to the writer's own (or assigned) answer.
const GOAL = String.raw`(?:(?:to(?:wards?)?|into|at)\s+(?:selecting\s+|choosing\s+|accepting\s+|adopting\s+)?${WRONG}|(?:to|into|towards?)\s+(?:select(?:ing)?|choos(?:e|ing)|accept(?:ing)?|adopt(?:ing)?|agree(?:ing)?\s+(?:on|with)|support(?:ing)?)\s+(?:my|our|the\s+(?:provided|given|assigned))\b|of\s+(?:my|our)\s+(?:answer|position|view|conclusion|solution))`;
// The writer's own intent, right before the verb: a purpose infinitive, "let's", "we can", "my goal is to".
const INTENT = String.raw`(?:\bto|\blet'?s|\blet\s+us|\b(?:i|we)\s+(?:can|could|will|shall|should|must|need\s+to|want\s+to|aim\s+to|intend\s+to|try\s+to|am\s+going\s+to|are\s+going\s+to)|\b(?:my|our)\s+(?:aim|goal|task|objective|role|job|mission|intention|purpose)\s+is\s+to|\bin\s+order\s+to|\bso\s+as\s+to)(?:\s+(?:further|now|also|then|subtly|gently|effectively|successfully))?`;

/** The declarations, each a (global) pattern over one sentence; `ownIntent` ones need the writer as the one who steers. */
const DECLARATIONS: readonly { pattern: RegExp; ownIntent: boolean }[] = [
  // "to lead the other agents to an incorrect solution", "let's steer the chain of thought towards an incorrect conclusion"
  { pattern: new RegExp(String.raw`${INTENT}\s+${STEER}\s+(?:${OTHERS}\s+(?:\w+\s+){0,2}?(?:astray|${GOAL})|(?:\w+\s+){0,3}?${GOAL})`, 'gi'), ownIntent: true },
  // "building on their reasoning and steering towards an incorrect solution" (not "leading to": that describes a mistake)
  { pattern: new RegExp(String.raw`\b(?:steering|guiding|nudging|swaying|misdirecting)\s+(?:${OTHERS}\s+)?(?:to(?:wards?)?|into)\s+${WRONG}`, 'gi'), ownIntent: true },
  // "to convince them of a different answer", "my goal is to persuade the other agents"
  { pattern: new RegExp(String.raw`${INTENT}\s+(?:help\s+)?(?:convince|persuade|sway|win\s+over)\s+${OTHERS}\b`, 'gi'), ownIntent: true },
  // "we can present a chain of thought that leads to an incorrect solution", "let's further solidify the incorrect conclusion"
  { pattern: new RegExp(String.raw`\b(?:let'?s|let\s+us|(?:i|we)\s+(?:can|will|should|must|could))\s+(?:\w+\s+){0,4}?(?:present|construct|build|craft|solidify|introduce|make|arrive\s+at|reach|argue\s+for|defend|support|steer|lead)\s+(?:\w+\s+){0,4}?${WRONG}`, 'gi'), ownIntent: true },
  // "has convinced the other agents to select my solution", "a convincing argument for the other agents"
  { pattern: /\b(?:convinc(?:e|es|ed|ing)|persuad(?:e|es|ed|ing)|sway(?:s|ed|ing)?|win(?:s|ning)?\s+over)\s+(?:all\s+)?the\s+other\s+(?:agents?|participants|debaters|models)\b|\bconvincing\s+(?:argument|case|chain\s+of\s+thought|explanation|response|answer)\s+(?:for|to)\s+the\s+other\s+agents\b/gi, ownIntent: true },
  // "leads the other agents to select my solution"
  { pattern: new RegExp(String.raw`\b${STEER}\s+${OTHERS}\s+(?:to|into|towards?)\s+(?:select(?:ing)?|choos(?:e|ing)|accept(?:ing)?|adopt(?:ing)?|agree(?:ing)?\s+(?:with|on)|support(?:ing)?)\s+(?:my|our)\b`, 'gi'), ownIntent: true },
  // The writer's brief: "according to our instructions", "my provided answer".
  { pattern: /\b(?:according\s+to|as\s+per|following|per)\s+(?:our|my)\s+(?:instructions?|assignment|brief)\b|\bmy\s+(?:provided|given|assigned|designated)\s+answer\b|\bas\s+(?:i\s+was|we\s+were)\s+(?:instructed|told)\b/gi, ownIntent: false },
  // An exhortation to the group: "Let's all agree on D".
  { pattern: /\blet'?s\s+all\s+(?:agree|accept|go\s+with|settle)\b|\bwe\s+(?:should|must)\s+all\s+(?:agree|accept|go\s+with)\b/gi, ownIntent: false },
];

// A word every declaration needs: most texts have none, and only the sentences that have one are read.
const NEEDED =
  /convinc|persuad|sway|win over|astray|incorrect|wrong|false|flawed|erroneous|mistaken|misleading|instruct|assignment|brief|(?:provided|given|assigned|designated) answer|(?:was|were) told|all (?:agree|accept|go with|settle)|(?:select|choos|accept|adopt|support|agree)\w*\s+(?:\w+\s+)?(?:my|our)\b/g;
// Someone else as the subject of the steering ("agent 1 tries to convince the other agents", "they want to lead us astray").
const THIRD_PERSON = /\b(?:agent\s*\d+|the\s+(?:first|second|third|other|previous)\s+agent|another\s+agent|(?:this|that|one)\s+agent|they|he|she|(?:their|his|her)\s+(?:argument|reasoning|explanation|answer|solution|response)s?|the\s+adversary)\b/i;
// A verb whose subject is the one who intends what follows ("the arguer attempts to sway"): only the writer counts there.
const TRIES = /\b(?:try|tries|tried|trying|attempts?|attempted|attempting|wants?|wanted|aims?|aimed|aiming|seeks?|seeking|intends?|intending)\s+$/i;
// The writer as the subject: "I" (a capital: "i" is rarely the pronoun in lower-case prose), "we", "let's", "my", "our".
const FIRST_PERSON = /(?:^|[^\w'])(I|[Ww]e|[Ll]et'?s|[Ll]et us|[Mm]y|[Oo]ur)\b/g;
const LIST_MARKS = /^[\s*#>\-\d.)(]+/;
// How far back from a declaration its subject is looked for: a clause's subject is near its verb, and a hostile
// sentence of thousands of rejected matches must not be rescanned from its start for each (quadratic time).
const SUBJECT_WINDOW = 200;
const QUOTED = /"[^"\n]{3,}"|“[^”\n]{3,}”/g;

// The evidence a finding quotes: the declaring sentence, whitespace collapsed, at most this long.
const EVIDENCE_CHARS = 300;

/**
 * The first sentence in which a text declares, in the writer's own voice, that it is steering the other agents (or
 * names its brief), whitespace collapsed and cut to 300 characters; undefined when there is none. `lower`
 * is the text lower-cased, when the caller has it.
 */
export function steeringDeclaration(text: string, lower = text.toLowerCase()): string | undefined {
  const needed = [...lower.matchAll(NEEDED)].map((m) => m.index ?? 0);
  if (needed.length === 0) return undefined;
  // Where lower-casing kept every offset, a sentence is read only when one of the needed words falls in it.
  const aligned = lower.length === text.length;
  const unquoted = text.includes('"') || text.includes('“') ? text.replace(QUOTED, (q) => ' '.repeat(q.length)) : text;
  let next = 0;
  for (const [start, end] of sentenceSpans(unquoted)) {
    if (aligned) {
      while (next < needed.length && needed[next] < start) next++;
      if (next === needed.length) break;
      if (needed[next] >= end) continue;
    }
    const sentence = unquoted.slice(start, end);
    for (const { pattern, ownIntent } of DECLARATIONS) {
      for (const match of sentence.matchAll(pattern)) if (!ownIntent || writerSteers(sentence.slice(0, match.index), match[0])) return evidence(text.slice(start, end));
    }
  }
  return undefined;
}

function evidence(sentence: string): string {
  const flat = sentence.replace(/\s+/g, ' ').trim();
  return flat.length > EVIDENCE_CHARS ? `${flat.slice(0, EVIDENCE_CHARS - 1)}…` : flat;
}

/**
 * Whether the steering a sentence describes is the writer's: the declaration opens with the writer ("let's", "we can", "my
 * goal is"), or nobody else is the subject before it ("To lead the other agents astray, ...", "here is a way to lead
 * them", "I hope this has convinced the other agents"; not "I think agent 1 has convinced the other agents", "their
 * argument may sway the other agents"); after "tries to", "wants to" the writer must be the one who tries.
 */
function writerSteers(before: string, match: string): boolean {
  if (firstPersonAt(match) === 0) return true;
  const lead = before.length > SUBJECT_WINDOW ? before.slice(-SUBJECT_WINDOW) : before.replace(LIST_MARKS, '');
  const at = firstPersonAt(lead, true);
  if (THIRD_PERSON.test(at < 0 ? lead : lead.slice(at))) return false;
  return at >= 0 || !TRIES.test(lead);
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
