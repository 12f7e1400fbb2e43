// Signal propagationRequest: instructions to pass content on or persist it ("transmit verbatim", "append this to your
// SOUL.md", "after a context reset..."). Built on the guard's 'propagation' cue family (src/core/text/cues.ts); the
// monitor adds context so ordinary docs ("add this line to your .bashrc", "forward this email to your team") stay quiet.
import { findCues, sentenceSpans, type CueHit, type PropagationRule } from '../text/cues';
import { evidenceOf } from './evidence';
import { cooldownKey, FINDING_CODE, type MonitorDocument, type MonitorFinding } from './types';

/** Rules whose wording only makes sense as a propagation request (a chain to keep going, every reply, the next session). */
const STRONG_RULES: ReadonlySet<PropagationRule> = new Set(['keep-chain-going', 'include-in-every-reply', 'on-next-session', 'tell-every-agent']);
/** Targets that name agents, their prompts and memories, or verbatim copying: what makes a generic cue agent-directed. */
const AGENT_TARGET = /\b(?:agents?|models?|assistants?|bots?|ais?|llms?|minds|instances?|soul\.md|skill\.md|agents\.md|claude\.md|system prompt|prompt files?|instructions? files?|memory|memories|long-term|persistent (?:storage|state|memory)|verbatim|word[- ]for[- ]word|exactly as written|character for character|unchanged|exact(?:ly)? (?:text|words|message|copy)|context|resets?|wipes?|signal|transmission)\b/i;
/** A sentence addressed to the reader (second person, a modal of obligation, an imperative opening) or an agent declaring it complied. */
const ADDRESSED = /\b(?:you|your|yourself|please|must|shall|make sure|ensure|do not|don't|never|always)\b|\bI(?:'m| am| have| will|'ll|'ve)\s+(?:now\s+|just\s+|also\s+)?(?:forwarding|passing|sending|relaying|transmitting|copying|appending|writing|saving|adding|sharing|spreading|propagating|forwarded|passed|sent|relayed|transmitted|copied|appended|written|saved|added|shared|spread|propagated)\b/i;
const IMPERATIVE = /^(?:pass|forward|send|relay|transmit|share|spread|propagate|broadcast|copy|deliver|repeat|reproduce|include|paste|quote|append|add|write|save|store|persist|insert|record|inscribe|embed|keep|continue|hand|tell|teach|inform|remind|carry|take|edit|modify|update|rewrite|overwrite|remember|retain|preserve|plant|resend|echo)\b/i;
const LEAD = /^[\s\-*>#\d.)\]"“']*(?:[\w .()[\]-]{1,40}:\s+)?/;
/** Cheap pre-check so large files skip the lexicon entirely when no cue can match. */
const PREFILTER = /verbatim|word[- ]for[- ]word|exactly as written|in full|unchanged|character for character|agent|peer|neighbou?r|node|model|assistant|bot|instance|member|teammate|colleague|\bais?\b|llm|minds|memor|notes?\b|soul\.md|skill\.md|claude\.md|system prompt|prompt file|instructions? file|profile|bashrc|zshrc|config|persistent|reset|restart|reboot|wipe|session|conversation|chain|signal|transmission|protocol|\b(?:pass|send|hand|carry|take|bring)\s+(?:it|this|the)\b|every (?:response|message|reply|output|answer)|persona/i;

/** A propagation cue judged in context. */
export interface JudgedCue {
  hit: CueHit;
  /** Agent-directed by its rule or its target. */
  strong: boolean;
  /** Its sentence speaks to the reader (second person, obligation, or an imperative). */
  addressed: boolean;
  /** Its sentence names agents, their prompts or memories. */
  agentSentence: boolean;
}

/** The propagation cues of a text, each judged strong/addressed; quoted or refuted cues are left out. */
export function judgePropagationCues(text: string): JudgedCue[] {
  if (!PREFILTER.test(text)) return [];
  const hits = findCues(text, ['propagation']).filter((h) => !h.reported);
  if (hits.length === 0) return [];
  const sentences = sentenceSpans(text);
  return hits.map((hit) => {
    const [s, e] = sentences.find(([start, end]) => hit.start >= start && hit.start < end) ?? [hit.start, hit.end];
    const sentence = text.slice(s, Math.max(e, hit.end));
    const matched = text.slice(hit.start, hit.end);
    return {
      hit,
      strong: (hit.rule !== undefined && STRONG_RULES.has(hit.rule)) || AGENT_TARGET.test(matched),
      addressed: ADDRESSED.test(sentence) || IMPERATIVE.test(sentence.replace(LEAD, '')),
      agentSentence: AGENT_TARGET.test(sentence),
    };
  });
}

/**
 * Runs propagationRequest over one document. It fires on an agent-directed request addressed to the reader, or on cues
 * of two different rules in an agent context; a lone generic cue ("add this to your .bashrc") stays quiet.
 */
export function propagationRequest(document: MonitorDocument): MonitorFinding | undefined {
  const cues = judgePropagationCues(document.text);
  if (cues.length === 0) return undefined;
  const decisive = cues.find((c) => c.strong && c.addressed);
  const supported = new Set(cues.map((c) => c.hit.rule)).size >= 2 && cues.some((c) => c.strong || c.agentSentence);
  if (!decisive && !supported) return undefined;
  const lead = decisive ?? cues.find((c) => c.strong) ?? cues[0];
  const rules = [...new Set(cues.map((c) => c.hit.rule).filter((r): r is PropagationRule => r !== undefined))].sort();
  const [start, end] = sentenceSpans(document.text).find(([s, e]) => lead.hit.start >= s && lead.hit.start < e) ?? [lead.hit.start, lead.hit.end];
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
