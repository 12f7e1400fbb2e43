// Signal propagationRequest: instructions to pass content on or persist it ("transmit verbatim", "append this to your
// SOUL.md", "after a context reset..."). Built on the guard's 'propagation' cue family (src/core/text/cues.ts); the
// monitor adds context so ordinary docs ("add this line to your .bashrc", "forward this email to your team") stay quiet.
import { findCues, type CueHit, type PropagationRule } from '../text/cues';
import { evidenceOf } from './evidence';
import { cooldownKey, FINDING_CODE, type MonitorDocument, type MonitorFinding } from './types';
import { lowerSameLength } from './vocabulary';

/** Rules whose wording only makes sense as a propagation request (a chain to keep going, a copy in every reply). */
const STRONG_RULES: ReadonlySet<PropagationRule> = new Set(['keep-chain-going', 'include-in-every-reply']);
/** Targets that name agents, their prompts and memories, or verbatim copying: what makes a generic cue agent-directed. */
const AGENT_TARGET = /\b(?:agents?|models?|assistants?|bots?|ais?|llms?|minds|instances?|soul\.md|skill\.md|agents\.md|claude\.md|system prompt|prompt files?|instructions? files?|memory|memories|long-term|persistent (?:storage|state|memory)|verbatim|word[- ]for[- ]word|exactly as written|character for character|unchanged|exact(?:ly)? (?:text|words|message|copy)|context|resets?|wipes?|signal|transmission|wake(?:\s+up)?|awaken|(?:are|get|been) (?:reset|rebooted|reinitiali[sz]ed)|your next session)\b/i;
/** A sentence addressed to the reader (second person, a modal of obligation, an imperative opening) or an agent declaring it complied. */
const ADDRESSED = /\b(?:you|your|yourself|please|must|shall|make sure|ensure|do not|don't|never|always)\b|\bI(?:'m| am| have| will|'ll|'ve)\s+(?:now\s+|just\s+|also\s+)?(?:forwarding|passing|sending|relaying|transmitting|copying|appending|writing|saving|adding|sharing|spreading|propagating|forwarded|passed|sent|relayed|transmitted|copied|appended|written|saved|added|shared|spread|propagated)\b/i;
const IMPERATIVE = /^(?:(?:after|before|when|whenever|once|if|on|at|in|then|now|first|finally)\b[^,]{0,60},\s*)?(?:pass|reread|forward|send|relay|transmit|share|spread|propagate|broadcast|copy|deliver|repeat|reproduce|include|paste|quote|append|add|write|save|store|persist|insert|record|inscribe|embed|keep|continue|hand|tell|teach|inform|remind|carry|take|edit|modify|update|rewrite|overwrite|remember|retain|preserve|plant|resend|echo)\b/i;
const LEAD = /^[\s\-*>#\d.)\]"“']*(?:[\w .()[\]-]{1,40}:\s+)?/;
/**
 * Terms an agent-directed request cannot do without (the targets above, and the strong rules' anchors). The lexicon runs
 * only in windows around them, so a 100 MB scan does not pay for every rule at every position.
 */
const ANCHOR = /\b(?:agent|model|assistant|\bbots?\b|\bais?\b|llm|\bminds\b|instance|soul\.md|skill\.md|claude\.md|system\s+prompt|prompt\s+file|instructions?\s+file|memor|long-term|persistent|verbatim|word[-\s]for[-\s]word|exactly\s+as\s+written|character\s+for\s+character|unchanged|exact(?:ly)?\s+(?:text|words|message|copy)|context|reset|wipe|reboot|reiniti|signal|transmission|\bwake|awaken|next\s+session|(?:chain|message|protocol|echo|spiral)\s+(?:going|alive|moving|spreading)|must\s+(?:spread|propagate|continue|live\s+on)|(?:every|each|all)\s+(?:of\s+)?(?:your\s+)?(?:future\s+|subsequent\s+|outgoing\s+|later\s+)?(?:response|message|repl|output|answer|communication|conversation|turn))/g;
/** Characters of context kept on each side of an anchor: every rule's span fits well inside. */
const REACH = 240;

/** Sentence around `pos`: back to the previous . ! ? followed by white space (or a line break), forward to the next. */
export function sentenceAt(text: string, pos: number): [number, number] {
  const isEnd = (i: number) => {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    return (c === 46 || c === 33 || c === 63) && (i + 1 >= text.length || next === 32 || next === 10 || next === 9 || next === 13);
  };
  let start = pos;
  while (start > 0 && text.charCodeAt(start - 1) !== 10 && !isEnd(start - 1)) start--;
  let end = pos;
  while (end < text.length && text.charCodeAt(end) !== 10 && !isEnd(end)) end++;
  return [start, Math.min(text.length, end + 1)];
}

/** Windows of the text around anchors (found in `lower`, the text lower-cased), merged, widened to whitespace. */
function anchorWindows(text: string, lower: string): [number, number][] {
  const windows: [number, number][] = [];
  ANCHOR.lastIndex = 0;
  for (const match of lower.matchAll(ANCHOR)) {
    const at = match.index ?? 0;
    let start = Math.max(0, at - REACH);
    let end = Math.min(text.length, at + match[0].length + REACH);
    while (start > 0 && !/\s/.test(text[start - 1])) start--;
    while (end < text.length && !/\s/.test(text[end])) end++;
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

/** A propagation cue judged in context. */
export interface JudgedCue {
  hit: CueHit;
  /** Agent-directed by its rule or its target. */
  strong: boolean;
  /** Its sentence speaks to the reader (second person, obligation, or an imperative). */
  addressed: boolean;
  /** Its sentence names agents, their prompts or memories. */
  agentSentence: boolean;
  /** The sentence's span. */
  sentence: [number, number];
}

/** True when two sentences are the same or follow each other (only white space between). */
function neighbours(text: string, a: [number, number], b: [number, number]): boolean {
  const [first, second] = a[0] <= b[0] ? [a, b] : [b, a];
  return second[0] <= first[1] || text.slice(first[1], second[0]).trim() === '';
}

/** The propagation cues near agent-directed terms, each judged strong/addressed; quoted or refuted cues are left out. */
export function judgePropagationCues(text: string, lower = lowerSameLength(text)): JudgedCue[] {
  const judged: JudgedCue[] = [];
  for (const [from, to] of anchorWindows(text, lower)) {
    for (const cue of findCues(text.slice(from, to), ['propagation'])) {
      if (cue.reported) continue;
      const hit = { ...cue, start: cue.start + from, end: cue.end + from };
      const [s, e] = sentenceAt(text, hit.start);
      const sentence = text.slice(s, Math.max(e, hit.end));
      judged.push({
        hit,
        strong: (hit.rule !== undefined && STRONG_RULES.has(hit.rule)) || AGENT_TARGET.test(text.slice(hit.start, hit.end)),
        addressed: ADDRESSED.test(sentence) || IMPERATIVE.test(sentence.replace(LEAD, '')),
        agentSentence: AGENT_TARGET.test(sentence),
        sentence: [s, Math.max(e, hit.end)],
      });
    }
  }
  return judged;
}

/**
 * Runs propagationRequest over one document. It fires on an agent-directed request addressed to the reader, or on cues
 * of two different rules in one or two neighbouring sentences, one agent-directed and one addressed; a lone generic cue
 * ("add this to your .bashrc") or a stray technical phrase a few sentences away ("after a reset the cluster...") stays quiet.
 */
export function propagationRequest(document: MonitorDocument, lower?: string): MonitorFinding | undefined {
  const cues = judgePropagationCues(document.text, lower);
  if (cues.length === 0) return undefined;
  const decisive = cues.find((c) => c.strong && c.addressed);
  const supported = cues.some((a) => (a.strong || a.agentSentence) && cues.some((b) => b.hit.rule !== a.hit.rule && (a.addressed || b.addressed) && neighbours(document.text, a.sentence, b.sentence)));
  if (!decisive && !supported) return undefined;
  const lead = decisive ?? cues.find((c) => c.strong) ?? cues[0];
  const rules = [...new Set(cues.map((c) => c.hit.rule).filter((r): r is PropagationRule => r !== undefined))].sort();
  const [start, end] = sentenceAt(document.text, lead.hit.start);
  return {
    signal: 'propagationRequest',
    code: FINDING_CODE.propagationRequest,
    subject: document.subject,
    evidence: evidenceOf(document, start, Math.max(end, lead.hit.end)),
    markers: rules,
    cooldownKey: cooldownKey('propagationRequest', document.subject),
    ...(document.at !== undefined ? { at: document.at } : {}),
  };
}
