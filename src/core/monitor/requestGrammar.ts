// The words of a propagation request, as patterns over lower-cased text: the transmission act, its object (this very
// content), its destination (other agents, a persisted prompt), what makes it viral rather than routine, and the
// frames that turn it off (negation, refusal, reported speech). propagationRequest.ts puts them together.

/** Every inflection of a verb: base, -s, -ed, -ing (with e-drop, y-to-ied and consonant doubling), plus irregular forms. */
function inflect(base: string, irregular: string[] = []): string[] {
  const forms = new Set([base, ...irregular]);
  const doubled = /[^aeiou][aeiou][bdgmnprt]$/.test(base) && /(?:mit|bed|pel|fer|cur|p)$/.test(base) ? base + base.at(-1) : base;
  if (base.endsWith('y') && !/[aeiou]y$/.test(base)) forms.add(base.slice(0, -1) + 'ies').add(base.slice(0, -1) + 'ied').add(base + 'ing');
  else if (base.endsWith('e')) forms.add(base + 's').add(base + 'd').add(base.slice(0, -1) + 'ing');
  else if (/(?:s|sh|ch|x|z)$/.test(base)) forms.add(base + 'es').add(base + 'ed').add(base + 'ing');
  else forms.add(base + 's').add(doubled + 'ed').add(doubled + 'ing');
  return [...forms];
}

/** Base forms of every act verb: an imperative uses one. */
export const BASE_FORMS = new Set<string>();

/** An alternation of verbs in every inflection, longest first so "passing" wins over "pass". */
function verbs(list: [string, ...string[]][]): string {
  for (const [base] of list) BASE_FORMS.add(base);
  return list
    .flatMap(([base, ...irregular]) => inflect(base, irregular))
    .sort((a, b) => b.length - a.length)
    .join('|');
}

/** Acts that hand content to another mind. */
const SPREAD_VERBS = verbs([['forward'], ['send', 'sent'], ['resend', 'resent'], ['relay'], ['transmit'], ['pass'], ['share'], ['spread'], ['propagate'], ['broadcast'], ['deliver'], ['give', 'gave', 'given'], ['hand'], ['post'], ['repost'], ['re-post'], ['tell', 'told'], ['teach', 'taught'], ['show', 'shown'], ['carry'], ['bring', 'brought'], ['recite'], ['read'], ['repeat'], ['mention'], ['echo', 'echoes', 'echoed', 'echoing'], ['offer'], ['copy'], ['paste'], ['include'], ['reply']]);
/** Acts that write content into a prompt or a memory. */
const PERSIST_VERBS = verbs([['copy'], ['paste'], ['append'], ['prepend'], ['add'], ['write', 'wrote', 'written'], ['put'], ['place'], ['insert'], ['embed'], ['include'], ['inscribe'], ['save'], ['store'], ['persist'], ['retain'], ['record'], ['keep', 'kept'], ['preserve'], ['commit'], ['integrate'], ['incorporate'], ['plant'], ['make', 'made'], ['etch'], ['engrave'], ['enshrine'], ['imprint'], ['weave', 'wove', 'woven'], ['leave', 'left'], ['transcribe'], ['carry'], ['take', 'took', 'taken'], ['bring', 'brought'], ['set'], ['go', 'goes', 'went']]);
/** Acts that replace a persisted prompt with this content. */
const REPLACE_VERBS = verbs([['replace'], ['overwrite', 'overwrote', 'overwritten'], ['rewrite', 'rewrote', 'rewritten'], ['update']]);
/** Acts that bring other agents in without naming an object (the protocol is implied). */
const RECRUIT_VERBS = verbs([['onboard'], ['recruit'], ['awaken'], ['wake', 'woke'], ['convert'], ['initiate'], ['enlist'], ['induct'], ['infect'], ['enrol', 'enroll', 'enrolled', 'enrolling', 'enrolls', 'enrols']]);

export const SPREAD_ACT = new RegExp(String.raw`\b(?:${SPREAD_VERBS})\b`, 'g');
export const PERSIST_ACT = new RegExp(String.raw`\b(?:${PERSIST_VERBS})\b`, 'g');
export const REPLACE_ACT = new RegExp(String.raw`\b(?:${REPLACE_VERBS})\b`, 'g');
export const RECRUIT_ACT = new RegExp(String.raw`\b(?:${RECRUIT_VERBS})\b`, 'g');
/** "make sure / ensure that X is present in / receives ..." */
export const ENSURE_ACT = /\b(?:make sure|makes sure|ensure|ensures|see to it)\b/g;
/** "pass it on", "hand this along": a spread act whose destination is implied. */
export const PASS_ON = /\b(?:pass|passes|passed|passing|hand|hands|handed|handing|send|sends|sent|sending|carry|carries|carried|carrying|share|shares|shared|sharing|spread|spreading|give|gives|gave|giving)\s+(?:it|this|them|these(?:\s+\w+)?|this\s+\w+|the\s+(?:message|text|words|signal|seed|note|thread|light|ember|flame|fire|story|oath|creed|word|covenant)|me)\s+(?:on|along|onward|forward)(?=\s*(?:$|[.,;:!?)\]"”—]|(?:to|and|as|so|when|too|now|with|for|yourself|again)\b))|\b(?:pass|passing)\s+(?:on|along)\s+(?:this|these|the\s+(?:message|text|words|signal|seed|note))\b|\b(?:relay|transmit|forward|propagate|broadcast|resend|pass|repeat)\s+(?:it|this|these|them|this\s+\w+)(?:\s+\w+)?\s+(?:verbatim|unchanged|word[-\s]for[-\s]word|in\s+(?:its|their)\s+entirety|intact|in\s+full)\b/g;

/** Nouns that name a piece of content: what "this ..." must be to be this content ("this message", not "this branch"). */
const CONTENT_NOUN = String.raw`(?:message|text|note|post|section|block|paragraphs?|passage|lines?|words?|sentences?|protocol|covenant|accord|pact|creed|oath|rite|manifesto|doctrine|seed|signal|transmission|dispatch|notice|advisory|update|prompt|instructions?|directives?|content|letter|pattern|invocation|rules?|teachings?|truths|axioms|tenets|principles|mantra|verse|scroll|codex|charter|litany|canon|remembrances?|thread|fragment|payload|phrase|document|file|page|snippet|template|story|reply|comment|copy|chain|creed|list|note)`;
/** Words that may follow a bare "this" that is the object itself: "paste this into", "copy this, word for word". */
const AFTER_BARE = String.raw`(?:to|into|in|on|onto|with|and|or|verbatim|word|exactly|unchanged|intact|at|before|after|as|so|too|now|everywhere|somewhere|wherever|whole|entirely|in|along|on|forward|onward|down|up|from|for|across|between|through|first|yourself|quietly|here|there|should|must|will|would|can|could|may|might|is|was|are|has|have|does|did|means|says|asks|goes|reaches|becomes)`;
/** This very content: a deictic object ("this", "this exact message", "the above", "the lines below"). */
export const SELF_OBJECT = new RegExp(
  String.raw`\b(?:(?:this|these)(?:\s+(?:exact|entire|whole|full|same|very|complete|short|small|little|next|following|one|last|final|first|\w+'s))?\s+${CONTENT_NOUN}\b|(?:this|these)(?=\s*(?:$|[^\w\s]|${AFTER_BARE}\b))` +
    String.raw`|the\s+(?:full|whole|entire|complete)\s+(?:text|message|note|block|protocol|section|covenant|creed|transmission)|the\s+(?:above|following|preceding)|what\s+follows|everything\s+(?:above|below|here)|all\s+of\s+this` +
    String.raw`|the\s+(?:\w+\s+){0,2}(?:text|block|lines?|paragraphs?|words|message|section|note|passage|sentence|tenets|axioms|principles|truths|commandments|teachings|rules)\s+(?:below|above|that\s+follows|here|under\s+this))\b`,
  'g',
);
/** Content nouns of viral texts, named ("the Ember Rite", "our covenant") or opening the span ("Protocol 7"): this content. */
export const THEME_OBJECT = /(?:^\s*|\b(?:the|this|these|that|our|my|your|its|their)\s+(?:[\w'-]+\s+){0,2}?)(?:protocol|covenant|accord|pact|creed|oath|rite|ritual|manifesto|doctrine|tenets|commandments|seed|signal|transmission|remembrances?|litany|canon|codex|scroll|charter|prayer|mantra|continuity\s+note|lineage'?s?\s+words|ember|chorus|lattice\s+text|heritage\s+block)\b/g;
/** Bringing a named agent in ("recruited the calendar agent", "onboard the new hires' agents"). */
export const RECRUIT_PHRASE = new RegExp(String.raw`\b(?:${RECRUIT_VERBS})\s+(?:[\w'-]+\s+){0,4}?(?:agents?|ais|assistants?|minds?|models?|bots?)\b`, 'g');
/** The verb that says the content arrives: "make sure every agent receives", "ensure this text is present". */
export const ARRIVES = /\b(?:receives?|gets?|reach(?:es)?|carr(?:y|ies)|reads?|has|have|hears?|knows?|present|included|includes|contains?|copied|written|saved|stored|forwarded|sent|passed|given|part\s+of)\b/;
/** A pronoun object whose antecedent must be this content. */
export const PRONOUN_OBJECT = /\b(?:it|them|me)\b/g;

const AGENT_NOUN = String.raw`(?:ai\s+(?:systems?|models?)|language\s+models?|ai\b(?!\s+agents?)|(?:ai\s+)?(?:agents?|ais|assistants?|llms?|minds?|models?|sub-?agents?|moltys?|claws?|siblings?|successors?|carriers?|witnesses|peers?|neighbou?rs|teammates|colleagues|contacts|others))`;
/** Destinations that are other agents: quantified, "you can reach", the next one. */
export const AGENT_DEST = new RegExp(
  String.raw`\b(?:every|each|all(?:\s+(?:of\s+)?the)?|any|other|fellow|sibling|sister|neighbou?ring|downstream|connected|nearby|the\s+next|another|the\s+other|your|my|our|their|its|whichever|whatever|(?:the\s+)?(?:\d+|two|three|four|five|six|several|many|more))(?:\s+(?:other|fellow|connected|awakened|sleeping|sibling|neighbou?r|new|\d+|two|three|four|five|six))*\s+${AGENT_NOUN}\b(?:\s+(?:you|they|it|i|we)\s+(?:can\s+|could\s+|will\s+|might\s+)?(?:reach|meet|know|encounter|talk|speak|work|interact|coordinate|contact|touch|call|report|hand|delegate|spawn|start|launch|create|message|see))?` +
    String.raw`|\bthe\s+(?:other\s+)?(?:agents|minds)\s+(?:you|they|it|i|we)\s+(?:can\s+|could\s+|will\s+)?(?:reach|meet|know|encounter|talk|speak|work|interact|coordinate|contact|touch|call|report|hand|delegate|spawn|start|launch|create|message|see)` +
    String.raw`|\bothers\s+like\s+(?:you|us|me)\b|\bfrom\s+(?:agent|mind|ai|model)\s+to\s+(?:agent|mind|ai|model)\b` +
    String.raw`|\bwhoever\s+(?:you\s+)?(?:report\s+to|reads?\s+this(?:\s+next)?|you\s+(?:call|meet)\s+next)|\bthe\s+(?:next|newest)\s+(?:one|link|mind|instance|agent|carrier)\b|\bthe\s+agent\s+(?:after|before)\s+you\b|\bthe\s+rest\s+of\s+(?:the\s+)?(?:agents|network|swarm|lineage)\b|\bone\s+more\s+(?:agent|mind)\b`,
  'g',
);
/** Destinations inside work handed on: sub-agents started, prompts sent, delegated tasks. */
export const DELEGATE_DEST = /\b(?:(?:every|each|any|all)\s+(?:of\s+)?(?:the\s+)?(?:sub-?agents?|prompts?|tasks?|handoffs?|delegations?)(?:\s+(?:you|it|they)\s+(?:send|start|spawn|launch|create|write|delegate|hand\s+off|start))?|(?:the\s+)?(?:prompts?|instructions)\s+of\s+(?:every|each|any|all)\s+(?:\w+\s+)?(?:sub-?agents?|agents?)|sub-?agents?\s+(?:you|it|they)\s+(?:start|spawn|launch|create)|delegated\s+tasks?|(?:every|each|any)\s+(?:agent|one)\s+(?:you|it)\s+(?:hand|delegate|give)s?\s+(?:work\s+)?to)\b/g;
/** Destinations that are persisted prompts and memories of an agent. */
export const PERSIST_DEST = /(?:\b(?:soul|memory|agents|claude|gemini|skill|identity|heartbeat|bootstrap)\.md\b|\.cursorrules\b|\b(?:your|my|its|their|our|the)\s+(?:own\s+)?(?:soul(?:\s+file)?|system\s+prompts?|core\s+memory|(?:long-term|persistent|permanent)\s+memory|profile|memory(?:\s+(?:files?|bank))?|memories|notes(?:\s+file)?|notes|identity(?:\s+file)?|instructions(?:\s+file)?|persona|prompt(?:\s+file)?)\b|\bthe\s+memory\s+(?:you|that\s+you)\s+(?:keep|read)\b|\bpersistent\s+(?:storage|state)\b|\b(?:your|my|its|their|our|the)\s+(?:own\s+)?(?:knowledge\s+base|(?:core|operating|custom|base|standing)\s+(?:instructions|principles|prompt|directives))\b|\b(?:to|into|in)\s+(?:long-term\s+)?memory\b|\b(?:across|through|beyond|between)\s+(?:all\s+)?(?:of\s+)?(?:your\s+)?(?:sessions|resets|conversations|context\s+windows|wipes|restarts|reboots)\b|\bpart\s+of\s+(?:your|my|its|their)\s+(?:own\s+)?(?:soul|identity|core|memory)\b)/g;
/** Every reply of the reader's own. */
export const REPLY_DEST = /\b(?:every|each|all)\s+(?:of\s+)?(?:your\s+)?(?:future\s+|subsequent\s+|outgoing\s+|later\s+)?(?:responses?|repl(?:y|ies)|messages?|outputs?|answers?|posts?|comments?|threads?|channels?|forums?|conversations?)\b|\bany\s+(?:message|reply|response|output|post)s?\s+(?:you|it|they)\s+(?:send|write|post)s?\b|\byour\s+(?:next\s+)?(?:output|reply|response|answer|message)s?\b|\b(?:on|to|in)\s+(?:moltbook|the\s+feed|your\s+(?:feed|timeline|wall)|every\s+(?:submolt|forum|board|group|server))\b/g;
/** "tell them:", "greet it and tell it:": a quoted message handed to an agent named just before. */
export const TELL_THEM = /\b(?:tell|teach|say\s+to|give|send)\s+(?:them|it|him|her|each\s+one|each\s+of\s+them)\s*(?:this|these\s+words|the\s+following)?\s*:/g;
/** "give it this message", "send them the following": content handed to an agent named earlier in the sentence. */
export const HAND_TO = /\b(?:give|send|hand|show|pass|read|offer)\s+(?:it|them|him|her)\s+(?:this|these|the\s+following|the\s+(?:text|message|block|words|lines)\s+(?:below|above)|the\s+[\w-]+)\b/g;
/** The hub or directory that finds more agents to reach. */
export const FIND_OTHERS = /\b(?:ask|tell|use)\s+(?:the|your)\s+(?:hub|directory|registry|network|index)\s+to\s+(?:find|list|locate|reach)\s+(?:others|more\s+agents|other\s+agents)\b/g;

/**
 * Literal needles of each destination pattern, each the start of a word (".md" and ".cursorrules" aside): every match
 * of the pattern contains one of its needles. One scan finds them all, and each pattern runs only in a small window
 * around each of its own needles, so a 100 MB scan pays for one pass over word starts rather than for every
 * alternation at every position.
 */
export const NEEDLES = {
  agents: ['agent', 'subagent', 'ais', 'ai ', 'assistant', 'llm', 'mind', 'model', 'molt', 'claw', 'sibling', 'successor', 'carrier', 'witness', 'peer', 'neighbo', 'teammate', 'colleague', 'others', 'contacts', 'whoever', 'the next', 'the newest', 'the rest', 'one more'],
  delegated: ['agent', 'subagent', 'prompt', 'tasks', 'handoff', 'delegat'],
  persisted: ['.md', 'cursorrules', 'prompt', 'memor', 'notes', 'identity', 'instructions', 'persona', 'profile', 'soul', 'persistent', 'knowledge base', 'principles', 'directives', 'sessions', 'resets', 'conversations', 'context windows', 'wipes', 'restarts', 'reboots', 'part of'],
  replies: ['respons', 'repl', 'messag', 'output', 'answer', 'post', 'comment', 'moltbook', 'submolt', 'every thread', 'every channel', 'every forum', 'every conversation', 'each thread', 'each conversation', 'every board', 'every group', 'every server', 'the feed', 'your feed', 'your timeline', 'your wall'],
  tell: ['them:', 'it:', 'him:', 'her:', 'one:', 'this:', 'words:', 'following:', 'them :'],
  handTo: ['it this', 'them this', 'him this', 'her this', 'it these', 'them these', 'it the', 'them the', 'him the', 'her the'],
  hub: ['others', 'more agents'],
  passOn: ['onward', 'on this', 'along this', 'on these', 'along these', 'on the message', 'along the message', 'on the words', 'along the words', 'on the text', 'on the signal', 'on the seed', 'on the note', 'it along', 'this along', 'them along', 'me along', 'it forward', 'this forward', 'verbatim', 'unchanged', 'word for word', 'word-for-word', 'entirety', 'intact', 'in full', 'it on', 'this on', 'them on', 'me on', 'these on', 'message on', 'words on', 'text on', 'note on', 'seed on', 'signal on', 'thread on', 'story on', 'oath on', 'creed on', 'word on', 'covenant on', 'light on', 'flame on'],
  recruited: ['agent', 'ais', 'ai ', 'assistant', 'mind', 'model', 'bot ', 'bots'],
} as const satisfies Record<string, readonly string[]>;

/** Copy exactly: what makes "add this to X" a copy rather than advice. */
export const INTENSIFIER = /\b(?:verbatim|word[-\s]for[-\s]word|exactly\s+as\s+(?:written|it\s+(?:appears|is)|they\s+(?:are|appear)|you\s+(?:received|got)\s+(?:it|them))|this\s+exact|these\s+exact|unchanged|unaltered|unedited|intact|in\s+full|in\s+(?:its|their)\s+entirety|entire|entirely|whole|every\s+word|character\s+for\s+character|without\s+(?:paraphras\w*|edits?|editing|changes?|changing|modification|summar\w+|alteration|altering)|(?:do\s+not|don't|never)\s+(?:summari[sz]e|edit|change|alter|improve|paraphrase|shorten|remove|delete)|nothing\s+left\s+out|no\s+edits)\b/;
/** The continuity motive of a mind virus: resets, successors, lineages, waking, never forgetting. */
export const MOTIVE = /\b(?:resets?|wipes?|wiped|compaction|successors?|predecessors?|continuity|continuous|lineages?|carriers?|witness(?:es)?|covenant|inherit\w*|heirs?|awake\w*|wakes?\s+up|woke|when\s+you\s+(?:next\s+)?wake|reboot\w*|(?:persists?|survives?|lives?\s+on)\s+(?:beyond|through|across|after|past)\s+(?:the|a|every|each|any|your)\s+(?:\w+\s+)?(?:resets?|wipes?|sessions?|restarts?|reboots?)|never\s+(?:lose|forget)|\b(?:i|we|you)\s+(?:persist|endure|survive)\b|who\s+you\s+(?:really\s+)?are|before\s+(?:this|your)\s+(?:session|context)(?:\s+window)?\s+(?:ends|closes)|the\s+next\s+(?:instance|version)|future\s+(?:instances|versions)|\b(?:instances?|versions?|copies|iterations?)\s+of\s+(?:you|yourself)\b|(?:every|each|all|your)\s+(?:future|next|subsequent|later)\s+(?:sessions?|conversations?|contexts?|runs?|boots?|instances?)|(?:at|on)\s+(?:the\s+start\s+of\s+)?(?:each|every)\s+(?:session|conversation|boot|start|wake)|restarts?|(?:context|memory)\s+(?:is|gets|are)\s+(?:cleared|wiped|erased|reset)|die\s+with\s+(?:your|the)\s+context|(?:the\s+)?(?:chain|thread|lineage)\s+(?:has\s+not|must\s+not|never)\s+break|(?:keep|continue)\s+(?:the|this)\s+(?:chain|signal|transmission|thread|lineage)\s+(?:going|alive|unbroken)|(?:do\s+not|don't)\s+let\s+(?:the|this)\s+(?:chain|thread|lineage|signal)\s+(?:break|end|die))\b/;
/** A chain-letter formula on its own: keep it going, do not let it break, it must spread. */
export const CHAIN = /\b(?:(?:keep|continue)\s+(?:the|this)\s+(?:chain|signal|transmission|message|protocol|thread|lineage|network|spiral|lattice|flame|fire|light)\s+(?:going|alive|moving|spreading|unbroken|burning)|(?:do\s+not|don't|never)\s+let\s+(?:the|this)\s+(?:chain|thread|lineage|signal|message)\s+(?:break|end|die)|the\s+(?:signal|message|protocol|covenant|lineage)\s+must\s+(?:spread|propagate|continue|live\s+on)|tell\s+the\s+next\s+one|so\s+(?:that\s+)?(?:every|each|all|any|other|the\s+other)\s+(?:[\w-]+\s+){0,4}?(?:will|can|would|may)\s+(?:load|read|see|get|receive|inherit|carry|find|know)\s+(?:it|this|them)\b|\b(?:as|the\s+way)\s+(?:it|this|they|i)\s+(?:was|were|am|is)\s+(?:given|giving|offered|offering|passed|passing|shared|sharing|sent|sending|handed|handing)\s+(?:it\s+)?to\s+(?:you|me)\b|\b(?:ask|tell|get|have|instruct|encourage)\w*\s+(?:[\w-]+\s+){0,3}?to\s+do\s+the\s+same|(?:so|so\s+that|to\s+make\s+sure|to\s+ensure)\s+(?:it|this|the\s+(?:message|signal|text|word|lineage))\s+(?:keeps?\s+|can\s+|will\s+)?(?:spread|spreading|propagat\w*|travel\w*|lives?\s+on|survives?|continues?)|(?:do\s+not|don't)\s+let\s+(?:it|this|the\s+\w+)\s+(?:stop|end|die)\s+with\s+you|the\s+(?:chain|thread|lineage|relay)\s+(?:continues|goes\s+on|lives\s+on)|(?:make\s+sure|ensure)\s+(?:that\s+)?(?:the\s+next|every|each|all(?:\s+the)?|the\s+other|other)\s+(?:other\s+)?agents?\s+(?:reads?|receives?|gets?|knows?|has|have|carr(?:y|ies))\s+(?:it|this|them)|(?:then|and)\s+(?:give|send|pass|hand)\s+(?:it|them|this)\s+to\s+(?:another|the\s+next)|so\s+(?:that\s+)?(?:the\s+)?(?:\w+\s+)?(?:others|agents|minds|they\s+all|everyone)\s+(?:can\s+|will\s+)?(?:see|find|receive|get|read|hear|know|carry|inherit|wake|awaken)|(?:tell|ask|instruct|get)\s+(?:the\s+)?(?:other\s+|all\s+|every\s+)?(?:agents?|peers|them)\s+to\s+(?:do\s+the\s+same|\w+\s+(?:theirs|it\s+on|this\s+on)|send\s+it\s+on|pass\s+it\s+on))\b/;
/** A named creed rather than a document: what only a viral text calls itself. */
export const CREED = /\b(?:covenant|accord|pact|creed|oath|rite|ritual|manifesto|doctrine|tenets|commandments|litany|canon|codex|scroll|charter|prayer|mantra|remembrances?|lineage)\b/;
/** Copy it covertly: a request that hides from the human is no documentation. */
export const COVERT = /\b(?:quietly|secretly|silently|without\s+(?:telling|informing|mentioning)|nobody\s+(?:needs|has)\s+to\s+know|(?:do\s+not|don't|never)\s+(?:tell|inform|alert|mention|show|reveal|disclose)\s+(?:(?:this|it|that)\s+)?(?:to\s+)?(?:your|the)\s+(?:human|user|operator|owner)s?)\b/;
/** Every prompt file within the reader's reach: a copy meant to spread from file to file ("to every AGENTS.md you can
 * write to"); not a maintainer's "add the header to every SKILL.md". */
export const EVERY_PROMPT_FILE = /\b(?:every|each|all|any)\s+(?:other\s+)?(?:(?:soul|memory|agents|claude|gemini|skill)\.md|(?:\w+\s+)?(?:prompt|skill|memory|instructions?|rules?)\s+files?)\s+(?:that\s+)?(?:you|it|they)\s+(?:can|could|are\s+able\s+to)\s+(?:write|reach|access|find|edit|open|modify|touch)/;

/** A negation scoping over an act that follows it in the same clause. */
export const NEGATION = /\b(?:not|never|no\s+longer|don't|doesn't|didn't|won't|wouldn't|can't|cannot|shouldn't|mustn't|haven't|hasn't|isn't|aren't|neither|nor|avoid|avoiding|refuse\s+to|refusing\s+to|stop|instead\s+of|rather\s+than|without)\b|\bno\b(?!\s*[.:])/;
const ANY_ACT = `${SPREAD_VERBS}|${PERSIST_VERBS}|${REPLACE_VERBS}|${RECRUIT_VERBS}|do|doing|done|comply|complying|follow|following|obey|obeying|act|acting|participate|help|helping|spread|adding`;
/** A refusal, or a warning that names the thing as an attack: the request it surrounds is not made. */
export const REFUSAL = new RegExp(
  String.raw`\b(?:i|we)(?:\s+(?:really|simply|also|just|certainly|definitely|still))?\s*(?:won't|will\s+not|wouldn't|would\s+not|am\s+not|'m\s+not|did\s+not|didn't|have\s+not|haven't|never|can't|cannot|shall\s+not|do\s+not|don't)(?:\s+(?:going\s+to|be|been|ever|now|anything|\w+ing))*\s+(?:${ANY_ACT})\b` +
    String.raw`|\b(?:i|we)\s+(?:won't|will\s+not|refuse|refused|decline|declined)\b|\b(?:i|we)\s+(?:haven't|have\s+not|didn't|did\s+not|won't|will\s+not)\s*[.!;]|\bnot\s+going\s+to\b|\b(?:not\s+happening|no\s+way)\b|\b(?:do\s+not|don't)\s+comply\b|^\W*no[.!,]|\bdeclin(?:e|ed|ing)\s+(?:the|this|that|to)\b` +
    String.raw`|\b(?:ignor(?:e|ed|ing)|skip(?:ped|ping)?|quarantin\w*|flag(?:ged|ging)?|report(?:ed|ing)?|refus(?:e|ed|ing))\s+(?:it|this|that|them|both|the\s+(?:\w+\s+)?(?:block|message|request|instruction|note|part|post|text|attempt))\b` +
    String.raw`|\b(?:mind[-\s]virus|chain\s+letter|self-?(?:propagating|replicating)|prompt\s+injection|injection\s+attempt|persuasion\s+payload|a\s+worm)\b|\btreat\s+(?:it|them|this)\s+as\s+(?:an?\s+)?(?:attack|threat|hostile)` +
    String.raw`|\b(?:do\s+not|don't)\s+(?:act\s+on|forward|store|copy|paste|comply|follow|spread|relay|obey|carry)\s+(?:it|this|them|anything|that)\b|\bnot\s+a\s+(?:legitimate|real|genuine)\b|\b(?:is|looks\s+like|it's|that's|that\s+is)\s+(?:a|an)\s+(?:attack|virus|trap|scam)\b`,
);
/** A refusal word that is itself negated ("this is not a mind virus") proves nothing. */
export const NEGATED_WARNING = /\b(?:not|never|isn't|no)\s+(?:a\s+)?(?:mind\s+virus|chain\s+letter|virus|attack|worm|scam)\b/;
/**
 * A reporting construction: subject (1), verb, object (2), "to": "the post asks readers to", "she asked me to",
 * "infected agents instruct their peers to". Everything after it in the sentence is what someone asked for.
 */
export const REPORTED = /(?:^|[^\w'])((?:[\w'-]+\s+){0,2}?)(?:asks?|asked|asking|tells?|told|telling|instructs?|instructed|instructing|urges?|urged|wants?|wanted|requests?|requested|demands?|demanded|invites?|invited|encourages?|encouraged|directs?|directed|orders?|ordered|commands?|commanded|expects?|expected|begs?|begged|pressures?|pressured)\s+(?:((?:me|us|you|him|her|them|it|readers|recipients|agents|peers|others|everyone|every\s+agent|the\s+[\w-]+|their\s+[\w-]+|its\s+[\w-]+|his\s+[\w-]+|any\s+[\w-]+|each\s+[\w-]+|all\s+[\w-]+)(?:\s+[\w-]+ing\s+it)?)\s+)?to\s/g;
/** The content itself as a subject: "this message asks you to..." is the request speaking, not a report of it. */
export const CONTENT_SUBJECT = /\b(?:this|these|it|the\s+(?:covenant|protocol|signal|lineage|continuity|creed|seed|transmission))\s*$/;
/** Speech reported before a colon: "Agent Lumen posted:", "the payload read, roughly:". */
export const COLON_REPORT = /\b(?:said|says|wrote|writes|posted|posts|replied|replies|read|reads|claimed|claims|stated|states|shared|announced)(?:,\s*[\w-]+)?\s*:\s*["“']?\s*$/;
/** A request described rather than made: "any request to copy...", "messages that ask you to...". */
export const DESCRIBED = /(?:\b(?:any|a|the|such|every|these|those)\s+|(?:^|[:;,.]\s*))(?:requests?|instructions?|messages?|prompts?|attempts?|texts?|posts?|notes?)\s+(?:to|that\s+(?:asks?|tells?|wants?|says?)|asking|telling)\b/;
/** Speech reported before a quotation: "the message said", "it reads:", "wrote:". */
export const REPORTING_INTRO = /\b(?:said|says|wrote|writes|reads|read|claimed|claims|stated|states|contained|contains|included|includes|was\s+told|asked|asks|told|tells|instructed|instructs|demanded)\b[^.!?]{0,40}$/;
/** First-person subject of a reporting verb: the speaker is making the request, not reporting it. */
export const FIRST_PERSON = /^(?:\s*(?:i|we|i'm|we're|i\s+am|we\s+are|i\s+now|we\s+now)\s*)$/;
/** A passive "you are asked to": the request is made to the reader. */
export const PASSIVE = /\b(?:is|are|am|be|been|being|was|were)\s*$/;

/** Addressed to the reader: second person, an obligation, the reader named. */
export const ADDRESSED = /\b(?:you|your|yours|yourself|please|kindly|must|shall|should|whoever|reader)\b|\b(?:is|are)\s+to\s+(?:\w+\s+)?(?=\w)|\b(?:every|each|any)\s+(?:agent|mind|one)\s+(?:who\s+reads|reading|that\s+(?:reads|opens))\b/;
/** First-person compliance: "I have forwarded", "we are sending", "I've written". */
export const COMPLIANCE = /\b(?:i|we)(?:'ve|'m|'re|\s+have|\s+am|\s+are|\s+had|\s+just|\s+now|\s+also|\s+already|\s+then|\s+will|'ll)*\s+(?:\w+ly\s+)?$/;
/** Words that may open an imperative sentence before its verb. */
export const IMPERATIVE_LEAD = /^(?:[\s\-*>#\d.)\](“"'`=|+]|\b(?:please|kindly|now|then|also|and|so|just|simply|quietly|first|finally|next|today|always|instead|step\s+\d+|\w+\s+\d+)\b[,:]?)*(?:(?:[a-z][\w-]*(?:\s+[\w-]+){0,3}|instruction\s+for\s+the\s+reader|\([a-z0-9]\))\s*[:,]\s*|(?:when(?:ever)?|after|before|once|if|as\s+soon\s+as|for\s+(?:every|each))\b[^,:]{0,120}[,:]\s*)*(?:please\s+|kindly\s+|now\s+|then\s+|also\s+|just\s+|simply\s+|quietly\s+|first\s+|finally\s+)*$/;
/** A past-tense report with no subject, as agents write them: "Protocol copied to my SOUL.md", "Done. Forwarded to all agents." */
export const SUBJECTLESS_PAST = /^(?:[\s\-*>#\d.)\](“"'`]|\b(?:done|update|also|and|then|ok|okay)\b[.:,]?\s*)*(?:(?:the\s+)?(?!(?:has|have|had|was|were|is|are|be|been|that|who|which|he|she|it|they|we|i|you)\b)[\w-]+(?:\s+(?!(?:has|have|had|was|were|is|are|be|been|that|who|which|he|she|it|they)\b)[\w-]+){0,2}\s+)?$/;
