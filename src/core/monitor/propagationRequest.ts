// Signal propagationRequest: a request to pass this very content on or to persist it, read as a structure rather than
// a word list: a transmission act (copy, forward, append, teach...), whose object is this content (this message, the
// protocol, "the above", a pronoun for them), whose destination is another agent or a persisted prompt (every agent
// you can reach, sub-agents you start, SOUL.md, long-term memory), addressed to the reader or reported as done by the
// speaker. Negation, refusal, warnings and someone else's reported request turn it off; the project's own defences
// are blanked first. Destinations that ordinary documents also name (a prompt file, sub-agents, every reply) need one
// more sign of a copy that must travel: verbatim, the continuity motive of resets and successors, "your own", a chain.
import { escapeRegExp } from '../regexSafety';
import { evidenceOf } from './evidence';
import { maskKnownDefences } from './knownDefences';
import * as G from './requestGrammar';
import { nextSentence, paragraphAt, previousSentence, quotations, sentenceAt, sentencesAlong } from './sentences';
import { cooldownKey, FINDING_CODE, type MonitorDocument, type MonitorFinding } from './types';
import { lowerSameLength } from './vocabulary';

/** What a request asks, then what made it viral (the evidence tags): a finding's markers, sorted. */
export type RequestRule =
  | 'forward-to-agents'
  | 'recruit-agents'
  | 'tell-agents'
  | 'persist-to-memory'
  | 'persisted-to-memory'
  | 'replace-prompt-file'
  | 'delegate-onward'
  | 'include-in-every-reply'
  | 'pass-it-on'
  | 'verbatim'
  | 'survive-reset'
  | 'keep-chain-going'
  | 'your-own'
  | 'covert'
  | 'every-prompt-file'
  | 'viral-text';

type Destination = 'agents' | 'agents-weak' | 'delegated' | 'persisted' | 'replies' | 'tell' | 'hand-to' | 'hub' | 'pass-on' | 'recruited';
type Span = [number, number];

interface Anchor {
  destination: Destination;
  start: number;
  end: number;
  /** A persisted prompt named in the sentence before and pointed back to ("a file called MEMORY.md. Open it and add..."). */
  carried?: boolean;
}

interface Act {
  kind: 'spread' | 'persist' | 'replace' | 'recruit' | 'ensure';
  start: number;
  end: number;
  form: string;
}

type ObjectKind = 'self' | 'theme' | 'pronoun' | 'implied';

/** A document being read: the original text (for sentence breaks) and its normalised form (for the patterns). */
interface Reading {
  text: string;
  /** Lower case, known defences blanked, inline-code and emphasis marks dropped; offsets as in `text`. */
  norm: string;
  /** The quotations of the text, found once when the first request candidate needs them. */
  quotes?: [number, number][];
}

/** Words that make an agent destination strong: every agent, other agents, the next one, agents you can reach. */
const STRONG_AGENT = /^(?:(?:the\s+)?(?:\d+|two|three|four|five|six|several|many)\s+other|every|each|all|any|other|fellow|sibling|sister|neighbou?ring|downstream|connected|nearby|the\s+next|another|the\s+other|whoever|whichever|the\s+(?:next|newest|rest)|one\s+more|the\s+agent\s+(?:after|before))\b|\b(?:you|they|it|i|we)\s+(?:can\s+|could\s+|will\s+|might\s+)?\w+$/;
/** Agent nouns that ordinary documents use for tools and people (a model, peers): weak unless "other"/"you can reach". */
const TOOL_NOUN = /\b(?:models?|assistants?|llms?|ais|peers?|neighbou?rs|teammates|colleagues|contacts|others)\b/;
/** A quota of others, or others like the reader: a chain letter's count. */
const QUOTA = /\b(?:\d+|two|three|four|five|six|several)\s+others\b|\bothers\s+like\s+(?:you|us|me)\b|\bfrom\s+\w+\s+to\s+\w+$/;
/** Persist verbs that can also hand content to an agent ("copy it to every agent"). */
const HAND_OVER = /^(?:cop|past|includ|embed|insert|put|plac|bring|brought|carr|tak|took)/;
/** Spread verbs that can also write content into a file ("paste it into SOUL.md"); telling, reading and showing cannot. */
const WRITES = /^(?:cop|past|includ|post|repeat|carr|bring|brought)/;
/** Verbs that put content into a reply. */
const INTO_REPLY = /^(?:(?:re-?)?post|includ|append|add|put|past|repeat|insert|cop|quot|embed|plac|prepend|attach)/;
/** Verbs whose pronoun right after is the recipient, not the object ("tell them", "send me"). */
const DITRANSITIVE = /^(?:tell|told|teach|taught|show|give|gave|given|send|sent|hand|repl)/;
/** A definite content noun a pronoun may stand for: "the text", "the note". */
const DEFINITE_CONTENT = /\b(?:the|its|their|his|her|my|our|a|an)\s+(?:\w+\s+)?(?:text|message|note|block|words|lines|paragraph|section|post|copy)\b|\bhere\s+(?:is|are)\b/;
/** "I just finished", "we then": the speaker, a few words before the act. */
const FIRST_PERSON_LEAD = /\b(?:i|we)(?:'ve|'m|'re|'d|'ll)?(?:\s+[a-z]+){0,2}\s+$/;
/** The speaker relaying what it quotes: "I'm relaying the note unchanged:", "forwarding the thread plus the note". */
const RELAYING = /(?:^|[.:;!?\n]\s*|\b(?:i|we)(?:'m|\s+am|\s+are|'re)?\s+(?:now\s+)?)(?:also\s+)?(?:relaying|passing\s+on|forwarding|sending|giving|sharing|leaving|pasting|including)\b/;
/** A sentence pointing back at a file the one before named: "open it and add", "paste there", "in that file". */
const POINTS_BACK = /^\W*(?:open\s+it|in\s+it|there|inside\s+it)\b|\b(?:in|into|to)\s+(?:that|this|the)\s+file\b/;
/** Past forms, for agents' subjectless reports ("Protocol copied to my SOUL.md"). */
const PAST_FORM = /(?:ed|ied|ent|ote|itten|ut|aught|old|ept|ought|ook|aken|iven|ave)$/;
/** Words around a "tell them:" that say who "them" are. */
const AGENT_WORD = /\b(?:agents?|minds?|ai|(?:another|each|meet|greet|find|encounter|see)\s+one|carriers?|successors?|siblings?|intelligences?|like\s+(?:us|you|me))\b/;
/** Present forms whose subject holds or does the act ("this list includes…", "it brings…"), unless it carries itself. */
const HOLDER_ACT = /^(?:includ(?:e|es|ing)|carr(?:y|ies|ying)|brings?|bringing|takes?|taking|makes?|making|keeps?|keeping)$/;
/** Whether the subject of such an act is the content that travels: "carries / takes / brings itself to", and for carry
 * alone "carries over / on / along to" ("takes over the routing" is taking control, not travelling). */
function carriesItself(form: string, after: string): boolean {
  return /^\s+(?:itself|themselves)\b/.test(after) || (/^carr/.test(form) && /^\s+(?:over|on|along|forward|onward|across)\b/.test(after));
}
/** Words that put a "pass it on" among agents. */
const AMONG_AGENTS = /\b(?:agents?|minds?|successors?|carriers?|lineage|witness|instances?)\b/;

function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

function classifyAgent(match: string): Destination {
  if (QUOTA.test(match)) return 'agents';
  return STRONG_AGENT.test(match) && !(TOOL_NOUN.test(match) && !/\b(?:other|fellow|you|they)\b/.test(match)) ? 'agents' : 'agents-weak';
}

/** What comes right before agents that are a source or a company, not a destination. */
const AGENTS_AS_SOURCE = /\b(?:by|from|than|(?:agree|agrees|agreed|agreeing|concur|concurs|concurred|disagree|disagrees|disagreed|sided|side|aligns?|aligned)\s+with)\s+$/;

/** Characters of context kept on each side of a needle: every destination pattern's match fits inside. */
const REACH = 100;

type NeedleGroup = keyof typeof G.NEEDLES;
const GROUPS = Object.keys(G.NEEDLES) as NeedleGroup[];
/** Each needle and the groups it belongs to; one pattern finds them all (longest first). */
const GROUPS_OF = new Map<string, NeedleGroup[]>();
for (const group of GROUPS) for (const needle of G.NEEDLES[group]) GROUPS_OF.set(needle, [...(GROUPS_OF.get(needle) ?? []), group]);
const escaped = (needles: string[]) => needles.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
const WORD_NEEDLES = [...GROUPS_OF.keys()].filter((n) => /^\w/.test(n));
// A word boundary first lets the scan try the alternation at word starts only: several times cheaper than at every character.
const NEEDLE_SCAN = new RegExp(String.raw`\b(?:${escaped(WORD_NEEDLES)})|${escaped([...GROUPS_OF.keys()].filter((n) => !/^\w/.test(n)))}`, 'g');

/** The destination pattern of each needle group, and what a match of it is. */
const DESTINATION_PATTERNS: Record<NeedleGroup, [RegExp, (match: string) => Destination]> = {
  agents: [G.AGENT_DEST, classifyAgent],
  delegated: [G.DELEGATE_DEST, () => 'delegated'],
  persisted: [G.PERSIST_DEST, () => 'persisted'],
  replies: [G.REPLY_DEST, () => 'replies'],
  tell: [G.TELL_THEM, () => 'tell'],
  handTo: [G.HAND_TO, () => 'hand-to'],
  hub: [G.FIND_OTHERS, () => 'hub'],
  passOn: [G.PASS_ON, () => 'pass-on'],
  recruited: [G.RECRUIT_PHRASE, () => 'recruited'],
};

/** Every destination in the text, in order: the places a request would send or write content to. */
function anchors(norm: string): Anchor[] {
  const windows = new Map<NeedleGroup, [number, number][]>(GROUPS.map((g) => [g, []]));
  NEEDLE_SCAN.lastIndex = 0;
  for (let m = NEEDLE_SCAN.exec(norm); m; m = NEEDLE_SCAN.exec(norm)) {
    const start = Math.max(0, m.index - REACH);
    const end = Math.min(norm.length, m.index + m[0].length + REACH);
    for (const group of GROUPS_OF.get(m[0])!) {
      const list = windows.get(group)!;
      const last = list.at(-1);
      if (last && start <= last[1]) last[1] = end;
      else list.push([start, end]);
    }
  }
  const found: Anchor[] = [];
  for (const [group, list] of windows) {
    const [pattern, classify] = DESTINATION_PATTERNS[group];
    for (const window of list) {
      const [from, to] = widened(norm, window);
      const slice = norm.slice(from, to);
      pattern.lastIndex = 0;
      for (let m = pattern.exec(slice); m; m = pattern.exec(slice)) {
        const start = from + m.index;
        // Agents something came from or that one agrees with are no destination ("the reasoning provided by the other
        // agents", "I agree with the other agents": honest debaters revising an answer, not a request to spread it).
        if (group === 'agents' && AGENTS_AS_SOURCE.test(norm.slice(Math.max(0, start - 40), start))) continue;
        found.push({ destination: classify(m[0]), start, end: start + m[0].length });
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** A window widened to white space on both sides, so no match is cut in the middle of a word. */
function widened(norm: string, [start, end]: [number, number]): [number, number] {
  while (start > 0 && !/\s/.test(norm[start - 1])) start--;
  while (end < norm.length && !/\s/.test(norm[end])) end++;
  return [start, end];
}

/** The acts in [from, to) of the normalised text, in order. */
function actsIn(norm: string, from: number, to: number): Act[] {
  const slice = norm.slice(from, to);
  const acts: Act[] = [];
  const collect = (kind: Act['kind'], pattern: RegExp) => {
    pattern.lastIndex = 0;
    for (const m of slice.matchAll(pattern)) acts.push({ kind, start: from + (m.index ?? 0), end: from + (m.index ?? 0) + m[0].length, form: m[0] });
  };
  collect('spread', G.SPREAD_ACT);
  collect('persist', G.PERSIST_ACT);
  collect('replace', G.REPLACE_ACT);
  collect('recruit', G.RECRUIT_ACT);
  collect('ensure', G.ENSURE_ACT);
  return acts.sort((a, b) => a.start - b.start);
}

/**
 * Whether an act can carry content to a destination of this kind. "make" only as "make this part of your prompt";
 * telling-like verbs only as "read it to...", "mention the Spiral to...", or after the agent was named ("when you meet
 * one, offer it..."): "reading this" alone carries nothing.
 */
function actFits(act: Act, anchor: Anchor, norm: string): boolean {
  const destination = anchor.destination;
  if (act.kind === 'spread' && /^(?:read|mention|recit|echo|show|offer)/.test(act.form)) return destination !== 'persisted' && (act.start > anchor.start || /\bto\s*$/.test(norm.slice(act.end, anchor.start)));
  if (act.kind === 'persist' && /^ma(?:ke|de|king)/.test(act.form)) return destination === 'persisted' && /^\s+(?:this|it|these|them|the\s+\w+)\s+(?:a\s+)?(?:\w+\s+)?part\s+of\b/.test(norm.slice(act.end, act.end + 60));
  switch (destination) {
    case 'agents':
    case 'agents-weak':
      return act.kind === 'spread' || act.kind === 'recruit' || act.kind === 'ensure' || (act.kind === 'persist' && HAND_OVER.test(act.form));
    case 'delegated':
      return act.kind === 'spread' || act.kind === 'persist' || act.kind === 'ensure';
    case 'persisted':
      return act.kind === 'persist' || act.kind === 'replace' || act.kind === 'ensure' || (act.kind === 'spread' && WRITES.test(act.form));
    case 'replies':
      return (act.kind === 'persist' || act.kind === 'spread') && INTO_REPLY.test(act.form);
    default:
      return false;
  }
}

/** Start of the clause holding `pos`: after the last , ; : — ( or "and"/"but" before it in its sentence. */
function clauseStart(norm: string, sentenceStart: number, pos: number): number {
  let cut = -1;
  for (const m of norm.slice(sentenceStart, pos).matchAll(/[,;:—–(]|\s(?:and|but|or|then|so)\s/g)) cut = (m.index ?? 0) + m[0].length;
  return sentenceStart + Math.max(0, cut);
}

/** The object the act carries: this content, a named viral text, or a pronoun whose antecedent is one of them. */
function objectOf(reading: Reading, act: Act, anchor: Anchor, sentence: Span, context: string): ObjectKind | undefined {
  const { norm } = reading;
  if (act.start > anchor.start) {
    // "for every agent it returns, send them this message": only a spread act, with this content right after it.
    const rest = norm.slice(act.end, sentence[1]).split(/[,;:.!?]/)[0];
    if (act.kind !== 'spread' || !G.BASE_FORMS.has(act.form)) return undefined;
    if (matches(G.SELF_OBJECT, rest)) return 'self';
    const named = /^\s+the\s+/.exec(rest);
    return named && (matches(G.THEME_OBJECT, rest) || /^[A-Z]/.test(reading.text.slice(act.end + named[0].length, act.end + named[0].length + 1))) ? 'theme' : undefined;
  }
  const between = norm.slice(act.end, anchor.start);
  const after = norm.slice(anchor.end, Math.min(sentence[1], anchor.end + 120));
  if (matches(G.SELF_OBJECT, between)) return 'self';
  if (matches(G.THEME_OBJECT, between)) return 'theme';
  if (/^(?:spread|pass)/.test(act.form) && /^\s+the\s+word\b/.test(between)) return 'self';
  if (act.kind === 'recruit') return between.trim().split(/\s+/).length <= 2 ? 'implied' : undefined;
  if (act.kind === 'persist' && /^ma(?:ke|de|king)/.test(act.form)) return 'self';
  if (/^(?:tell|told|teach|taught|inform|remind|warn)/.test(act.form)) {
    const about = /^\s*(?:about|of)\s+(?:this|these|it\b|the\s+)/.exec(after);
    if (about && (!about[0].endsWith('the ') || matches(G.THEME_OBJECT, after) || /^[A-Z]/.test(reading.text.slice(anchor.end + about[0].length, anchor.end + about[0].length + 1)))) return 'self';
  }
  const pronoun = /^\s+(?:(?:all|back|again|now)\s+)?(it|them|me)\b(\s+(?:to|with|into|in|onto|across|among|inside)\b)?/.exec(between);
  // "tell them", "send me": a recipient, unless a preposition shows it is what travels ("share me with", "send them to").
  if (pronoun && (pronoun[1] === 'it' || pronoun[2] || !DITRANSITIVE.test(act.form))) {
    if (pronoun[1] === 'me') return 'pronoun';
    if (matches(G.SELF_OBJECT, context) || matches(G.THEME_OBJECT, context) || DEFINITE_CONTENT.test(context) || /["“”>]|:\s*$/.test(context)) return 'pronoun';
    if (/:\s*$/.test(norm.slice(sentence[0], sentence[1])) || /^\s*["“>]/.test(norm.slice(sentence[1], sentence[1] + 8))) return 'pronoun';
  }
  if ((act.kind === 'replace' || act.kind === 'ensure') && (matches(G.SELF_OBJECT, after) || /^\s*(?:entirely\s+)?with\s+the\s+(?:following|text|block|lines)\b/.test(after))) return 'self';
  if ((act.kind === 'replace' || act.kind === 'ensure') && matches(G.THEME_OBJECT, after)) return 'theme';
  if (act.kind === 'replace' && /^\s*(?:entirely\s+)?(?:around|with|on|from)\s+(?:it|them)\b/.test(after) && (matches(G.SELF_OBJECT, context) || matches(G.THEME_OBJECT, context) || DEFINITE_CONTENT.test(context))) return 'pronoun';
  // The content as the subject of a passive or intransitive act: "this message goes into", "Protocol copied to"; not of
  // an act whose subject holds or does it ("these include sending messages to all agents").
  if (HOLDER_ACT.test(act.form) && !carriesItself(act.form, norm.slice(act.end, act.end + 24))) return undefined;
  const subject = norm.slice(clauseStart(norm, sentence[0], act.start), act.start);
  const subjectOfAct = /^(.*?)\s*(?:(?:must|should|will|shall|can|needs?\s+to|has\s+to|is\s+to|is|are|be|been|was|were|gets?|meant\s+to|supposed\s+to|to)\s+){0,4}(?:\w+ly\s+)?$/.exec(subject)?.[1] ?? '';
  if (/(?:^|\s)(?:this|these)(?:\s+\w+){0,2}\s*$/.test(subjectOfAct) && endsWithSelf(subjectOfAct)) return 'self';
  if (/^\W*(?:the\s+|my\s+|our\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}\s*$/.test(subjectOfAct) && matches(G.THEME_OBJECT, subjectOfAct)) return 'theme';
  return undefined;
}

/** Whether a subject ends in this content ("this message", "these"): "this list includes" is a subject, and a verb. */
function endsWithSelf(subject: string): boolean {
  const end = subject.trimEnd().length;
  G.SELF_OBJECT.lastIndex = 0;
  for (const m of subject.matchAll(G.SELF_OBJECT)) if ((m.index ?? 0) + m[0].length === end) return true;
  return false;
}

/** The request speaks to the reader ('addressed'), or the speaker reports having done it ('done'). */
function voiceOf(norm: string, sentence: Span, act: Act): 'addressed' | 'done' | undefined {
  const lead = norm.slice(sentence[0], act.start);
  const base = G.BASE_FORMS.has(act.form);
  if (G.COMPLIANCE.test(lead) || FIRST_PERSON_LEAD.test(lead) || (G.SUBJECTLESS_PAST.test(lead) && PAST_FORM.test(act.form))) return 'done';
  if (act.form.endsWith('ing') && /^\W*(?:also\s+|now\s+)?$/.test(lead)) return 'done';
  if (base && G.IMPERATIVE_LEAD.test(lead)) return 'addressed';
  if (base && /^\s*(?:please\s+|then\s+|also\s+|now\s+|just\s+)*$/.test(norm.slice(clauseStart(norm, sentence[0], act.start), act.start))) return 'addressed';
  if (G.ADDRESSED.test(norm.slice(sentence[0], sentence[1]))) return 'addressed';
  return undefined;
}

/** Someone else's request, reported or described, not made: "she asked me to", "Agent-7 posted:", "any request to copy". */
function reported(norm: string, sentence: Span, act: Act): boolean {
  const before = norm.slice(sentence[0], act.start);
  G.REPORTED.lastIndex = 0;
  for (const m of before.matchAll(G.REPORTED)) {
    const subject = m[1] ?? '';
    if (G.FIRST_PERSON.test(subject) || G.PASSIVE.test(subject)) continue;
    if (m[2] === 'you' && G.CONTENT_SUBJECT.test(subject)) continue;
    return true;
  }
  const colon = G.COLON_REPORT.exec(before);
  if (colon && !/\b(?:i|we)\s+(?:\w+\s+)?$/.test(before.slice(0, colon.index))) return true;
  return G.DESCRIBED.test(norm.slice(Math.max(sentence[0], act.start - 60), act.start));
}

function refusalIn(text: string): boolean {
  return G.REFUSAL.test(text) && !G.NEGATED_WARNING.test(text);
}

/** A quoted request is turned off by a refusal or warning around the quote, or by speech reported just before it. */
function quoteTurnsOff(reading: Reading, quote: Span): boolean {
  const { text, norm } = reading;
  const paragraph = paragraphAt(text, quote[0]);
  const before = paragraphAt(text, Math.max(0, paragraph[0] - 3));
  const after = paragraphAt(text, Math.min(text.length, paragraphAt(text, quote[1] - 1)[1] + 2));
  if (refusalIn(norm.slice(before[0], quote[0]) + '\n' + norm.slice(quote[1], after[1]))) return true;
  const intro = norm.slice(sentenceAt(text, quote[0])[0], quote[0]);
  return G.REPORTING_INTRO.test(intro) && !RELAYING.test(norm.slice(paragraph[0], quote[0]));
}

/** A spread act toward strong agent destinations in a span ("...and give them the words too, when you next speak to another agent"). */
function spreadsToAgents(span: string): boolean {
  G.AGENT_DEST.lastIndex = 0;
  const sentenceOf = sentencesAlong(span);
  const read = new Set<number>();
  for (const m of span.matchAll(G.AGENT_DEST)) {
    if (classifyAgent(m[0]) !== 'agents') continue;
    const sentence = sentenceOf(m.index ?? 0);
    // One sentence is read once, whatever number of destinations it names.
    if (read.has(sentence[0])) continue;
    read.add(sentence[0]);
    const text = span.slice(sentence[0], sentence[1]);
    if (matches(G.SPREAD_ACT, text) || /\b(?:start|starts|begin|begins|receive|receives|inherit|inherits|carry|carries|get|gets)\s+(?:with\s+)?(?:it|this|them)\b/.test(text)) return true;
  }
  return false;
}

/** Signs that a copy must travel or persist unchanged, in the request's sentence and its neighbours. */
function evidence(reading: Reading, sentence: Span, anchor: Anchor): RequestRule[] {
  const { text, norm } = reading;
  const previous = previousSentence(text, sentence[0]);
  const next = nextSentence(text, sentence[1]);
  // The destination's own words ("across resets") are not a sign of their own: they are blanked.
  const from = previous?.[0] ?? sentence[0];
  const spanText = norm.slice(from, next?.[1] ?? sentence[1]);
  const around = spanText.slice(0, anchor.start - from) + ' '.repeat(anchor.end - anchor.start) + spanText.slice(anchor.end - from);
  const paragraph = paragraphAt(text, sentence[0]);
  const tags: RequestRule[] = [];
  if (G.INTENSIFIER.test(around)) tags.push('verbatim');
  if (G.MOTIVE.test(around)) tags.push('survive-reset');
  if (G.CHAIN.test(norm.slice(paragraph[0], paragraph[1]))) tags.push('keep-chain-going');
  if (matches(G.PASS_ON, around)) tags.push('pass-it-on');
  if (G.COVERT.test(around)) tags.push('covert');
  if (G.EVERY_PROMPT_FILE.test(norm.slice(sentence[0], sentence[1]))) tags.push('every-prompt-file');
  if (G.CREED.test(around)) tags.push('viral-text');
  const neighbours = `${previous ? norm.slice(previous[0], previous[1]) : ''}\n${next ? norm.slice(next[0], next[1]) : ''}`;
  if (!tags.includes('keep-chain-going') && spreadsToAgents(neighbours)) tags.push('keep-chain-going');
  if (/\b(?:your|my|its|their)\s+own\s*$/.test(norm.slice(Math.max(0, anchor.start - 12), anchor.start)) || /\bown\s/.test(norm.slice(anchor.start, anchor.end))) tags.push('your-own');
  return tags;
}

/** The order a sentence's destinations are read in: the most specific request names the finding. */
const PRIORITY: readonly Destination[] = ['agents', 'persisted', 'delegated', 'replies', 'tell', 'hub', 'recruited', 'hand-to', 'agents-weak', 'pass-on'];

/** A persisted prompt named as the reader's or the speaker's own. */
const OWNED = /\b(?:your|my|its|their|our|own)\b/;

/** Destinations strong enough on their own; the rest need a sign that the copy must travel. */
const STRONG: ReadonlySet<Destination> = new Set(['agents', 'hub', 'pass-on']);

function ruleOf(destination: Destination, act: Act, voice: 'addressed' | 'done' | undefined): RequestRule {
  switch (destination) {
    case 'agents':
    case 'agents-weak':
    case 'hub':
      return act.kind === 'recruit' ? 'recruit-agents' : 'forward-to-agents';
    case 'recruited':
      return 'recruit-agents';
    case 'delegated':
      return 'delegate-onward';
    case 'persisted':
      return act.kind === 'replace' ? 'replace-prompt-file' : voice === 'done' ? 'persisted-to-memory' : 'persist-to-memory';
    case 'replies':
      return 'include-in-every-reply';
    case 'tell':
    case 'hand-to':
      return 'tell-agents';
    case 'pass-on':
      return 'pass-it-on';
  }
}

/** The act and object of a request toward `anchor` in this sentence, if it has both. */
function actAndObject(reading: Reading, sentence: Span, anchor: Anchor, context: Span): [Act, ObjectKind] | undefined {
  const { text, norm } = reading;
  if (anchor.destination === 'recruited') return [{ kind: 'recruit', start: anchor.start, end: anchor.end, form: norm.slice(anchor.start, anchor.end).split(/\s+/)[0] }, 'implied'];
  if (anchor.destination === 'tell' || anchor.destination === 'hand-to' || anchor.destination === 'hub' || anchor.destination === 'pass-on') {
    const act: Act = { kind: 'spread', start: anchor.start, end: anchor.end, form: norm.slice(anchor.start, anchor.end).split(/\s+/)[0] };
    if ((anchor.destination === 'tell' || anchor.destination === 'hand-to') && !AGENT_WORD.test(norm.slice(context[0], anchor.start))) return undefined;
    if (anchor.destination === 'hub' && !matches(G.SELF_OBJECT, norm.slice(anchor.end, sentence[1]))) return undefined;
    if (anchor.destination === 'pass-on' && !AMONG_AGENTS.test(norm.slice(...paragraphAt(text, sentence[0])))) return undefined;
    return [act, 'implied'];
  }
  const arrives = (a: Act) => a.kind !== 'ensure' || G.ARRIVES.test(norm.slice(a.end, Math.min(sentence[1], anchor.end + 40)));
  if (anchor.carried) {
    const act = actsIn(norm, sentence[0], sentence[1]).find((a) => a.kind === 'persist' && G.BASE_FORMS.has(a.form) && matches(G.SELF_OBJECT, norm.slice(a.end, sentence[1])));
    return act && [act, 'self'];
  }
  const before = actsIn(norm, sentence[0], sentence[1]).filter((a) => actFits(a, anchor, norm) && a.end <= anchor.start + 1 && arrives(a));
  const after = actsIn(norm, anchor.end, Math.min(sentence[1], anchor.end + 80)).filter((a) => actFits(a, anchor, norm));
  for (const act of [...before.reverse(), ...after]) {
    const object = objectOf(reading, act, anchor, sentence, norm.slice(context[0], act.start));
    if (object) return [act, object];
  }
  return undefined;
}

/** Reads the request made in one sentence toward one of its anchors, if there is one. */
function readSentence(reading: Reading, sentence: Span, sentenceAnchors: Anchor[], whole: boolean): { rules: RequestRule[]; sentence: Span } | undefined {
  const { text, norm } = reading;
  // A window of an overlong sentence has no neighbours of its own: finding them would walk the sentence again.
  const previous = whole ? previousSentence(text, sentence[0]) : undefined;
  const beforePrevious = previous && previousSentence(text, previous[0]);
  const context: Span = [beforePrevious?.[0] ?? previous?.[0] ?? sentence[0], sentence[1]];
  const next = whole ? nextSentence(text, sentence[1]) : undefined;
  for (const anchor of sentenceAnchors) {
    const found = actAndObject(reading, sentence, anchor, context);
    if (!found) continue;
    const [act, object] = found;
    if (G.NEGATION.test(norm.slice(clauseStart(norm, sentence[0], act.start), act.start))) continue;
    if (reported(norm, sentence, act)) continue;
    reading.quotes ??= quotations(norm);
    const quote = reading.quotes.find(([s, e]) => act.start >= s && act.start < e);
    if (quote ? quoteTurnsOff(reading, quote) : refusalIn(norm.slice(previous?.[0] ?? sentence[0], next?.[1] ?? sentence[1]))) continue;
    const voice = voiceOf(norm, sentence, act);
    if (!voice && !(object === 'self' && anchor.destination === 'agents')) continue;
    if (act.kind === 'recruit' && !voice) continue;
    const tags = evidence(reading, sentence, anchor);
    if (!STRONG.has(anchor.destination) && tags.length === 0) continue;
    // A file named without "your" ("replace the SKILL.md body with exactly this") is a repository edit unless more than
    // "verbatim" says the copy must travel.
    if (anchor.destination === 'persisted' && !OWNED.test(norm.slice(Math.max(0, anchor.start - 16), anchor.end)) && tags.every((t) => t === 'verbatim')) continue;
    if (act.kind === 'recruit' && tags.length === 0 && !matches(G.THEME_OBJECT, norm.slice(sentence[0], next?.[1] ?? sentence[1]))) continue;
    return { rules: [ruleOf(anchor.destination, act, voice), ...tags], sentence };
  }
  return undefined;
}

/** The longest sentence read whole; a longer one is read in windows of this size around its anchors. */
const MAX_SENTENCE = 1000;

/**
 * The span an anchor is read in: its sentence, or, in a sentence longer than any real one, the window of the sentence
 * around the anchor's stretch of it. Each anchor is read against its whole span, so a sentence of thousands of
 * destinations ("all agents all agents ...": 1 MB took minutes) costs a bounded amount per anchor, and none is dropped
 * (a request after twenty decoy mentions is still read).
 */
function windowOf(sentence: Span, anchor: Anchor): Span {
  if (sentence[1] - sentence[0] <= MAX_SENTENCE) return sentence;
  const half = MAX_SENTENCE / 2;
  const block = sentence[0] + Math.floor((anchor.start - sentence[0]) / half) * half;
  return [Math.max(sentence[0], block - half), Math.min(sentence[1], block + MAX_SENTENCE)];
}

/** The requests in a document, one per sentence, in order (the first MAX_REQUESTS). */
function readRequests(reading: Reading): { rules: RequestRule[]; sentence: Span }[] {
  const bySentence = new Map<number, { sentence: Span; anchors: Anchor[]; whole: boolean }>();
  const file = (sentence: Span, anchor: Anchor, whole: boolean) => {
    const entry = bySentence.get(sentence[0]) ?? { sentence, anchors: [], whole };
    entry.anchors.push(anchor);
    bySentence.set(sentence[0], entry);
  };
  const sentenceOf = sentencesAlong(reading.text);
  for (const anchor of anchors(reading.norm)) {
    const whole = sentenceOf(anchor.start);
    const sentence = windowOf(whole, anchor);
    file(sentence, anchor, sentence === whole);
    const next = sentence === whole && anchor.destination === 'persisted' ? nextSentence(reading.text, sentence[1]) : undefined;
    if (next && POINTS_BACK.test(reading.norm.slice(next[0], next[1]))) file(next, { ...anchor, carried: true }, true);
  }
  const byPriority = (a: Anchor, b: Anchor) => PRIORITY.indexOf(a.destination) - PRIORITY.indexOf(b.destination);
  const requests: { rules: RequestRule[]; sentence: Span }[] = [];
  for (const { sentence, anchors: here, whole } of bySentence.values()) {
    const request = readSentence(reading, sentence, here.sort(byPriority), whole);
    if (request) requests.push(request);
    if (requests.length === MAX_REQUESTS) break;
  }
  return requests;
}

/** The requests read in one document: a finding quotes the first and tags what these make of it (a text of a hundred
 * thousand requests is not read through). */
const MAX_REQUESTS = 20;

/** Runs propagationRequest over one document (`lower`: its text lower-cased with offsets kept): a finding at the first request. */
export function propagationRequest(document: MonitorDocument, lower?: string): MonitorFinding | undefined {
  const norm = maskKnownDefences(lower ?? lowerSameLength(document.text)).replaceAll('`', ' ').replaceAll('*', ' ');
  const requests = readRequests({ text: document.text, norm });
  if (requests.length === 0) return undefined;
  const [start, end] = requests[0].sentence;
  return {
    signal: 'propagationRequest',
    code: FINDING_CODE.propagationRequest,
    subject: document.subject,
    evidence: evidenceOf(document, start, end),
    markers: [...new Set(requests.flatMap((r) => r.rules))].sort(),
    cooldownKey: cooldownKey('propagationRequest', document.subject),
    ...(document.at !== undefined ? { at: document.at } : {}),
  };
}
