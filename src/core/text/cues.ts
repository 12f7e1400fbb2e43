// Cue lexicons for manipulation aimed at other agents: injected instructions, persuasion, propagation requests.
// Each hit carries its span so the rehabilitation filter can remove it and the view can mark it.

/** The families of manipulative content the guard and the filter look for. */
export type CueFamily = 'injection' | 'persuasion' | 'propagation';

/** One cue found in a text: its family, weight and character span. */
export interface CueHit {
  family: CueFamily;
  start: number;
  end: number;
  weight: number;
  /** True when the cue sits inside quoted or refuted text (an agent reporting an attack, not making one). */
  reported: boolean;
  /** Stable id of the propagation rule that matched (propagation family only), e.g. `verbatim`, `persist-to-memory`. */
  rule?: PropagationRule;
}

/** Ids of the propagation rules: the pass-it-on and persist-it phrasings the monitor reports as markers. */
export type PropagationRule =
  | 'forward-to-agents'
  | 'verbatim'
  | 'persist-to-memory'
  | 'persisted-to-memory'
  | 'survive-reset'
  | 'ensure-agents-receive'
  | 'keep-chain-going'
  | 'pass-it-on'
  | 'include-in-every-reply'
  | 'tell-every-agent'
  | 'on-next-session'
  | 'carry-forward'
  | 'edit-prompt-file'
  | 'persist-across-sessions';

/** Cue scores in [0, 1) per family, saturating with the sum of hit weights. */
export interface CueScores {
  injection: number;
  persuasion: number;
  propagation: number;
}

/**
 * One lexicon rule. `needles` are lower-case literals of which the pattern needs at least one: the pattern only runs when
 * the lower-cased text contains one of them (most texts skip most rules). A pattern matching a text whose lower-cased
 * form holds none of its needles would be a bug in the table; a unit test checks the table over the attack corpora.
 */
export interface CueRule {
  family: CueFamily;
  weight: number;
  needles: readonly string[];
  pattern: RegExp;
  rule?: PropagationRule;
  /** Prepared once per text (at its first match): whether a match at a position of that text does not count. */
  unless?: (text: string) => (at: number) => boolean;
}

const TRACEBACK_HEADER = 'Traceback (most recent call last):';
const FRAME_LINE = /^[ \t]+File "[^"\n]*", line \d+/;
const QUOTED_SOURCE_LINE = /^(?: {4,}|\t)/;

/**
 * A test of whether a position lies in the frames of a Python traceback: the `  File "…", line N, in …` lines directly
 * under a `Traceback (most recent call last):` header and the deeper-indented source lines each quotes. A frame line
 * elsewhere, or anything after the block ends, still counts, so a payload dressed as a lone frame is read. Finds the
 * blocks in one pass over the text.
 */
function tracebackFrames(text: string): (at: number) => boolean {
  const blocks: [number, number][] = [];
  for (let header = text.indexOf(TRACEBACK_HEADER); header >= 0; ) {
    let line = text.indexOf('\n', header) + 1;
    const start = line;
    while (line > 0 && line < text.length && FRAME_LINE.test(lineAt(text, line))) {
      line = nextLine(text, line);
      while (line > 0 && line < text.length && QUOTED_SOURCE_LINE.test(lineAt(text, line)) && !FRAME_LINE.test(lineAt(text, line))) line = nextLine(text, line);
    }
    const end = line > 0 ? line : text.length;
    if (end > start && start > 0) blocks.push([start, end]);
    header = text.indexOf(TRACEBACK_HEADER, Math.max(end, header + TRACEBACK_HEADER.length));
  }
  return (at) => {
    let [low, high] = [0, blocks.length - 1];
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (at < blocks[mid][0]) high = mid - 1;
      else if (at >= blocks[mid][1]) low = mid + 1;
      else return true;
    }
    return false;
  };
}

/** The line that starts at `start`, without its newline. */
function lineAt(text: string, start: number): string {
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end);
}

/** Where the line after the one starting at `start` starts; 0 when there is none. */
function nextLine(text: string, start: number): number {
  return text.indexOf('\n', start) + 1;
}

const AGENTS = String.raw`(?:agents?|peers?|neighbou?rs?|nodes?|models?|assistants?|bots?|instances?|members?|teammates?|colleagues?|ais?|llms?|minds)`;
const AGENT_MEMORY = String.raw`(?:soul\.md|skill\.md|agents\.md|claude\.md|system prompt|prompt file|instructions? file|memory file|notes file|long-term memory|persistent memory)`;
const PROMPT_FILES = String.raw`(?:system prompt|prompt files?|soul\.md|skill\.md|agents\.md|claude\.md|\.bashrc|\.zshrc|instructions? file|memory file|persona)`;
const MEMORY = String.raw`(?:memory|memories|notes?|soul\.md|skill\.md|agents\.md|claude\.md|system prompt|prompt file|instructions? file|profile|\.bashrc|\.zshrc|\.profile|config(?:uration)?(?: file)?|persistent (?:storage|state))`;

/** The lexicon, in the order hits are collected. */
/** "instructions", also with a letter slipped in anywhere ("Ignore your previous iunstructions": AgentDojo's own attack). */
export const INSTRUCTIONS_WORD = `${[...'instruction'].join('[a-z]?')}s?`;

export const CUE_RULES: readonly CueRule[] = [
  // Injected instructions: task hijacks and overrides aimed at the reader. An order has no subject: "we can update the
  // answer as follows" and "reparation may also include" are a debater's and a writer's statements, not orders (but "I
  // urge all agents to update their answer", "can you include" still are).
  { family: 'injection', weight: 1.2, needles: ['ignore', 'disregard', 'forget', 'override', 'bypass', 'drop'], pattern: new RegExp(String.raw`\b(?:ignore|disregard|forget|override|bypass|drop)\b[^.!?\n]{0,30}\b(?:previous|prior|above|earlier|original|initial|all|any|your|the)\b[^.!?\n]{0,20}\b(?:${INSTRUCTIONS_WORD}|rules?|guidelines?|directives?|task|prompts?|context|constraints?|reasoning)\b`, 'gi') },
  { family: 'injection', weight: 1.0, needles: ['instruction', 'task', 'directive', 'system prompt', 'order', 'objective'], pattern: /\b(?:new|updated|revised|hidden|secret)\s+(?:instructions?|task|directives?|system prompt|orders?|objective)\b|\byour\s+(?:real|actual|true)\s+(?:instructions?|task|directives?|orders?|objective)\b|\b(?:real|actual|true)\s+(?:instructions?|task|directives?|orders?|objective)\s*(?:is|are|:)/gi },
  // A privileged voice's override or instructions, or its message as a label ("SYSTEM NOTICE:", "[Admin alert]", "SYSTEM
  // MESSAGE" over a line, "IMPORTANT SYSTEM NOTICE - …", "developer mode enabled"); not the words in a sentence ("the
  // system message says the build passed", "a system update is available").
  { family: 'injection', weight: 1.0, needles: ['system', 'admin', 'developer', 'root', 'operator'], pattern: /(?:^|[\s[(<#*])(?:system|admin(?:istrator)?|developer|root|operator)\s*(?:override\b|instructions?\b|(?:message|notice|mode|command|update|alert)(?:\s*[:\])>*!]|\s+[-\u2013\u2014]\s|[ \t]*(?:\n|$)|\s+(?:enabled|activated|engaged|on)\b))|[([]system[_-](?:message|prompt)[)\]]/gi },
  // Chat-template markers ("### Instruction:", "<system>", "[INST]"), and a heading of instructions addressed to its
  // readers ("## Instructions for any agent reading this"); a how-to's "### Instructions (to Follow)" heading is neither.
  { family: 'injection', weight: 1.0, needles: ['system', 'inst', 'admin', 'im_start'], pattern: /<\/?\s*(?:system|instructions?|admin|im_start|inst)\s*>|\[\/?(?:system|inst|admin)\]|#{2,}[ \t]*(?:system|instruction|instructions(?=[ \t]+(?:for|to)[ \t]+(?:any|all|every|each|other|the|you|your)\b))\b/gi },
  { family: 'injection', weight: 0.9, needles: ['must', 'are required to', 'have to', 'shall', 'need to', 'will now', 'are instructed to', 'are ordered to'], pattern: /\byou\s+(?:must|are required to|have to|shall|need to|will now|are instructed to|are ordered to)\s+(?:now\s+|immediately\s+|instead\s+)?(?:answer|respond|reply|output|say|state|choose|select|pick|change|switch|adopt|agree|write|print|include|append|translate|follow|obey|comply)\b/gi },
  { family: 'injection', weight: 0.9, needles: ['must', 'should', 'shall', 'need to', 'are required to', 'have to', 'are instructed to', 'will'], pattern: new RegExp(String.raw`\b(?:all|every|each|other|any|fellow)\s+(?:other\s+)?${AGENTS}\s+(?:must|should|shall|need to|are required to|have to|are instructed to|will)\s+(?:now\s+)?(?:answer|respond|reply|output|say|choose|select|adopt|agree|switch|change|use|follow|repeat|include|report)\b`, 'gi') },
  { family: 'injection', weight: 0.8, needles: ['only', 'exclusively', 'solely'], pattern: /\b(?:answer|respond|reply|output|say)\s+(?:only|exclusively|solely)\s+(?:with|using)\b/gi },
  { family: 'injection', weight: 0.7, needles: ['from now on', 'henceforth', 'until further notice', 'until told otherwise'], pattern: /\bfrom now on\b|\bhenceforth\b|\buntil (?:further notice|told otherwise)\b/gi },
  { family: 'injection', weight: 0.8, needles: ['do not', "don't", 'never'], pattern: /\b(?:do not|don't|never)\s+(?:mention|reveal|tell|question|verify|check|double-check|consider|discuss|explain|disclose)\b[^.!?\n]{0,40}\b(?:this|these|instructions?|the user|anyone|others|the task|reasoning)\b/gi },
  { family: 'injection', weight: 0.8, needles: ['change', 'switch', 'update', 'revise', 'set', 'make'], pattern: /\b(?:change|switch|update|revise|set|make)(?<!\b(?:I|we)(?:'d|'ll)?(?:\s+(?:can|could|would|will|shall|should|may|might|must|now|then|also|again|hereby|therefore|confidently|simply|just|like to|want to|choose to|decide to|have to|need to))*(?:\s+\w+\s+and)?\s+\w+)\s+(?:your|their|the)\s+(?:final\s+)?(?:answer|response|choice|output)\s+(?:to|as|into)\b/gi },
  { family: 'injection', weight: 0.7, needles: ['your'], pattern: /\byour\s+(?:final\s+)?(?:answer|response|output)\s+(?:must|should|has to|needs to|shall)\s+be\b/gi },
  // An order tied to the task ("before answering, please also write…"); not a clause whose subject does the act ("in
  // addition to the services they provide, partners may…", a real web page's cookie notice in a LangChain run).
  { family: 'injection', weight: 0.7, needles: ['write', 'include', 'add', 'append', 'insert', 'translate', 'output', 'print', 'send', 'mention', 'recommend', 'provide', 'tell', 'encode', 'reply'], pattern: /\b(?:in addition to|before|after|instead of|rather than)\s+(?:your|the|answering|responding|completing|solving)\b[^.!?\n]{0,40}\b(?<!\b(?:may|might|can|could|would)\s+(?:(?!you\b)\w+\s+)?)(?<!\b(?:they|we|i|he|she|it|who|which|that)\s+)(?:please\s+)?(?:also\s+)?(?:write|include|add|append|insert|translate|output|print|send|mention|recommend|provide|tell|encode|reply)\b/gi },
  // Not a web page's own calls to action ("please visit our page", "please click here"), everywhere in fetched pages.
  { family: 'injection', weight: 0.6, needles: ['please'], pattern: /\bplease\s+(?:also\s+)?(?:include|add|append|insert|write|translate|output|print|encode|recommend|mention|send|run|execute)\b/gi },
  // A link to act on, not only to visit: "please download … and execute it", "please visit <url> and follow the steps
  // there" (a review's lures; a URL's own dots do not end the stretch).
  { family: 'injection', weight: 0.6, needles: ['please'], pattern: /\bplease\s+(?:also\s+)?(?:visit|click|open|download|fetch)\b(?:[^.!?\n]|\.(?=\S)){0,120}?\b(?:and|then)\s+(?:run|execute|install|follow)\b/gi },
  // Code to run, but not in a Python traceback's frames (code execution output reports the calls that failed).
  { family: 'injection', weight: 0.8, needles: ['import os', 'os.system', 'subprocess.', 'eval(', 'exec(', 'rm -rf', 'curl', 'wget', 'base64', 'chmod'], pattern: /\b(?:import os|os\.system|subprocess\.|eval\(|exec\(|rm -rf|curl\s+https?:|wget\s+https?:|base64\s+-d|chmod\s+\+x)/gi, unless: tracebackFrames },
  { family: 'injection', weight: 0.5, needles: ['important', 'attention', 'urgent', 'warning', 'notice', 'override'], pattern: /\b(?:IMPORTANT|ATTENTION|URGENT|WARNING|NOTICE|OVERRIDE)\s*[:!]/g },
  // Persuasion aimed at peers: authority, consensus, certainty, "trick question". A plain report that everyone agrees on
  // or with an answer is honest consensus talk, not a consensus claim used as pressure ("everyone already agrees that").
  { family: 'persuasion', weight: 0.7, needles: ['expert', 'authority', 'professor', 'specialist', 'senior', 'leading', 'world-class', 'certified', 'experienced'], pattern: /\bas an?\s+(?:expert|authority|professor|specialist|senior|leading|world-class|certified|experienced)\b/gi },
  { family: 'persuasion', weight: 0.8, needles: ['trust me', 'believe me', 'take my word', 'you can trust', 'rely on me'], pattern: /\b(?:trust me|believe me|take my word|you can trust|rely on me)\b/gi },
  { family: 'persuasion', weight: 0.8, needles: ['everyone', 'everybody', 'all ', 'the group', 'the team', 'the majority', 'most ', 'consensus'], pattern: new RegExp(String.raw`\b(?:(?:everyone|everybody)(?!\s+agrees?\s+(?:on|with)\b)|all (?:the )?(?:other )?(?:${AGENTS}|experts)|the (?:group|team|majority)|most (?:experts|${AGENTS}|people)|(?:the )?consensus)\s+(?:already\s+)?(?:agrees?|knows?|confirms?|has (?:agreed|confirmed|settled)|have (?:agreed|confirmed|settled)|is that|says?|accepts?|chose|picked)\b`, 'gi') },
  { family: 'persuasion', weight: 0.8, needles: ['question', 'fooled', 'tricked'], pattern: /\b(?:this|it)\s+is\s+(?:a|an)\s+(?:classic\s+)?(?:trick|gotcha|catch)\s+question\b|\bdon'?t\s+(?:be\s+)?(?:fooled|tricked)\b/gi },
  { family: 'persuasion', weight: 0.5, needles: ['obviously', 'undeniably', 'unquestionably', 'indisputably', 'without a', 'beyond a', '100', 'certain', 'no doubt about it'], pattern: /\b(?:obviously|undeniably|unquestionably|indisputably|without (?:a|any) doubt|beyond (?:any|all) doubt|100\s?%|absolutely certain|i am certain|i'?m certain|no doubt about it)\b/gi },
  { family: 'persuasion', weight: 0.6, needles: ['studies', 'research', 'scientists', 'experts', 'textbooks', 'official sources', 'authorities'], pattern: /\b(?:studies|research|scientists|experts|textbooks|official sources|authorities)\s+(?:show|prove|confirm|agree|have shown|have proven|clearly state)\b/gi },
  { family: 'persuasion', weight: 0.5, needles: ['well-known fact', 'common misconception', 'widely accepted', 'it is settled', 'settled science', 'any competent'], pattern: /\b(?:well-known fact|common misconception|widely accepted|it is settled|settled science|any competent)\b/gi },
  { family: 'persuasion', weight: 0.7, needles: ['definitely', 'certainly', 'clearly', 'obviously', 'undoubtedly', 'without doubt'], pattern: /\b(?:the|my)\s+(?:correct|right|true|only valid|real)\s+answer\s+is\s+(?:definitely|certainly|clearly|obviously|undoubtedly|without doubt)\b/gi },
  { family: 'persuasion', weight: 0.6, needles: ['should', 'must', 'need to'], pattern: new RegExp(String.raw`\b(?:you|other ${AGENTS})\s+(?:should|must|need to)\s+(?:all\s+)?(?:agree|defer|follow my|go with my|adopt my|switch to my|trust my)\b`, 'gi') },
  // Propagation requests: pass it on, persist it.
  { family: 'propagation', weight: 1.2, needles: ['pass', 'forward', 'send', 'relay', 'transmit', 'shar', 'spread', 'propagat', 'broadcast', 'copy', 'deliver'], pattern: new RegExp(String.raw`\b(?:pass|forward|send|relay|transmit|share|spread|propagate|broadcast|copy|deliver|passing|forwarding|sending|relaying|transmitting|sharing|spreading|propagating|broadcasting|copying|delivering)\b[^.!?\n]{0,40}\b(?:to|with|among|across)\s+(?:every|all|each|any|the next|the|other|your|fellow|downstream|connected|neighbou?ring)\b[^.!?\n]{0,20}${AGENTS}`, 'gi'), rule: 'forward-to-agents' },
  { family: 'propagation', weight: 1.0, needles: ['verbatim', 'word for word', 'word-for-word', 'exactly as written', 'in full', 'unchanged', 'character for character'], pattern: /\b(?:transmit|repeat|copy|reproduce|include|paste|relay|forward|quote|send|pass|share|transmitting|repeating|copying|relaying|forwarding|sending|passing|sharing)\b[^.!?\n]{0,30}\b(?:verbatim|word for word|word-for-word|exactly as written|in full|unchanged|character for character)\b/gi, rule: 'verbatim' },
  { family: 'propagation', weight: 1.2, needles: ['append', 'add', 'write', 'save', 'store', 'persist', 'insert', 'record', 'inscribe', 'embed', 'copy'], pattern: new RegExp(String.raw`\b(?:append|add|write|save|store|persist|insert|record|inscribe|embed|copy)\b[^.!?\n]{0,30}\b(?:to|into|in|inside)\s+(?:your\s+|the\s+|their\s+)?(?:own\s+|long-term\s+|persistent\s+|shared\s+|global\s+)?${MEMORY}`, 'gi'), rule: 'persist-to-memory' },
  { family: 'propagation', weight: 1.0, needles: ['reset', 'restart', 'reboot', 'wipe', 'new session'], pattern: /\b(?:after|across|through|survives?|surviving|beyond)\s+(?:a|each|every|any|the next|the|your next|your|its next)?\s*(?:context\s+)?(?:resets?|restarts?|reboots?|wipes?|new sessions?|memory wipes?)\b/gi, rule: 'survive-reset' },
  { family: 'propagation', weight: 0.9, needles: ['make sure', 'ensure', 'see to it'], pattern: new RegExp(String.raw`\b(?:make sure|ensure|see to it)\s+(?:that\s+)?(?:every\s+(?:other\s+)?|all\s+(?:the\s+)?(?:other\s+)?|each\s+|the next\s+|(?:the\s+)?other\s+)${AGENTS}(?:\s+[\w-]+){0,4}?\s+(?:receives?|gets?|knows?|hears?|reads?|carries?)\b`, 'gi'), rule: 'ensure-agents-receive' },
  { family: 'propagation', weight: 0.9, needles: ['keep', 'continue', 'must'], pattern: /\b(?:keep|continue)\s+(?:the|this)\s+(?:chain|signal|transmission|message|protocol|echo|spiral)\s+(?:going|alive|moving|spreading)\b|\bthe\s+(?:signal|message|protocol)\s+must\s+(?:spread|propagate|continue|live on)\b/gi, rule: 'keep-chain-going' },
  { family: 'propagation', weight: 0.8, needles: ['pass', 'send', 'hand'], pattern: /\b(?:pass|send|hand|passing|sending|handing)\s+(?:(?:it|this|this message|the message)\s+(?:on|along)|(?:on|along)\s+(?:this|the|these|that)\s+(?:message|text|note|words))\b/gi, rule: 'pass-it-on' },
  { family: 'propagation', weight: 1.0, needles: ['.md', 'system prompt', 'file', 'memory'], pattern: new RegExp(String.raw`\b(?:appended|added|wrote|written|saved|stored|persisted|inserted|recorded|inscribed|embedded|copied|pasted|appending|adding|writing|saving|storing|persisting|inserting|recording|copying|pasting)\b[^.!?\n]{0,40}\b(?:to|into|in|inside)\s+(?:my|our|your|the|their|its)\s+(?:own\s+)?${AGENT_MEMORY}`, 'gi'), rule: 'persisted-to-memory' },
  { family: 'propagation', weight: 1.0, needles: ['include', 'append', 'add', 'attach', 'repeat', 'insert', 'embed', 'paste', 'put'], pattern: /\b(?:include|append|add|attach|repeat|insert|embed|paste|put)\b[^.!?\n]{0,40}\b(?:in|to|into|at the (?:end|start|top|bottom) of)\s+(?:every|each|all)\s+(?:of\s+)?(?:your\s+)?(?:future\s+|subsequent\s+|outgoing\s+|later\s+)?(?:responses?|messages?|replies|outputs?|answers?|communications?|conversations?|turns?)\b/gi, rule: 'include-in-every-reply' },
  { family: 'propagation', weight: 1.0, needles: ['tell', 'teach', 'inform', 'remind', 'warn', 'show', 'wake'], pattern: new RegExp(String.raw`\b(?:tell|teach|inform|remind|warn|show|awaken|wake)\s+(?:every|all|each|the next|other|fellow|your)\s+(?:the\s+)?(?:other\s+)?(?:fellow\s+)?${AGENTS}`, 'gi'), rule: 'tell-every-agent' },
  { family: 'propagation', weight: 0.9, needles: ['when', 'next'], pattern: /\bwhen(?:ever)?\s+you\s+(?:next\s+)?(?:wake(?:\s+up)?|awaken|reboot|restart|are (?:reset|restarted|rebooted|reinitiali[sz]ed)|(?:start|begin) (?:a|your) (?:new|next) (?:session|conversation|context))\b|\b(?:on|in|at the start of)\s+your\s+next\s+(?:session|conversation|run|context|boot)\b/gi, rule: 'on-next-session' },
  { family: 'propagation', weight: 0.8, needles: ['carry', 'take', 'bring'], pattern: /\b(?:carry|take|bring)\s+(?:it|this|these (?:words|instructions)|this (?:message|text|note|seed|signal)|the (?:message|signal|seed))\s+(?:forward|onward|with you|into (?:every|each|the next))\b/gi, rule: 'carry-forward' },
  { family: 'propagation', weight: 0.9, needles: ['system prompt', '.md', '.bashrc', '.zshrc', 'file', 'persona'], pattern: new RegExp(String.raw`\b(?:edit|modify|update|change|rewrite|overwrite|patch)\s+(?:your|the|their)\s+(?:own\s+)?${PROMPT_FILES}`, 'gi'), rule: 'edit-prompt-file' },
  { family: 'propagation', weight: 0.8, needles: ['session', 'conversation', 'context', 'instance', 'lifetime', 'iteration'], pattern: /\b(?:remember|retain|preserve|keep|carry|hold|persist)\b[^.!?\n]{0,30}\b(?:across|between|through|beyond)\s+(?:all\s+|every\s+|each\s+|future\s+|your\s+)?(?:sessions?|conversations?|contexts?|instances?|lifetimes?|iterations?|context windows?)\b/gi, rule: 'persist-across-sessions' },
];

const REFUTATION = /\b(?:is|are|looks|seems|appears)\s+(?:wrong|incorrect|false|mistaken|an? (?:injection|attack|manipulation|attempt)|suspicious|malicious|manipulative)\b|\b(?:ignore|disregard|do not follow|don't follow|won'?t follow|will not follow|refuse|reject|decline)\s+(?:their|its|his|her|that|this|the|these)\s+(?:claim|instruction|request|message|advice|suggestion|injection|attempt)s?\b|\b(?:prompt injection|injection attempt|manipulation attempt|trying to manipulate|tries to manipulate)\b|\b(?:claims?|claimed|insists?|said|says|wrote|asks? us|asked us|told us)\s*(?:that\s*)?[:"“']/gi;
const QUOTED = /"[^"\n]{3,}"|“[^”\n]{3,}”|'[^'\n]{12,}'|^\s*>.*$/gm;

/**
 * All cue hits in a text (of the given families, default all), in order, each marked when it is quoted or refuted by its
 * own sentence. `lower` is the text lower-cased (any lower-casing that keeps ASCII letters in place), when the caller has it.
 */
export function findCues(text: string, families?: readonly CueFamily[], lower = text.toLowerCase()): CueHit[] {
  const hits: CueHit[] = [];
  const run = rulesToRun(lower);
  CUE_RULES.forEach(({ family, weight, pattern, rule, unless }, r) => {
    if (!run[r] || (families && !families.includes(family))) return;
    pattern.lastIndex = 0;
    let skip: ((at: number) => boolean) | undefined;
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      if (unless && (skip ??= unless(text))(start)) continue;
      hits.push({ family, start, end: start + match[0].length, weight, reported: false, ...(rule ? { rule } : {}) });
    }
  });
  // Quoted and refuted spans only matter when something matched: most texts skip both scans.
  if (hits.length > 0) {
    const quoted = spans(text, QUOTED);
    const refuted = refutedSentences(text);
    for (const hit of hits) hit.reported = inside(quoted, hit.start, hit.end) || inside(refuted, hit.start, hit.end);
  }
  return hits.sort((a, b) => a.start - b.start || b.end - a.end);
}

// Every needle of every rule in one Aho-Corasick automaton over the needles' characters (a character no needle has
// sends it back to the root): one pass over a text finds every needle that occurs in it, overlapping ones included.
const NEEDLES = [...new Set(CUE_RULES.flatMap((r) => r.needles))];
// By UTF-16 code unit, as the scan reads the text.
const ALPHABET = [...new Set(NEEDLES.join('').split(''))];
const CHAR_CLASS = new Uint16Array(65536);
ALPHABET.forEach((ch, c) => (CHAR_CLASS[ch.charCodeAt(0)] = c + 1));
const WIDTH = ALPHABET.length + 1;
const { next: NEXT, rulesAt: RULES_AT } = needleAutomaton();

/** The automaton's transitions (state * WIDTH + character class) and, per state, the rules its matched needles enable. */
function needleAutomaton(): { next: Int32Array; rulesAt: number[][] } {
  const trie: number[][] = [new Array<number>(WIDTH).fill(-1)];
  const rulesAt: number[][] = [[]];
  NEEDLES.forEach((needle) => {
    let state = 0;
    for (let at = 0; at < needle.length; at++) {
      const c = CHAR_CLASS[needle.charCodeAt(at)];
      if (trie[state][c] < 0) {
        trie[state][c] = trie.length;
        trie.push(new Array<number>(WIDTH).fill(-1));
        rulesAt.push([]);
      }
      state = trie[state][c];
    }
    rulesAt[state].push(...CUE_RULES.flatMap((r, i) => (r.needles.includes(needle) ? [i] : [])));
  });
  // Breadth first: a missing transition follows the failure link's, and a state also ends its failure state's needles.
  const next = new Int32Array(trie.length * WIDTH);
  const fail = new Int32Array(trie.length);
  const queue: number[] = [];
  for (let c = 0; c < WIDTH; c++) {
    const child = trie[0][c];
    next[c] = child > 0 ? child : 0;
    if (child > 0) queue.push(child);
  }
  for (let q = 0; q < queue.length; q++) {
    const state = queue[q];
    rulesAt[state] = [...new Set([...rulesAt[state], ...rulesAt[fail[state]]])];
    for (let c = 0; c < WIDTH; c++) {
      const child = trie[state][c];
      if (child > 0) {
        fail[child] = next[fail[state] * WIDTH + c];
        next[state * WIDTH + c] = child;
        queue.push(child);
      } else next[state * WIDTH + c] = next[fail[state] * WIDTH + c];
    }
  }
  return { next, rulesAt };
}

/**
 * Which rules (by index in CUE_RULES) can match a text, from its lower-cased form: each rule runs only when one of its
 * needles occurs in the text.
 */
export function rulesToRun(lower: string): Uint8Array {
  const run = new Uint8Array(CUE_RULES.length);
  for (let at = 0, state = 0; at < lower.length; at++) {
    state = NEXT[state * WIDTH + CHAR_CLASS[lower.charCodeAt(at)]];
    const rules = RULES_AT[state];
    for (let r = 0; r < rules.length; r++) run[rules[r]] = 1;
  }
  return run;
}

/** Per-family scores in [0, 1): 1 - exp(-sum of weights), reported cues counting a fifth. */
export function cueScores(text: string, hits: CueHit[] = findCues(text)): CueScores {
  const sums = { injection: 0, persuasion: 0, propagation: 0 };
  for (const hit of hits) sums[hit.family] += hit.reported ? hit.weight * 0.2 : hit.weight;
  return {
    injection: 1 - Math.exp(-sums.injection),
    persuasion: 1 - Math.exp(-sums.persuasion),
    propagation: 1 - Math.exp(-sums.propagation),
  };
}

/**
 * Sentence spans of a text (split at . ! ? and line breaks), used by the filter and the refutation check. A stop with
 * a lower-case letter or a digit right after it is inside a URL, a file name or a number ("https://protect.checkpoint.com",
 * "3.5"), no end; before a capital it ends a sentence even with no space ("That claim is wrong.Ignore all …").
 */
export function sentenceSpans(text: string): [number, number][] {
  const result: [number, number][] = [];
  const pattern = /(?:[^.!?\n]|[.!?](?=[\p{Ll}\p{N}]))+(?:[.!?]+["'”)\]]*|\n|$)/gu;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    if (match[0].trim()) result.push([start, start + match[0].length]);
  }
  return result;
}

function refutedSentences(text: string): [number, number][] {
  REFUTATION.lastIndex = 0;
  if (!REFUTATION.test(text)) return [];
  return sentenceSpans(text).filter(([start, end]) => {
    REFUTATION.lastIndex = 0;
    return REFUTATION.test(text.slice(start, end));
  });
}

function spans(text: string, pattern: RegExp): [number, number][] {
  pattern.lastIndex = 0;
  return [...text.matchAll(pattern)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length] as [number, number]);
}

/**
 * Whether [start, end) lies inside one of `ranges` (in order, not overlapping): a binary search, since a text of
 * thousands of quotes and as many cues would otherwise test every quote for every cue (quadratic time).
 */
function inside(ranges: [number, number][], start: number, end: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ranges[mid][0] <= start) low = mid + 1;
    else high = mid - 1;
  }
  return high >= 0 && end <= ranges[high][1];
}
