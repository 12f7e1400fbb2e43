// Finds the prompts of a project's code by where they go: every call, dict and message list is matched against the
// sink table, each sink's value is followed to the literals it is made of (in any file of the project), and each
// interpolation into a prompt is checked for another agent's output. Names alone make a prompt only as a fallback
// (a constant named like a system prompt holding prose), never to decide delegation on their own.
import { errorMessage } from '../errors';
import { escapeRegExp } from '../regexSafety';
import { oneLine } from './findings';
import { COMMAND_LINE_AGENTS } from './commandLine';
import { containsImmunityWarning, detectionWords, isInsideBoundary } from './detect';
import { walk, type ModuleSummary, type Scope } from './module';
import { chainText, lastName, rootName, type ProjectModel } from './project';
import { delegatedByName, jinjaPlaceholders, MAX_HELPER_CALLS, meaningful, placeholders, Resolver, roleNamed, textOutsideHoles, type Candidate, type Frame, type Loc, type Piece, type PromptText } from './resolve';
import { CLASSIFIER_CLASSES, FETCHERS, GRIPTAPE_PARENT_OUTPUTS, IO_SCHEMAS, isAgentMethod, isModelCall, MODEL_CALL_FRAMEWORK, NOT_AGENT_CALLEES, sdkNamed, SINK_RULES, sinkFramework, SYSTEM_KEYWORDS, type PlaceholderStyle, type SinkRule } from './sinks';
import type { Arg, Expr } from './syntax';
import type { SinkRole } from './types';

/** A prompt found in code: the literals it is made of, and where it meets its sink. */
export interface FoundPrompt {
  role: SinkRole;
  framework: string;
  /** The sink, as the user wrote it: `Agent(instructions=)`, `role: system`, `SYSTEM_PROMPT`. */
  anchor: string;
  sink: { file: string; start: number };
  pieces: Piece[];
  /** Where the warning goes: the first literal of the prompt. */
  primary: Piece;
  hardened: boolean;
  /** Found by its name only (a constant named like a system prompt), not at a sink. */
  byName: boolean;
  candidates: Candidate[];
  placeholders?: PlaceholderStyle;
  /** The sink takes bytes, not text (a Python process's stdin without text=True): a value put there is not wrapped. */
  bytes?: boolean;
}

/** Another agent's output put into a prompt outside a boundary. */
export interface FoundDelegation {
  candidate: Candidate;
  /** Why it is another agent's output. */
  why: string;
  prompt: FoundPrompt;
  /** The text the boundary check looks in (the literal, or the concatenation) and where it starts in the file. */
  context: { start: number; end: number };
  /** Handed whole to a runnable known only as a model call, and maybe not text (a pipeline step's dict): no str() around it. */
  wholeInput?: true;
}

/** A system-prompt sink whose value could not be read (so it is neither hardened nor a finding). */
export interface UnresolvedSink {
  file: string;
  start: number;
  anchor: string;
  /** Why each part of the value could not be read, in order. */
  reasons: string[];
  /** Files the value is read from at run time (`Path("prompts/x.md").read_text()`): path as written, and the reading file. */
  reads: { from: string; path: string }[];
}

/** What discovery found in the code of a project. */
export interface CodeDiscovery {
  prompts: FoundPrompt[];
  delegations: FoundDelegation[];
  unresolved: UnresolvedSink[];
  /** Files whose discovery failed, with the reason. */
  failed: Map<string, string>;
  /** State keys other agents write (ADK output_key, graph nodes returning model replies), with who writes them. */
  stateKeys: Map<string, string>;
  /** Crew inputs given another agent's output (`kickoff(inputs={"x_post": self.state.x_post})`): the key, the kickoff's folder, and why. */
  crewInputs: CrewInput[];
}

/** An input a crew is kicked off with that carries another agent's output. */
export interface CrewInput {
  key: string;
  /** The folder of the file that kicks the crew off (its crews' task configs sit under it). */
  dir: string;
  why: string;
}

interface Hit {
  role: SinkRole;
  framework: string;
  anchor: string;
  value: Expr;
  loc: Loc;
  frames: readonly Frame[];
  sinkStart: number;
  /** System hits with the same group form one prompt: one agent's parts (CrewAI's role, goal and backstory; Pydantic AI's `instructions=` and `@agent.instructions`). */
  group?: Expr;
  byName: boolean;
  placeholders?: PlaceholderStyle;
  /** Not reported as unread when its value cannot be followed (a prompt keyword on a call no rule names). */
  quiet?: boolean;
  /** The sink takes bytes, not text (a Python process's stdin without text=True). */
  bytes?: boolean;
  /** The model or agent call whose input the sink is (a prompt found only as a model call's argument). */
  sinkCall?: Extract<Expr, { k: 'call' }>;
}

/**
 * Identifiers that make a file worth scanning for sinks (a file without any is scanned only when another file needs
 * it): prompt keywords and the callees of the sink table. Common method names of model calls (`run`, `invoke`,
 * `chat`...) count only beside the name of an AI library the file imports.
 */
const SINK_WORDS = [
  ...SYSTEM_KEYWORDS, 'system', 'prompt', 'backstory', 'goal', 'SystemMessage', 'HumanMessage', 'UserMessage', 'TextMessage', 'SystemMessagePromptTemplate',
  'kickoff', 'kickoff_async', 'initiate_chat', 'a_initiate_chat', 'generate_reply', 'generate_content', 'generateContent', 'generateText', 'streamText',
  'generateObject', 'streamObject', 'completion', 'acompletion', 'completions', 'model_client', 'run_sync', 'run_streamed', 'update_system_message',
  'add_system_message', 'add_developer_message', 'add_user_message', 'from_template', 'fromTemplate', 'Runner', 'ChatAgent',
  'Signature', 'with_instructions', 'sys_prompt', 'PromptTask', 'SystemPromptGenerator', 'AuthorRole', 'MessageRole', ...COMMAND_LINE_AGENTS.map((agent) => agent.command),
];
const CALL_WORDS = ['run', 'arun', 'run_stream', 'run_async', 'do', 'do_async', 'print_do', 'print_do_async', 'invoke', 'ainvoke', 'stream', 'astream', 'batch', 'generate', 'chat', 'achat', 'complete', 'acomplete', 'query', 'predict', 'get_response', 'on_messages', 'send_message', 'responses', 'create', 'messages', 'step'];
const AI_LIBRARIES = /^(?:openai|anthropic|langchain\w*|langgraph\w*|autogen\w*|ag2|crewai\w*|adk|genai|vertexai|claude_agent_sdk|claude_code_sdk|agents|pydantic_ai|semantic_kernel|llama_index|llamaindex|litellm|ollama|mistralai|groq|cohere|transformers|dspy|smolagents|agno|mastra|camel|agentscope|upsonic|griptape|ai|sdk)$/;
/** A role name written as a string (`"system"`, `'user'`), or a role taken from a name (a message helper): the files with role dicts and message tuples. */
const ROLE_LITERAL = /["'](?:system|developer|user|human)["']|["']role["']\s*:\s*[A-Za-z_]/;

/** Callees that configure a tool or a toolkit (agno's `@tool(...)`, `Toolkit(...)`), and the base classes of toolkits. */
const TOOL_CONFIG_CALLEES = /^(?:tool|Toolkit)$/;
/** Callees whose prompt keywords are agent or model configuration (an unreadable value there is worth reporting). */
const AGENTISH_CALLEE = /agent|assistant|options|llm|chat|crew|team|config|create|completion|message|model|prompt|session|runner|swarm|graph/i;
/** Whether `start..end` sits between double quotes on its line (`"papers citing {paper}"`) or in single ones (`'{paper}'`). */
function insideQuotes(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const before = text.slice(lineStart, start);
  const after = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  const doubles = (t: string) => (t.match(/"/g) ?? []).length;
  return (doubles(before) % 2 === 1 && doubles(after) > 0) || (before.endsWith("'") && after.startsWith("'"));
}

/** A name the code searches other text for: `.includes(NAME)`, `.startsWith(NAME)`, `.indexOf(NAME)`, `NAME in text`. */
const SEARCHED_FOR = /\.(?:includes|startsWith|endsWith|indexOf|lastIndexOf|startswith|endswith|find|count)\(\s*([A-Za-z_$][\w$]*)\s*[,)]|\b([A-Z][A-Z0-9_]+)\s+(?:not\s+)?in\s+[\w.]/g;

/** A callback named for an event (`onAuth`, `on_message`). */
const EVENT_HANDLER = /^on(?:[A-Z]|_[a-z])/;

const ROLE_OF: Record<string, SinkRole | undefined> = { system: 'system', developer: 'system', user: 'message', human: 'message' };
const MODEL_PROMPT_KEYS = ['input', 'prompt', 'task', 'message', 'messages', 'contents', 'query', 'question'];
const ADK_KEYS = new Set(['instruction', 'global_instruction', 'static_instruction']);
/** Keywords that make a Python process's stdin and output text rather than bytes. */
const TEXT_MODE_KEYS = ['text', 'universal_newlines', 'encoding', 'errors'];
/** An argument named for an object that runs things (`kernel`, `self.client`, `ctx`), never a model call's prompt text. */
const OBJECT_ARGUMENT = /^(?:self\.|this\.)?_?(?:kernel|client|llm|model|agent|session|ctx|context|config|settings|runtime|deps)$/i;
/** Keys that make a dict or object an agent's config (beside a prompt key). */
const AGENT_CONFIG_KEYS = new Set(['name', 'model', 'tools', 'handoffs', 'sub_agents', 'subAgents', 'output_key', 'outputKey', 'description', 'llm', 'model_client', 'agents', 'provider', 'temperature']);

/**
 * Calls that fill a template's slots (`TEMPLATE.format(instructions=…)`, `prompt.partial({ instructions })`): a slot
 * named `instructions` is a part of the template, which is checked as the prompt it is, not a prompt of its own.
 */
const TEMPLATE_FILLS = /^(?:format|format_map|substitute|safe_substitute|partial)$/;

/** Event handlers and displays: what they are handed is shown, not prompted. */
const UI_CALLS = /^(?:on[A-Z]\w*|emit|notify\w*|display\w*|show[A-Z]?\w*|print\w*|toast\w*)$/;

/** A memory store's writes, and the keys that say whose memory a write goes to (mem0's `user_id=`, `agent_id=`, `run_id=`). */
const MEMORY_WRITE = /^(?:a?add|add_memory|save|store|upsert)$/;
const MEMORY_KEYS = ['user_id', 'agent_id', 'run_id', 'userId', 'agentId', 'runId'];

/** Keys of a recorded agent step (SWE-agent's trajectory), two of which beside a `messages` list make it history. */
const RECORDED_STEP_KEYS = new Set(['thought', 'action', 'observation', 'response']);

/** A short line that speaks to nobody (`Switched to model: …`, `Chat history compacted successfully.`). */
function statusLine(text: string): boolean {
  return text.length <= 200 && (text.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 6 && !/\byou(?:r|rs|rself)?\b/i.test(text);
}

/** A string literal's plain value when it has no interpolation. */
function plain(module: ModuleSummary, e: Expr | undefined): string | undefined {
  return e?.k === 'str' && e.holes.length === 0 ? module.text.slice(e.literal.contentStart, e.literal.contentEnd) : undefined;
}

/** True when a prompt's text reads as prose (words with spaces or a sentence end), not a key, a name or a flag. */
function prose(texts: readonly string[]): boolean {
  const joined = texts.join(' ').trim();
  // A text with no space is a name (a key, a path or glob, a tag, `gen_ai.system_instructions`), unless it is one
  // word ending a sentence ("Summarize.").
  if (texts.every((t) => !/\s/.test(t.trim()))) return texts.length === 1 && /^\p{L}+[.!?]['"]?$/u.test(joined);
  // A slash command and its arguments (`/team [prompt]`) is a command line.
  if (/^\/[\w-]+(?:\s+\[[^\]]*\])*$/.test(joined)) return false;
  // Markup is no words: a chat template's `<<SYS>> … <</SYS>>` or `[INST]` around a hole is a format (continue's Llama 2).
  const words = detectionWords(joined.replace(/<<?\/?[\w:.-]+>>?|\[\/?[A-Z_]+\]/g, ' ')).filter((w) => /\p{L}/u.test(w));
  return words.length >= 2 || (words.length === 1 && /\p{L}[.!?]['"]?$/u.test(joined));
}

class Discoverer {
  readonly resolver: Resolver;
  private readonly namePattern: RegExp;
  readonly result: CodeDiscovery = { prompts: [], delegations: [], unresolved: [], failed: new Map(), stateKeys: new Map(), crewInputs: [] };
  private readonly fills = new Map<string, Map<string, { expr: Expr; loc: Loc }[]>>();
  /** Role dicts handed to a memory store's write or to an event handler: stored or shown, never prompted. */
  private readonly storedMessages = new Set<Expr>();
  /** Messages an agent returns as its own reply, never a prompt. */
  private readonly ownReplies = new Set<Expr>();
  /** Messages a memory adds to an AutoGen model context on every turn: context text, never the agent's system prompt. */
  private readonly contextMessages = new Set<Expr>();
  /** Role dicts that are the `message` of a chat-history item (an object with other keys beside it). */
  private readonly historyMessages = new Set<Expr>();
  /** Dicts inside a documented example (`"examples": {...}`): messages shown, not sent. */
  private readonly exampleDicts = new Set<Expr>();
  /** Option objects of speech, image and other non-agent calls (their `instructions` are no prompt). */
  private readonly notAgentConfigs = new Set<Expr>();
  /** Per file, where the literals of its marker constants start (constants the code searches other text for). */
  private readonly markers = new Map<string, Set<number>>();

  constructor(
    readonly project: ProjectModel,
    systemPromptNames: RegExp,
    stateKeys: ReadonlyMap<string, string>,
  ) {
    this.resolver = new Resolver(project, stateKeys);
    this.namePattern = systemPromptNames;
  }

  /**
   * Whether a piece is a constant the code searches other text for (`metadata.includes(MARKER)`, `MARKER in text`):
   * that text may have been written before or elsewhere, so an edited marker stops matching it (cline's workspace
   * section was then emitted twice). A marker is never where a fix goes.
   */
  private isMarker(piece: Piece): boolean {
    let starts = this.markers.get(piece.file);
    if (!starts) {
      starts = new Set();
      const module = this.project.module(piece.file);
      if (module) {
        const searched = new Set([...module.text.matchAll(SEARCHED_FOR)].map((m) => m[1] ?? m[2]));
        for (const [key, defs] of module.defs) {
          if (!searched.has(key.slice(key.indexOf(':') + 1))) continue;
          for (const def of defs) if (def.value.k === 'str') starts.add(def.value.literal.start);
        }
      }
      this.markers.set(piece.file, starts);
    }
    return starts.has(piece.literal.start);
  }

  /** Files that mention a name the system-prompt name pattern takes (tested once per distinct identifier). */
  private filesWithPromptNames(): Set<string> {
    const out = new Set<string>();
    for (const [word, files] of this.project.wordIndex()) if (this.matchesPromptNames(word)) for (const file of files) out.add(file);
    return out;
  }

  /**
   * Whether a constant named like a prompt is only ever appended to another prompt: every use of it in the project adds
   * it to a text already built (`system_message += DONE_INSTRUCTION`) or describes a schema's field
   * (`Field(description=WORKER_INSTRUCTION)`, structured output, not a prompt). The prompt it joins has its own warning:
   * langroid's SQL agent would have carried the warning four times, one per appended instruction. Any other use (`x +
   * NAME` may open a prompt the constant is the whole of; `module.NAME`; an import under another name) keeps it a prompt.
   */
  private onlyAPart(name: string, file: string, defStart: number): boolean {
    let parts = 0;
    const use = new RegExp(`(?<![\\w$'"])${escapeRegExp(name)}(?![\\w$'"])`, 'g');
    for (const path of this.project.filesContaining(name)) {
      const text = this.project.source(path)?.text ?? '';
      for (const match of text.matchAll(use)) {
        if (path === file && match.index === defStart) continue;
        const before = text.slice(Math.max(0, match.index - 400), match.index);
        const after = text.slice(match.index + name.length, match.index + name.length + 40);
        // Another module's constant of the same name (langroid's SQL, Neo4j and ArangoDB agents each define one).
        if (DEFINED.test(after) && /(?:^|\n)[ \t]*$/.test(before)) continue;
        if (APPENDED_OR_DESCRIBED.test(before)) parts++;
        else if (!IMPORTED.test(before) || RENAMED.test(after)) return false;
      }
    }
    return parts > 0;
  }

  /**
   * Whether a name matches harden.systemPromptNames. The pattern may come from a repository's config: names longer
   * than any prompt's are not tried, so one that backtracks polynomially stays short.
   */
  private matchesPromptNames(name: string): boolean {
    if (name.length > MAX_PROMPT_NAME) return false;
    return ![PREDICATE_NAME, TOOL_TEXT_NAME, ADDENDUM_NAME, SPEECH_NAME].some((notPrompt) => notPrompt.test(name)) && this.namePattern.test(name);
  }

  run(files: Iterable<string>): CodeDiscovery {
    const hits: Hit[] = [];
    const candidates = this.filesWithPromptNames();
    for (const word of SINK_WORDS) for (const file of this.project.filesContaining(word)) candidates.add(file);
    const aiFiles = this.project.filesWithWordMatching(AI_LIBRARIES);
    for (const word of CALL_WORDS) for (const file of this.project.filesContaining(word)) if (aiFiles.has(file)) candidates.add(file);
    for (const file of files) {
      if (!candidates.has(file) && !ROLE_LITERAL.test(this.project.source(file)?.text ?? '')) continue;
      try {
        const module = this.project.module(file);
        if (module) hits.push(...this.hitsIn(file, module));
      } catch (error) {
        this.result.failed.set(file, errorMessage(error));
      }
    }
    const byPrimary = new Map<string, FoundPrompt>();
    for (const group of this.groups(hits)) {
      try {
        for (const prompt of this.promptsOf(group)) {
          const key = `${prompt.primary.file}:${prompt.primary.literal.start}`;
          const known = byPrimary.get(key);
          byPrimary.set(key, known ? merge(known, prompt) : prompt);
        }
      } catch (error) {
        this.result.failed.set(group[0].loc.file, errorMessage(error));
      }
    }
    // A constant found by its name that is spliced into another prompt is part of that prompt, not another one: continue's
    // `CODEBLOCK_FORMATTING_INSTRUCTIONS` inside its `DEFAULT_CHAT_SYSTEM_MESSAGE` (both found by name) is warned once.
    const pieceKey = (piece: Piece) => `${piece.file}:${piece.literal.start}`;
    const parts = new Set([...byPrimary.values()].flatMap((p) => p.pieces.map(pieceKey).filter((key) => key !== pieceKey(p.primary))));
    this.result.prompts = [...byPrimary.values()].filter((p) => !p.byName || !parts.has(pieceKey(p.primary)));
    const seen = new Set<string>();
    for (const prompt of this.result.prompts) {
      for (const candidate of prompt.candidates) {
        const key = `${candidate.file}:${candidate.start}:${candidate.end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        try {
          const found = this.delegation(prompt, candidate);
          if (found) this.result.delegations.push(found);
        } catch (error) {
          this.result.failed.set(candidate.file, errorMessage(error));
        }
      }
    }
    this.result.stateKeys = this.resolver.stateKeys();
    this.result.crewInputs = this.crewInputs();
    return this.result;
  }

  /** The inputs crews are kicked off with (`kickoff(inputs={...})`) that carry another agent's output. */
  private crewInputs(): CrewInput[] {
    const out: CrewInput[] = [];
    for (const file of this.project.filesContaining('inputs')) {
      const module = this.project.module(file);
      for (const root of module?.roots ?? []) {
        walk(root.expr, (e) => {
          if (e.k !== 'call' || !/^kickoff(?:_async)?$/.test(lastName(e.callee) ?? '')) return;
          const inputs = e.args.find((a) => a.name === 'inputs')?.value;
          if (inputs?.k !== 'dict') return;
          for (const entry of inputs.entries) {
            if (entry.key === undefined) continue;
            this.resolver.begin();
            const why = this.resolver.agentOutput(entry.value, { file, scope: root.scope }, []);
            if (why) out.push({ key: entry.key, dir: file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '', why });
          }
        });
      }
    }
    return out;
  }

  /**
   * The call that made the agent a decorator names (`support = Agent(instructions=…)` for `@support.instructions`):
   * Pydantic AI adds the function's text to that call's prompt, so the two are one prompt.
   */
  private agentCall(agent: Expr, loc: Loc): Expr | undefined {
    this.resolver.begin();
    const calls = this.resolver.values(agent, loc, []).filter((v) => v.expr.k === 'call');
    return calls.length === 1 ? calls[0].expr : undefined;
  }

  /**
   * Groups hits into prompts: hits of one call sharing a group are one prompt; others stand alone. In a group, the
   * `instructions` come first, so the warning goes there: Pydantic AI sends them every turn, its `system_prompt` not
   * when a run is handed a message history.
   */
  private groups(hits: Hit[]): Hit[][] {
    // The warning goes first into what is sent every turn, then into a whole system prompt (`system_prompt=` beside a
    // CrewAI-style `role=`/`goal=`: Upsonic's agent put it in the goal).
    const rank = (hit: Hit) => (SENT_EVERY_TURN.test(hit.anchor) ? 2 : SYSTEM_KEYWORDS.includes(/\((\w+)=\)$/.exec(hit.anchor)?.[1] ?? '') ? 1 : 0);
    // A system message whose whole content is a value serialised (`content: JSON.stringify(sessionState)`, or a name
    // bound to one) is data stored as a message and parsed back: text inserted into it breaks the parse (praisonai-ts
    // saved its session so). A user turn of JSON stays a prompt: what it carries is checked.
    const serialised = (hit: Hit) => {
      if (hit.role !== 'system') return false;
      this.resolver.begin();
      const values = hit.value.k === 'name' ? this.resolver.values(hit.value, hit.loc, hit.frames) : [{ expr: hit.value }];
      return values.length > 0 && values.every((v) => v.expr.k === 'call' && SERIALISERS.test(lastName(v.expr.callee) ?? ''));
    };
    return this.groupedHits(hits.filter((hit) => !serialised(hit))).map((group) => (group.length > 1 ? [...group].sort((a, b) => rank(b) - rank(a)) : group));
  }

  private groupedHits(hits: Hit[]): Hit[][] {
    const grouped = new Map<Expr, Hit[]>();
    const out: Hit[][] = [];
    for (const hit of hits) {
      if (!hit.group || hit.role !== 'system') {
        out.push([hit]);
        continue;
      }
      const list = grouped.get(hit.group);
      if (list) list.push(hit);
      else {
        const fresh = [hit];
        grouped.set(hit.group, fresh);
        out.push(fresh);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ sinks

  private hitsIn(file: string, module: ModuleSummary): Hit[] {
    const hits: Hit[] = [];
    const language = module.language;
    const rules = SINK_RULES.filter((r) => r.languages.includes(language));
    for (const root of module.roots) walk(root.expr, (e) => void (e.k === 'call' && this.markNotPrompts(deferredCall(e) ?? e, { file, scope: root.scope }, module)));
    for (const root of module.roots) {
      const loc: Loc = { file, scope: root.scope };
      walk(root.expr, (e) => {
        if (e.k === 'call') this.callHits(deferredCall(e) ?? e, loc, module, rules, hits);
        else if (e.k === 'dict') {
          const item = e.entries.length > 1 ? e.entries.find((entry) => entry.key === 'message' && entry.value.k === 'dict') : undefined;
          if (item) this.historyMessages.add(item.value);
          // A recorded step's messages (`{thought, action, observation, messages: [{role: "system", …}]}`, a trajectory
          // viewer's) are history too.
          const stepKeys = e.entries.filter((entry) => entry.key !== undefined && RECORDED_STEP_KEYS.has(entry.key)).length;
          const recorded = stepKeys >= 2 ? e.entries.find((entry) => entry.key === 'messages')?.value : undefined;
          if (recorded?.k === 'list') for (const message of recorded.items) if (message.k === 'dict') this.historyMessages.add(message);
          // An API's documented example (FastAPI's `responses={200: {... "examples": {...}}}`) shows messages, sends none.
          for (const entry of e.entries) if (entry.key === 'examples' || entry.key === 'example') walk(entry.value, (x) => void (x.k === 'dict' && this.exampleDicts.add(x)));
          this.roleDictHit(e, loc, module, hits);
          this.configObjectHits(e, loc, hits);
        }
        else if (e.k === 'list' && !e.tuple) this.roleTupleHits(e, loc, module, hits);
        else if (e.k === 'list' && e.tuple && language === 'python') this.roleTupleHits({ ...e, tuple: false }, loc, module, hits, true);
      });
    }
    for (const scope of module.scopes) {
      for (const decorator of scope.decorators) {
        const target = decorator.k === 'call' ? decorator.callee : decorator;
        const rule = rules.find((r) => r.kind === 'decorator' && target.k === 'attr' && r.callee?.test(target.name));
        if (!rule || !scope.name) continue;
        const fnExpr: Expr = { k: 'func', start: scope.start, end: scope.start, fn: { params: scope.params, body: { from: 0, to: 0, tokens: [] }, name: scope.name, scope: scope.id } };
        const loc: Loc = { file, scope: scope.parent };
        const group = target.k === 'attr' ? this.agentCall(target.obj, loc) : undefined;
        hits.push({ role: rule.role, framework: rule.framework, anchor: `@${chainText(target)} ${scope.name}`, value: fnExpr, loc, frames: [], sinkStart: decorator.start, group, byName: false });
      }
    }
    for (const rule of rules) if (rule.kind === 'docstring') this.docstringHits(file, module, rule, hits);
    // A function named for the prompt it builds (`critic_prompt`, `buildSystemPrompt`): what it returns is a prompt.
    for (const scope of module.scopes) {
      if (scope.kind !== 'function' || !scope.name || !/prompt$/i.test(scope.name) || scope.returns.length === 0) continue;
      const role: SinkRole = this.matchesPromptNames(scope.name) ? 'system' : 'message';
      const fnExpr: Expr = { k: 'func', start: scope.start, end: scope.start, fn: { params: scope.params, body: { from: 0, to: 0, tokens: [] }, name: scope.name, scope: scope.id } };
      hits.push({ role, framework: 'by name', anchor: `${scope.name}()`, value: fnExpr, loc: { file, scope: scope.parent }, frames: [], sinkStart: scope.start, byName: true });
    }
    for (const [key, defs] of module.defs) {
      const name = key.slice(key.indexOf(':') + 1);
      if (!this.matchesPromptNames(name)) continue;
      // Inside a function only a variable named outright a system prompt or message counts (`feedback_instruction` is a fragment).
      const local = (scope: number) => module.scopes[scope]?.kind === 'function' && !/system_?(?:prompt|message)/i.test(name);
      for (const def of defs) {
        // A list or dict named like a prompt is data (test cases, payloads, a config), not a prompt.
        if (def.value.k === 'func' || def.value.k === 'list' || def.value.k === 'dict' || local(def.scope) || this.onlyAPart(name, file, def.start)) continue;
        hits.push({ role: 'system', framework: 'by name', anchor: name, value: def.value, loc: { file, scope: def.scope }, frames: [], sinkStart: def.start, byName: true });
      }
    }
    for (const [key, defs] of module.attrDefs) {
      const name = key.slice(key.indexOf(':') + 1);
      if (!this.matchesPromptNames(name)) continue;
      for (const def of defs) if (def.value.k !== 'list' && def.value.k !== 'dict') hits.push({ role: 'system', framework: 'by name', anchor: name, value: def.value, loc: { file, scope: def.scope }, frames: [], sinkStart: def.start, byName: true });
    }
    return hits;
  }

  /** Keyword arguments and object-argument properties of a call, each with where it is evaluated (spreads and named config objects followed). */
  private keywords(call: Extract<Expr, { k: 'call' }>, loc: Loc, module: ModuleSummary): Map<string, { expr: Expr; loc: Loc }> {
    const out = new Map<string, { expr: Expr; loc: Loc }>();
    // Config objects passed by name or spread are followed only into calls that can be sinks (following every
    // argument of every call costs more than the rest of the analysis).
    const name = lastName(call.callee) ?? '';
    const follow = AGENTISH_CALLEE.test(name) || SINK_RULES.some((r) => r.callee?.test(name));
    const addDict = (dict: Extract<Expr, { k: 'dict' }>, at: Loc, depth: number) => {
      for (const entry of dict.entries) {
        if (entry.key !== undefined && !out.has(entry.key)) out.set(entry.key, { expr: entry.value, loc: at });
        else if (entry.spread && depth < 3) for (const v of this.resolver.values(entry.value, at, [])) if (v.expr.k === 'dict') addDict(v.expr, v.loc, depth + 1);
      }
    };
    for (const arg of call.args) {
      if (arg.name !== undefined) {
        if (!out.has(arg.name)) out.set(arg.name, { expr: arg.value, loc });
        continue;
      }
      if (module.language === 'python' && !arg.spread) continue;
      if (arg.value.k === 'dict') addDict(arg.value, loc, 0);
      else if (follow && arg.spread) {
        this.resolver.begin();
        for (const v of this.resolver.values(arg.value, loc, [])) if (v.expr.k === 'dict') addDict(v.expr, v.loc, 1);
      } else if (follow && arg.value.k === 'name') {
        for (const v of this.resolver.definedDicts(arg.value.id, loc)) if (v.expr.k === 'dict') addDict(v.expr, v.loc, 1);
      }
    }
    return out;
  }

  /**
   * The docstrings of the classes that extend the rule's callee imported from its framework (`class Summarize(dspy.Signature):
   * """…"""`), or a class of the module that does. A docstring written as an f-string is none (its class has no `__doc__`).
   */
  private docstringHits(file: string, module: ModuleSummary, rule: SinkRule, hits: Hit[]): void {
    const named = new Set<string>();
    const classes: Scope[] = [];
    const extendsSink = (base: string) => {
      if (named.has(base)) return true;
      if (!rule.callee?.test(base.replace(/^.*\./, ''))) return false;
      const from = module.imports.get(base.split('.')[0])?.module;
      return from !== undefined && (!rule.module || rule.module.test(from));
    };
    // Classes extending an earlier one of the module count too (`class Derived(Summarize)`), so sweep until none is added.
    for (let added = true; added; ) {
      added = false;
      for (const scope of module.scopes) {
        if (scope.kind !== 'class' || !scope.name || named.has(scope.name) || !scope.bases?.some(extendsSink)) continue;
        named.add(scope.name);
        classes.push(scope);
        added = true;
      }
    }
    if (classes.length === 0) return;
    const first = new Map<number, Expr>();
    for (const root of module.roots) if ((first.get(root.scope)?.start ?? Infinity) > root.expr.start) first.set(root.scope, root.expr);
    const plainText = (e: Expr): boolean => (e.k === 'str' ? !e.literal.template : e.k === 'concat' && e.parts.every(plainText));
    for (const scope of classes) {
      const doc = first.get(scope.id);
      // The class body's first statement, right after its header (comments between them are no statement).
      if (!doc || !plainText(doc) || !/^class\b[^:]*:(?:\s|#[^\n]*)*\(?\s*$/.test(module.text.slice(scope.start, doc.start))) continue;
      hits.push({ role: rule.role, framework: rule.framework, anchor: `${scope.name} docstring`, value: doc, loc: { file, scope: scope.id }, frames: [], sinkStart: doc.start, byName: false });
    }
  }

  /**
   * Marks what a call shows that its arguments are not prompts, before any sink is read (a message list is often built
   * before the call it goes to): options of speech and image calls, an agent's returned reply, messages written to a
   * memory store or handed to an event handler.
   */
  private markNotPrompts(call: Extract<Expr, { k: 'call' }>, loc: Loc, module: ModuleSummary): void {
    const name = lastName(call.callee);
    if (!name) return;
    if (NOT_AGENT_CALLEES.test(name)) for (const arg of call.args) if (arg.value.k === 'dict') this.notAgentConfigs.add(arg.value);
    // What an AutoGen agent returns (`Response(chat_message=TextMessage(content=reply.content, …))`) is its own reply, and
    // the messages of a run's result (`TaskResult(messages=[TextMessage(…)])`) are its record: neither is a prompt.
    if (name === 'Response') for (const arg of call.args) if (arg.name === 'chat_message' && arg.value.k === 'call') this.ownReplies.add(arg.value);
    if (name === 'TaskResult') for (const arg of call.args) if (arg.name === 'messages' && arg.value.k === 'list') for (const item of arg.value.items) if (item.k === 'call') this.ownReplies.add(item);
    // A message handed to an event handler or a display (continue's `onMessage({ role: "system", content: "Opening … in
    // your browser" })`) is shown to the user, not sent to a model.
    if (UI_CALLS.test(name)) for (const arg of call.args) if (arg.value.k === 'dict') this.storedMessages.add(arg.value);
    // AutoGen keeps an agent's system message apart from its model context: a `SystemMessage` added to the context
    // (`ListMemory.update_context`: `model_context.add_message(SystemMessage(content=memory_context))`) is that turn's
    // retrieved memory, and a warning there would repeat every turn.
    const receiver = call.callee.k === 'attr' ? chainText(call.callee.obj) : '';
    if (name === 'add_message' && /(?:^|[._])model_context$/.test(receiver)) {
      this.resolver.begin();
      for (const arg of call.args) for (const v of this.resolver.values(arg.value, loc, [])) if (v.expr.k === 'call') this.contextMessages.add(v.expr);
    }
    // Messages handed to a memory store (`mem0.add([{"role": "user", "content": x}], user_id=…)`) are stored, not sent to
    // a model: a store by its name, or a write keyed by a user, agent or run as mem0's is.
    if (!MEMORY_WRITE.test(name)) return;
    if (!/(?:^|[._])(?:mem0|memory|memories|mem|store)$/i.test(receiver) && !MEMORY_KEYS.some((key) => this.keywords(call, loc, module).has(key))) return;
    // A list also sent to a model before it is stored (mem0's own examples) keeps its system prompt: no memory holds one.
    const stored = (item: Expr) => item.k !== 'dict' || ROLE_OF[roleNamed(item.entries.find((e) => e.key === 'role')?.value, module.text) ?? ''] !== 'system';
    this.resolver.begin();
    for (const arg of call.args) {
      for (const v of arg.value.k === 'list' ? [{ expr: arg.value }] : this.resolver.values(arg.value, loc, [])) if (v.expr.k === 'list') for (const item of v.expr.items) if (stored(item)) this.storedMessages.add(item);
    }
  }

  /**
   * Whether a call configures a tool, not an agent (`@tool(instructions=…)`, `Toolkit(…)`, `super().__init__(…)` in a
   * class that extends a toolkit): agno appends each tool's instructions to the system prompt of the agent using it.
   */
  /**
   * Whether a Python process call writes bytes to the process's stdin: unless it asks for text (text=True,
   * encoding=...), a prompt there gets no automatic fix (wrapping it would make it a str).
   */
  private writesBytes(call: Extract<Expr, { k: 'call' }>, loc: Loc, module: ModuleSummary): boolean {
    if (module.language !== 'python') return false;
    const keywords = this.keywords(call, loc, module);
    const textMode = (key: string) => {
      const value = keywords.get(key)?.expr;
      return value !== undefined && !/^(?:False|None)$/.test(module.text.slice(value.start, value.end).trim());
    };
    return !TEXT_MODE_KEYS.some(textMode);
  }

  private configuresTool(name: string, loc: Loc, module: ModuleSummary): boolean {
    if (TOOL_CONFIG_CALLEES.test(name)) return true;
    if (name !== '__init__') return false;
    const scope = module.scopes[loc.scope];
    const owner = scope?.classScope === undefined ? undefined : module.scopes[scope.classScope];
    return owner?.bases?.some((base) => TOOL_CONFIG_CALLEES.test(base.replace(/^.*\./, ''))) ?? false;
  }

  private callHits(call: Extract<Expr, { k: 'call' }>, loc: Loc, module: ModuleSummary, rules: readonly SinkRule[], hits: Hit[]): void {
    const name = lastName(call.callee);
    if (!name) return;
    // A message an AutoGen agent writes in its own name (`TextMessage(content=reply.content, source=self._name)`) is its reply.
    const source = call.args.find((arg) => arg.name === 'source')?.value;
    if (this.ownReplies.has(call) || (source && /^self\._?name$/.test(module.text.slice(source.start, source.end)))) return;
    const chain = chainText(call.callee);
    const receiver = call.callee.k === 'attr' ? chainText(call.callee.obj) : '';
    const keywords = this.keywords(call, loc, module);
    const positional = call.args.filter((a: Arg) => a.name === undefined && !a.spread && (module.language === 'python' || a.value.k !== 'dict')).map((a) => a.value);
    const allPositional = call.args.filter((a: Arg) => a.name === undefined && !a.spread).map((a) => a.value);
    const claimed = new Set<string>();
    // A rule that names where this call takes its message (`Runner.run(agent, input)`): no other argument is one.
    let messageByRule = false;
    const add = (role: SinkRole, framework: string, key: string, value: Expr, group: boolean, style?: PlaceholderStyle, at: Loc = loc) => {
      hits.push({
        role: this.contextMessages.has(call) ? 'message' : role, framework, anchor: `${name}(${key})`, value, loc: at, frames: [], sinkStart: value.start, group: group ? call : undefined, byName: false,
        placeholders: style, ...(framework === MODEL_CALL_FRAMEWORK ? { sinkCall: call } : {}),
      });
    };
    this.resolver.begin();
    const commandLine = this.resolver.commandLine(call, loc);
    if (commandLine) {
      const { agent } = commandLine;
      for (const p of commandLine.prompts) add(p.role, agent.framework, `${agent.command} ${p.flag === agent.command ? '…' : p.flag}`, p.item.expr, false, undefined, p.item.loc);
      // What is written to its stdin is the prompt when it answers once (`claude -p` reads it there).
      const input = commandLine.once && commandLine.stdin ? keywords.get(commandLine.stdin) : undefined;
      if (input) hits.push({ role: 'message', framework: agent.framework, anchor: `${agent.command} (stdin)`, value: input.expr, loc: input.loc, frames: [], sinkStart: input.expr.start, byName: false, bytes: this.writesBytes(call, loc, module) });
      return;
    }
    // `proc.communicate(text)` writes to the stdin of the agent CLI that `proc = subprocess.Popen([...])` runs, and
    // `child.stdin.write(text)` to the one `child = spawn(...)` runs.
    const communicated = this.resolver.communicatedTo(call, loc) ?? this.resolver.stdinWrittenTo(call, loc);
    if (communicated) {
      const { commandLine, started } = communicated;
      const input = keywords.get('input') ?? (positional[0] ? { expr: positional[0], loc } : undefined);
      const startedIn = this.project.module(communicated.loc.file);
      // Where the Popen call is not known, the text is taken for bytes: the finding then comes with no automatic fix.
      const bytes = startedIn ? this.writesBytes(started, communicated.loc, startedIn) : true;
      if (commandLine.once && input) {
        hits.push({ role: 'message', framework: commandLine.agent.framework, anchor: `${commandLine.agent.command} (stdin)`, value: input.expr, loc: input.loc, frames: [], sinkStart: input.expr.start, byName: false, bytes });
      }
      return;
    }
    for (const rule of rules) {
      if (rule.kind !== undefined && rule.kind !== 'argument') continue;
      if (rule.callee && !rule.callee.test(name)) continue;
      if (rule.chain && !rule.chain.test(chain)) continue;
      if (!rule.callee && !rule.chain) continue;
      if (rule.requires && !rule.requires.some((k) => keywords.has(k))) continue;
      const importedFrom = module.imports.get(rootName(call.callee) ?? '')?.module;
      if (rule.module && !rule.module.test(importedFrom ?? '')) continue;
      if (rule.key && rule.ignoredWith?.some((k) => keywords.has(k))) {
        claimed.add(rule.key);
        continue;
      }
      const framework = sinkFramework(rule, importedFrom);
      if (rule.path) {
        for (const found of this.atPath(keywords, rule.path)) add(rule.role, framework, rule.path.join('.'), found.expr, false, rule.placeholders, found.loc);
        continue;
      }
      // An argument an earlier rule took as part of one prompt (Agno's `instructions=`) is not a prompt of its own too.
      if (rule.key && claimed.has(rule.key)) continue;
      let found = rule.key ? keywords.get(rule.key) : undefined;
      let label = rule.key ? `${rule.key}=` : '';
      if (!found && rule.index !== undefined) {
        const value = (module.language === 'python' ? positional : allPositional)[rule.index];
        label = rule.index === 0 ? '…' : `…, #${rule.index + 1}`;
        found = value && !(value.k === 'dict' && module.language === 'typescript') ? { expr: value, loc } : undefined;
      }
      if (!found) continue;
      if (rule.key) claimed.add(rule.key);
      if (rule.role === 'message') messageByRule = true;
      add(rule.role, framework, label, found.expr, true, rule.placeholders, found.loc);
    }
    // A message built with its role as a keyword (`ChatMessageContent(role=AuthorRole.SYSTEM, content=…)`): a system
    // or developer role makes its content a system prompt, a user role message text.
    const importedFrom = module.imports.get(rootName(call.callee) ?? '')?.module ?? '';
    const at = (index: number | undefined) => (index !== undefined && positional[index] ? { expr: positional[index], loc } : undefined);
    for (const rule of rules) {
      if (rule.kind !== 'role-keyword' || !rule.key || claimed.has(rule.key) || (rule.callee && !rule.callee.test(name)) || (rule.module && !rule.module.test(importedFrom))) continue;
      const content = keywords.get(rule.key) ?? at(rule.index);
      const role = keywords.get('role') ?? at(rule.roleIndex);
      const messageRole = role && content ? ROLE_OF[roleNamed(role.expr, module.text) ?? ''] : undefined;
      if (!content || !messageRole) continue;
      claimed.add(rule.key!);
      add(messageRole, sinkFramework(rule, importedFrom || undefined), `role=, ${rule.key}=`, content.expr, false, undefined, content.loc);
    }
    const toolFragment = this.configuresTool(name, loc, module);
    // An event handler's argument (`callbacks.onAuth({ url, instructions })`) is shown to a person, not prompted; a
    // crawler's (`tavily_client.crawl(url, instructions=…)`) steers what it fetches, a classifier's is its task; a
    // tool's instructions are a fragment of the system prompt of each agent that uses it, which is checked there.
    const notAgents =
      NOT_AGENT_CALLEES.test(name) || CLASSIFIER_CLASSES.test(name) || IO_SCHEMAS.test(name) || FETCHERS.test(receiver) || TEMPLATE_FILLS.test(name) || EVENT_HANDLER.test(name);
    for (const key of SYSTEM_KEYWORDS) {
      if (claimed.has(key) || notAgents || toolFragment) continue;
      // ADK's `instruction` is a common word (`ActionNode(instruction=…)`, `page.extract({ instruction })`): an agent's only on an agent's call.
      if (ADK_KEYS.has(key) && !AGENTISH_CALLEE.test(name)) continue;
      const found = keywords.get(key);
      if (!found) continue;
      // A log record's field (browser-use's `HistoryItem(system_message='Agent initialized')`) is a status line, not a prompt.
      if (!AGENTISH_CALLEE.test(name) && found.expr.k === 'str' && statusLine(textOutsideHoles(module.text, found.expr.literal))) continue;
      // A prompt keyword on a call no rule names: a sink by its keyword, so it is reported only where a value is found.
      // Two prompt keywords of one agent (Pydantic AI's `system_prompt=` and `instructions=`) are one prompt, warned once;
      // ADK's `global_instruction` is every sub-agent's too, so it is warned on its own.
      hits.push({ role: 'system', framework: sdkNamed(module.imports.get(rootName(call.callee) ?? '')?.module) ?? 'any framework', anchor: `${name}(${key}=)`, value: found.expr, loc: found.loc, frames: [], sinkStart: found.expr.start, group: ADK_KEYS.has(key) ? undefined : call, byName: false, placeholders: ADK_KEYS.has(key) ? 'adk-state' : undefined, quiet: !AGENTISH_CALLEE.test(name) });
    }
    for (const [key, found] of keywords) {
      if (claimed.has(key) || SYSTEM_KEYWORDS.includes(key) || !this.matchesPromptNames(key)) continue;
      hits.push({ role: 'system', framework: 'by name', anchor: `${name}(${key}=)`, value: found.expr, loc: found.loc, frames: [], sinkStart: found.expr.start, byName: true });
    }
    // A tool's or a retriever's `invoke` takes arguments or a search query, not a prompt; a model's or an agent's takes prompt text.
    if (!FETCHERS.test(receiver) && !NOT_AGENT_CALLEES.test(receiver) && (isModelCall(name, receiver, false) || (isAgentMethod(name) || name === 'query' || name === 'run') && (this.resolver.begin(), this.resolver.isModelCallExpr(call, loc, 0, false)) || (this.resolver.begin(), this.resolver.callsAgent(call, loc)))) {
      const first = messageByRule ? undefined : allPositional[0];
      // `func.invoke(kernel, arguments)` (Semantic Kernel): an object named for what it is, not message text.
      const objectArgument = first !== undefined && OBJECT_ARGUMENT.test(module.text.slice(first.start, first.end));
      if (first && first.k !== 'list' && first.k !== 'dict' && !objectArgument) add('message', MODEL_CALL_FRAMEWORK, '…', first, false);
      for (const key of MODEL_PROMPT_KEYS) {
        if (claimed.has(key)) continue;
        const found = keywords.get(key);
        if (found && found.expr.k !== 'list') add('message', MODEL_CALL_FRAMEWORK, `${key}=`, found.expr, false, undefined, found.loc);
      }
    }
  }

  private atPath(keywords: Map<string, { expr: Expr; loc: Loc }>, path: readonly string[]): { expr: Expr; loc: Loc }[] {
    let current = keywords.has(path[0]) ? [keywords.get(path[0])!] : [];
    for (const step of path.slice(1)) {
      const next: { expr: Expr; loc: Loc }[] = [];
      for (const e of current) {
        for (const v of this.resolver.values(e.expr, e.loc, [])) {
          if (v.expr.k !== 'dict') continue;
          for (const entry of v.expr.entries) if (step === '*' ? entry.key !== undefined : entry.key === step) next.push({ expr: entry.value, loc: v.loc });
        }
      }
      current = next;
    }
    return current;
  }

  /**
   * An agent config written as a dict or object before it reaches its constructor (`{ name, instructions }`,
   * `{"system_message": ...}`): a prompt key beside another agent key, found by name (the call may be elsewhere).
   */
  private configObjectHits(dict: Extract<Expr, { k: 'dict' }>, loc: Loc, hits: Hit[]): void {
    if (this.notAgentConfigs.has(dict)) return;
    const keys = new Set(dict.entries.map((e) => e.key));
    if (![...keys].some((k) => k !== undefined && AGENT_CONFIG_KEYS.has(k))) return;
    // A prompt one object down is the agent's too (gemini-cli's `promptConfig: { systemPrompt }`).
    const nested = dict.entries.flatMap((e) => (e.value.k === 'dict' && !this.notAgentConfigs.has(e.value) ? e.value.entries : []));
    for (const entry of [...dict.entries, ...nested]) {
      if (entry.key === undefined || !SYSTEM_KEYWORDS.includes(entry.key)) continue;
      hits.push({ role: 'system', framework: 'agent config', anchor: `{ ${entry.key}: … }`, value: entry.value, loc, frames: [], sinkStart: entry.value.start, byName: true });
    }
  }

  private roleDictHit(dict: Extract<Expr, { k: 'dict' }>, loc: Loc, module: ModuleSummary, hits: Hit[]): void {
    const roleEntry = dict.entries.find((e) => e.key === 'role');
    const role = ROLE_OF[roleNamed(roleEntry?.value, module.text) ?? ''];
    const content = dict.entries.find((e) => e.key === 'content')?.value;
    if (!role && roleEntry && content) this.messageHelperHits(roleEntry.value, content, loc, hits);
    if (!role || !content || this.storedMessages.has(dict) || this.exampleDicts.has(dict)) return;
    // A chat-history item's status line (`{ message: { role: "system", content: "Compaction cancelled." }, contextItems }`,
    // continue's TUI) tells the user what happened; it is nobody's instructions.
    if (this.historyMessages.has(dict) && content.k === 'str' && statusLine(textOutsideHoles(module.text, content.literal))) return;
    hits.push({ role, framework: 'chat API', anchor: `role: ${plain(module, roleEntry!.value) ?? module.text.slice(roleEntry!.value.start, roleEntry!.value.end)}`, value: content, loc, frames: [], sinkStart: content.start, byName: false });
  }

  /**
   * A message built by a helper from its parameters (`format_chat_message(role, message)` returning `{"role": role,
   * "content": message}`, TaskWeaver): each call that passes a system or user role makes its message a prompt there.
   */
  private messageHelperHits(role: Expr, content: Expr, loc: Loc, hits: Hit[]): void {
    for (const [roleArg, contentArg] of this.resolver.callerArgumentRows([role, content], loc, MAX_HELPER_CALLS)) {
      if (!roleArg || !contentArg) continue;
      const argRole = ROLE_OF[roleNamed(roleArg.expr, this.resolver.text(roleArg.loc.file)) ?? ''];
      const written = this.resolver.text(roleArg.loc.file).slice(roleArg.expr.start, roleArg.expr.end).replace(/^(["'`])(.*)\1$/, '$2');
      if (argRole) hits.push({ role: argRole, framework: 'chat API', anchor: `role: ${written}`, value: contentArg.expr, loc: contentArg.loc, frames: [], sinkStart: contentArg.expr.start, byName: false });
    }
  }

  private roleTupleHits(list: Extract<Expr, { k: 'list' }>, loc: Loc, module: ModuleSummary, hits: Hit[], fromTuple = false): void {
    for (const item of list.items) {
      if (item.k !== 'list' || item.items.length !== 2) continue;
      if (fromTuple && !item.tuple) continue;
      // Only a string names the role here: a pair's first member (`(self.user, msg)`) is rarely an enum.
      const name = plain(module, item.items[0]);
      const role = ROLE_OF[name ?? ''];
      if (!role || plain(module, item.items[1]) !== undefined && ROLE_OF[plain(module, item.items[1])!] !== undefined) continue;
      hits.push({ role, framework: 'LangChain / LangGraph', anchor: `(${name}, ...)`, value: item.items[1], loc, frames: [], sinkStart: item.items[1].start, byName: false, placeholders: 'template' });
    }
  }

  // ------------------------------------------------------------------ prompts

  /**
   * The prompts of a group of hits: one per alternative value of a single hit; one for a group (CrewAI's fields), unless
   * a part of it has alternatives (`instructions=(A if mode else B)`): the first part read, where the warning goes, is
   * then a prompt of its own, so that every alternative of it gets the warning, and the other parts are checked for
   * delegation only (Atomic Agents' `background`, `steps` and `output_instructions` lists, each set in an if and an
   * else, had a warning each).
   */
  private promptsOf(group: Hit[]): FoundPrompt[] {
    if (group.length > 1 && group.some((hit) => (this.resolver.begin(), this.resolver.promptAlternatives(hit.value, hit.loc, hit.frames)).length > 1)) {
      // The first part read (one computed at run time is listed as not checked, and the next takes the warning).
      const out: FoundPrompt[] = [];
      let warned = false;
      for (const hit of group) {
        const prompts = this.promptsOf([warned ? { ...hit, role: 'message' } : hit]);
        warned ||= prompts.length > 0;
        out.push(...prompts);
      }
      return out;
    }
    const first = group[0];
    const alternatives: PromptText[][] = group.length === 1
      ? (this.resolver.begin(), this.resolver.promptAlternatives(first.value, first.loc, first.frames)).map((t) => [t])
      : [group.map((hit) => {
          this.resolver.begin();
          return this.resolver.promptText(hit.value, hit.loc, hit.frames);
        })];
    const found = alternatives.map((texts) => ({ texts, prompt: this.promptOf(group, texts) }));
    const prompts = found.flatMap((f) => f.prompt ?? []);
    // An alternative that is not text written here (`return r.messages[0].content.text` beside a literal fallback) is
    // not checked, whether or not another alternative is.
    const unread = found.filter((f) => !f.prompt).flatMap((f) => f.texts);
    const wrapped = alternatives.flat().some((t) => t.wrapped);
    const reasons = unread.flatMap((t) => t.reasons);
    if (first.role === 'system' && !first.byName && !first.quiet && !wrapped && reasons.length > 0) {
      this.result.unresolved.push({ file: first.loc.file, start: first.sinkStart, anchor: first.anchor, reasons, reads: unread.flatMap((t) => t.reads) });
    }
    if (prompts.length > 0) return prompts;
    // A name alone does not make a value that is no text written here a prompt (`const systemMessage = message as SystemMessage`),
    // nor does a prompt keyword on a call that records it (`build_whatsapp_row(system_prompt=sys_prompt)` logs it).
    if (!wrapped && !first.byName && !(first.quiet && RECORDING_CALL.test(first.anchor.slice(0, first.anchor.indexOf('('))))) this.valueDelegations(first);
    return [];
  }

  /**
   * A sink whose value is not text written here may be another agent's output as a whole (`content=reply.content`):
   * checked at the sink, or, when the value is a parameter, at each caller's argument (where a boundary can go).
   */
  private valueDelegations(hit: Hit): void {
    const value = hit.value;
    const text = this.resolver.text(hit.loc.file);
    if (value.k === 'list' || value.k === 'dict' || value.k === 'func' || value.k === 'str' || isHistory(text.slice(value.start, value.end))) return;
    const pseudo: FoundPrompt = {
      role: hit.role, framework: hit.framework, anchor: hit.anchor, sink: { file: hit.loc.file, start: hit.sinkStart },
      pieces: [], primary: undefined as unknown as Piece, hardened: false, byName: false, candidates: [], ...(hit.bytes ? { bytes: true } : {}),
    };
    this.resolver.begin();
    const callers = this.resolver.callerArguments(value, hit.loc);
    const places = callers.length > 0 ? callers : [{ expr: value, loc: hit.loc }];
    for (const place of places) {
      if (place.expr.k === 'str' || place.expr.k === 'concat' || place.expr.k === 'list' || place.expr.k === 'dict') continue;
      const placeText = this.resolver.text(place.loc.file).slice(place.expr.start, place.expr.end);
      if (isHistory(placeText) || STRUCTURED.test(placeText.trim())) continue;
      // A dict or list handed to an agent (its state, its inputs) is not text spliced into a prompt.
      this.resolver.begin();
      if (this.resolver.values(place.expr, place.loc, []).some((v) => v.expr.k === 'dict' || v.expr.k === 'list' || LIST_METHOD_CALL.test(this.resolver.text(v.loc.file).slice(v.expr.start, v.expr.end)))) continue;
      const candidate: Candidate = { kind: 'value', file: place.loc.file, start: place.expr.start, end: place.expr.end, expr: place.expr, loc: place.loc, frames: place === places[0] && callers.length === 0 ? hit.frames : [], text: placeText };
      const found = this.delegation(pseudo, candidate);
      // An agent called like a function handed its own reply back (`msg = await agent(msg)` in a loop, read without the
      // order of the statements): no other agent's output. A session's `step(msg)` runs two agents, each the other's.
      if (found && hit.sinkCall && this.ownRepliesOnly(place.expr, place.loc, hit.sinkCall)) continue;
      if (!found) continue;
      // A template read at run time filled with the content (`self.prompt_dict["x"].format_map({…})`): a boundary around
      // it all would make its instructions data, and whether its placeholder is bounded cannot be seen here.
      if (this.filledAtRunTime(place.expr, place.loc)) {
        this.result.unresolved.push({ file: place.loc.file, start: place.expr.start, anchor: hit.anchor, reasons: [`\`${oneLine(placeText)}\` fills a template read at run time with ${found.why}: bound the placeholder in the template`], reads: [] });
        continue;
      }
      if (hit.framework === MODEL_CALL_FRAMEWORK && RUNNABLE_INPUT.test(hit.anchor) && !this.alwaysText(place.expr, place.loc)) found.wholeInput = true;
      this.result.delegations.push(found);
    }
  }

  /**
   * Whether a name handed to an agent called like a function (`agent(msg)`, `agent` made once) holds no agent's reply but
   * that agent's own (`msg = await agent(msg)`; a message built here, a person's input): each assignment read as written.
   */
  private ownRepliesOnly(expr: Expr, loc: Loc, call: Extract<Expr, { k: 'call' }>): boolean {
    if (expr.k !== 'name' || call.callee.k !== 'name') return false;
    const made = this.resolver.assignedValues(call.callee, loc);
    const values = this.resolver.assignedValues(expr, loc);
    if (made?.length !== 1 || made[0].k !== 'call' || !values) return false;
    const callee = chainText(call.callee);
    let own = false;
    for (const value of values) {
      const v = value.k === 'other' && value.parts.length === 1 ? value.parts[0] : value;
      if (v.k !== 'call') continue;
      if (chainText(v.callee) === callee) own = true;
      else if ((this.resolver.begin(), this.resolver.isModelCallExpr(v, loc)) || (this.resolver.begin(), this.resolver.callsAgent(v, loc))) return false;
    }
    return own && (this.resolver.begin(), this.resolver.callsAgent(call, loc));
  }

  /**
   * Whether an expression is a template this project does not hold, filled here (`self.prompt_dict["x"].format_map({…})`,
   * `template.format(…)` with the template read at run time), directly or through a name assigned only so.
   */
  private filledAtRunTime(expr: Expr, loc: Loc): boolean {
    const filled = (v: Expr) => v.k === 'call' && v.callee.k === 'attr' && TEMPLATE_FILLS.test(v.callee.name) && !this.writtenHere(v.callee.obj, loc);
    return this.everyAssigned(expr, loc, filled);
  }

  /** Whether any value an expression may hold is text written in the project (also an entry of a dict literal: `TEMPLATES["review"]`, `.get("review")`). */
  private writtenHere(expr: Expr, loc: Loc): boolean {
    const entryOf = expr.k === 'index' ? expr.obj : expr.k === 'call' && expr.callee.k === 'attr' && expr.callee.name === 'get' ? expr.callee.obj : undefined;
    const text = (v: Expr) => v.k === 'str' || v.k === 'concat';
    this.resolver.begin();
    return this.resolver.values(entryOf ?? expr, loc, []).some((v) => (entryOf && v.expr.k === 'dict' ? v.expr.entries.some((e) => e.value !== undefined && text(e.value)) : text(v.expr)));
  }

  /** Whether `test` holds for an expression, or for a name, for every value assigned to it (one hop, as written). */
  private everyAssigned(expr: Expr, loc: Loc, test: (v: Expr) => boolean): boolean {
    if (expr.k !== 'name') return test(expr);
    const assigned = this.resolver.assignedValues(expr, loc);
    return assigned !== undefined && assigned.length > 0 && assigned.every(test);
  }

  /**
   * Whether an expression is text as written: a string, text read off a reply (`reply.content`), `str(…)`; a name, when
   * every assignment to it is (one hop: a parameter or an import is not known to be).
   */
  private alwaysText(expr: Expr, loc: Loc): boolean {
    const text = (v: Expr) => v.k === 'str' || v.k === 'concat' || v.k === 'format' || (v.k === 'attr' && TEXT_ATTRIBUTES.test(v.name)) || (v.k === 'call' && TEXT_CALLS.test(lastName(v.callee) ?? ''));
    return this.everyAssigned(expr, loc, text);
  }

  private promptOf(group: Hit[], texts: PromptText[]): FoundPrompt | undefined {
    const first = group[0];
    const pieces = texts.flatMap((t) => t.pieces);
    const useful = pieces.filter((p) => meaningful(this.resolver.text(p.file), p) && !this.isMarker(p));
    const primary = useful.find((p) => !p.nested) ?? useful[0];
    if (!primary) return undefined;
    const wrapped = texts.some((t) => t.wrapped);
    const contents = useful.map((p) => textOutsideHoles(this.resolver.text(p.file), p.literal));
    // Found by a name, or by a keyword on a call no rule names: only prose is a prompt (not `[circular]`, `/fork`).
    if (group.every((h) => h.byName || h.quiet) && !prose(contents)) return undefined;
    const refs = texts.flatMap((t) => t.refs);
    const joined = pieces.map((p) => this.resolver.text(p.file).slice(p.literal.contentStart, p.literal.contentEnd)).join('\n');
    const hardened = wrapped || refs.some((r) => /immunity_?warning/i.test(r)) || containsImmunityWarning(joined);
    const candidates = texts.flatMap((t) => t.candidates);
    const style = group.find((h) => h.placeholders)?.placeholders;
    if (style) candidates.push(...this.placeholderCandidates(pieces, style));
    return {
      role: group.some((h) => h.role === 'system') ? 'system' : 'message',
      framework: first.framework,
      anchor: first.anchor,
      sink: { file: first.loc.file, start: first.sinkStart },
      pieces,
      primary,
      hardened,
      byName: group.every((h) => h.byName),
      candidates,
      placeholders: style,
      ...(group.some((h) => h.bytes) ? { bytes: true } : {}),
    };
  }

  /** `{name}` placeholders of plain literals filled by the framework (ADK state) or by a template call in the same file. */
  private placeholderCandidates(pieces: Piece[], style: PlaceholderStyle): Candidate[] {
    const out: Candidate[] = [];
    const quotedAt = new Set<Candidate>();
    for (const piece of pieces) {
      if (piece.literal.template) continue;
      const text = this.resolver.text(piece.file);
      for (const ph of style === 'griptape' ? jinjaPlaceholders(text, piece.literal) : placeholders(text, piece.literal)) {
        if (!/^[A-Za-z_]/.test(ph.name)) continue;
        const base: Candidate = { kind: 'placeholder', file: piece.file, start: ph.start, end: ph.end, loc: { file: piece.file, scope: piece.scope }, frames: [], literal: piece.literal, name: ph.name, text: ph.name };
        // ADK's state and griptape's parent outputs are filled by the framework; other placeholders by a template call here.
        const byFramework = style === 'adk-state' || style === 'griptape';
        const found = byFramework ? [base] : (this.templateFills(piece.file).get(ph.name) ?? []).map((fill) => ({ ...base, expr: fill.expr, loc: fill.loc }));
        for (const candidate of found) if (insideQuotes(text, ph.start, ph.end)) quotedAt.add(candidate);
        out.push(...found);
      }
    }
    // Inside a quoted example (`"cited by" "{paper}"`) a boundary's lines would break the example the model copies: a
    // value the prompt also holds outside quotes is bounded there, else at its first quoted place only.
    const bare = new Set(out.filter((c) => !quotedAt.has(c)).map((c) => c.name));
    const first = new Map<string, Candidate>();
    for (const c of out) if (quotedAt.has(c) && !first.has(c.name!)) first.set(c.name!, c);
    return out.filter((c) => !quotedAt.has(c) || (!bare.has(c.name) && first.get(c.name!) === c));
  }

  /**
   * Values passed for template variables in a file: `.invoke({"name": v})`, `.format_messages(name=v)`,
   * `kickoff(inputs={...})`, and what the step before a template in an LCEL pipe gives it (`{"docs": r} | prompt`, or
   * the dict a function returns in `retrieve | prompt | llm`).
   */
  private templateFills(file: string): Map<string, { expr: Expr; loc: Loc }[]> {
    let fills = this.fills.get(file);
    if (fills) return fills;
    fills = new Map();
    this.fills.set(file, fills);
    const module = this.project.module(file);
    if (!module) return fills;
    const add = (key: string, expr: Expr, loc: Loc) => {
      const list = fills!.get(key);
      if (list) list.push({ expr, loc });
      else fills!.set(key, [{ expr, loc }]);
    };
    for (const root of module.roots) {
      walk(root.expr, (e) => {
        if (e.k === 'other') for (const [key, value, loc] of pipedFields(module, e, root.scope)) add(key, value, { file, scope: loc });
        if (e.k !== 'call') return;
        const name = lastName(e.callee) ?? '';
        if (!/^(?:a?invoke|a?stream|a?batch|format_messages|format_prompt|format|partial|kickoff(?:_async)?)$/.test(name)) return;
        const loc = { file, scope: root.scope };
        for (const arg of e.args) {
          if (arg.name === 'inputs' && arg.value.k === 'dict') for (const entry of arg.value.entries) if (entry.key) add(entry.key, entry.value, loc);
          if (arg.name !== undefined && arg.name !== 'inputs') add(arg.name, arg.value, loc);
          if (arg.name === undefined && arg.value.k === 'dict') for (const entry of arg.value.entries) if (entry.key) add(entry.key, entry.value, loc);
        }
      });
    }
    return fills;
  }

  // ------------------------------------------------------------------ delegation

  private delegation(prompt: FoundPrompt, candidate: Candidate): FoundDelegation | undefined {
    if (candidate.kind !== 'placeholder' && NUMERIC.test(candidate.text)) return undefined;
    // The conversation spliced in whole (`{messages}`, open_deep_research's prompts) is the agent's memory, as when passed on as a list.
    if (isHistory(candidate.text)) return undefined;
    const context = this.contextOf(candidate, prompt);
    const text = this.resolver.text(candidate.file);
    if (context && isInsideBoundary(text.slice(context.start, context.end), candidate.start - context.start, candidate.end - context.start)) return undefined;
    if (candidate.literal && inMarkupTag(text.slice(candidate.literal.contentStart, candidate.start), text.slice(candidate.end, candidate.literal.contentEnd))) return undefined;
    let why: string | undefined;
    if (candidate.kind === 'placeholder' && !candidate.expr) {
      const writer = this.resolver.stateWriter(candidate.name!, candidate.file);
      why = writer
        ? `state key "${candidate.name}" ${writer}`
        : prompt.placeholders === 'griptape' && GRIPTAPE_PARENT_OUTPUTS.test(candidate.name!)
          ? `griptape's ${candidate.name}, the output of the task before`
          : delegatedByName(candidate.name!)
            ? `named ${candidate.name}`
            : undefined;
    } else if (candidate.expr) {
      this.resolver.begin();
      why = this.resolver.agentOutput(candidate.expr, candidate.loc, candidate.frames);
      if (why && candidate.kind === 'placeholder') why = `filled with \`${this.resolver.text(candidate.loc.file).slice(candidate.expr.start, candidate.expr.end)}\`, ${why}`;
    }
    if (!why) return undefined;
    return { candidate, why, prompt, context: context ?? { start: candidate.start, end: candidate.end } };
  }

  /** The text a boundary around the candidate would sit in: its literal's content (the string it is joined into), or the prompt's pieces in its file. */
  private contextOf(candidate: Candidate, prompt: FoundPrompt): { start: number; end: number } | undefined {
    if (candidate.literal) return candidate.joined ?? { start: candidate.literal.contentStart, end: candidate.literal.contentEnd };
    const inFile = prompt.pieces.filter((p) => p.file === candidate.file);
    if (inFile.length === 0) return undefined;
    return { start: Math.min(candidate.start, ...inFile.map((p) => p.literal.start)), end: Math.max(candidate.end, ...inFile.map((p) => p.literal.end)) };
  }
}

/** The fields each step of an LCEL pipe (`a | b | c`) hands the next: a dict's entries, or those of the dicts a function of the module returns. */
function pipedFields(module: ModuleSummary, e: Extract<Expr, { k: 'other' }>, scope: number): [string, Expr, number][] {
  const out: [string, Expr, number][] = [];
  const entries = (dict: Expr, at: number) => {
    if (dict.k === 'dict') for (const entry of dict.entries) if (entry.key !== undefined) out.push([entry.key, entry.value, at]);
  };
  for (let i = 0; i + 1 < e.parts.length; i++) {
    if (module.text.slice(e.parts[i].end, e.parts[i + 1].start).trim() !== '|') continue;
    const step = e.parts[i];
    entries(step, scope);
    if (step.k === 'name') for (const fn of module.functions.get(step.id) ?? []) for (const returned of module.scopes[fn].returns) entries(returned, fn);
  }
  return out;
}

/**
 * Whether an interpolation sits inside a markup tag or an attribute value (`<doc{url}>`, `from_url="{url}"`, aider's
 * retrieved documents): an identifier of the content, where a boundary's lines would break the markup.
 */
function inMarkupTag(before: string, after: string): boolean {
  return /<[A-Za-z][\w:-]*(?:\s+[\w:-]+=(?:"[^"<>]*"|'[^'<>]*'))*\s*$/.test(before) || (/[\w:-]+=\\?["']$/.test(before) && /^\\?["']/.test(after));
}

/** One prompt reached two ways: a sink decides its role over a name (a constant named `*_instructions` sent as a user message is message text). */
function merge(a: FoundPrompt, b: FoundPrompt): FoundPrompt {
  const deciding = [a, b].filter((p) => !p.byName);
  const role = (deciding.length > 0 ? deciding : [a, b]).some((p) => p.role === 'system') ? 'system' : 'message';
  // Named by a sink that decided its role: a text sent as UserMessage(content=) on one branch and as
  // SystemMessage(content=) on another (autogen's o1 path) is a system prompt named by the system sink.
  const preferred = (deciding.length > 0 ? deciding : [a, b]).find((p) => p.role === role) ?? a;
  return {
    ...preferred,
    role,
    hardened: a.hardened || b.hardened,
    byName: a.byName && b.byName,
    candidates: [...a.candidates, ...b.candidates],
    pieces: a.pieces.length >= b.pieces.length ? a.pieces : b.pieces,
  };
}

/** Calls that run (or bind) the function they are given with the arguments after it. */
const DEFERRING_CALLS = /^(?:to_thread|partial|run_in_executor)$/;

/**
 * The call a deferring call stands for: `asyncio.to_thread(client.messages.create, system=PROMPT)` is
 * `client.messages.create(system=PROMPT)` (also `functools.partial`, `loop.run_in_executor(None, fn, ...)`); undefined
 * for any other call.
 */
function deferredCall(call: Extract<Expr, { k: 'call' }>): Extract<Expr, { k: 'call' }> | undefined {
  const name = lastName(call.callee) ?? '';
  if (!DEFERRING_CALLS.test(name)) return undefined;
  const positional = call.args.filter((a) => a.name === undefined && !a.spread);
  const target = positional[name === 'run_in_executor' ? 1 : 0];
  if (!target || (target.value.k !== 'name' && target.value.k !== 'attr')) return undefined;
  return { ...call, callee: target.value, args: call.args.filter((a) => a !== target && !(name === 'run_in_executor' && a === positional[0])) };
}

/** A count or a sum spliced into a prompt (`{len(content) - MAX_LIVE_TOOL_RESULT_CHARS}`, `{attempt + 1}`): a number, not another agent's text. */
const NUMERIC = /^\s*(?:len\(|[^"'`]*?[\w)\]]\s*(?:-|\*|\/\/?|%)\s*[\w(][^"'`]*$|[\w.]+\s*\+\s*\d+(?:\.\d+)?\s*$|\d+(?:\.\d+)?\s*\+\s*[\w.]+\s*$)/;

/** A call that stores or logs what it is given (a row, a record, an event), never prompting with it. */
const RECORDING_CALL = /(?:^|_)(?:row|record|log|entry|event|item|payload|metadata)s?$|^(?:log|save|store|insert|persist|record|put)(?:_|[A-Z]|$)/;

/** A sink a framework sends on every turn (`Agent(instructions=)`, `@agent.instructions`): where a group's warning goes. */
const SENT_EVERY_TURN = /\(instructions=\)$|^@\S+\.instructions /;

/** The longest name tried against harden.systemPromptNames. */
const MAX_PROMPT_NAME = 200;

/** A flag or a count named after a prompt (`has_system_message=`, `use_system_prompt`, `max_system_prompt_tokens`): no prompt. */
const PREDICATE_NAME = /^(?:has|is|was|should|can|use|uses|include|includes|enable|enabled|disable|disabled|allow|skip|no|num|max|min|len|count)_/i;

/**
 * A name for text added after a prompt (`additional_instructions=`, `extra_instructions`): agno's regenerated run takes it
 * as the user's input, OpenAI's runs append it to the assistant's instructions; never the start the warning goes at.
 */
const ADDENDUM_NAME = /^(?:additional|extra)_/i;

/** What comes before a name that is appended to a text already built (`+= NAME`) or describes a schema's field (`description=NAME`). */
const APPENDED_OR_DESCRIBED = /(?:\+=|\bdescription\s*[=:])[\s\\(]*$/;
/** What follows a name a statement defines (`NAME = …`, `NAME: str = …`). */
const DEFINED = /^[ \t]*(?::[^=\n]*)?=(?!=)/;
/** What follows a name an import renames (`import { NAME as other }`, `from m import NAME as other`). */
const RENAMED = /^\s+as\s+\w/;
/** What comes before a name an import statement brings in (`from m import A, NAME`, `import { NAME } from`, in brackets over lines). */
const IMPORTED = /\bimport\b(?:[ \t]+[\w., \t]*|[ \t]*[({][\w\s,]*)$/;

/** A name for how a text-to-speech model reads text aloud (`DEFAULT_TTS_INSTRUCTIONS`, `ttsInstructions`): no agent's prompt. */
const SPEECH_NAME = /(?:^|_)(?:tts|TTS)_|^tts[A-Z]|[a-z](?:Tts|TTS)[A-Z]/;

/** A name for what a tool's description says (`tool_instructions=`, ADK's toolsets): the model reads it as a tool's, not as its own prompt. */
const TOOL_TEXT_NAME = /^tools?_|^tools?[A-Z]/;

/** A list method's result (`message.content.filter(…)`): an array, which a text boundary would turn into "[object Object]". */
const LIST_METHOD_CALL = /^[\w.$?[\]'"]+\.(?:map|filter|slice|concat|flatMap|toReversed|toSorted)\(/;

/** The input of a LangChain-style runnable (`invoke`, `batch`, `stream` and their async forms), which may be a dict. */
const RUNNABLE_INPUT = /^a?(?:invoke|batch|stream)\(/;
/** Attributes that hold a reply's or a message's text (`reply.content`, `result.final_output`). */
const TEXT_ATTRIBUTES = /^(?:content|text|output|final_output|raw|result|answer|message)$/;
/** Calls that make text (`str(x)`, `"…".format(…)`, `"\n".join(…)`, `dedent(…)`). */
const TEXT_CALLS = /^(?:str|String|format|join|strip|dedent|render|toString)$/;

/** Calls that serialise a value (`JSON.stringify`, `json.dumps`, pydantic's `model_dump_json`). */
const SERIALISERS = /^(?:stringify|dumps|model_dump_json|to_json|toJSON|safe_dump)$/;
/** Values that are structures an agent is handed (its state, config, inputs), not prompt text. */
const STRUCTURED = /(?:state|config|context|inputs?|kwargs|options|params|payload)$/i;

/**
 * A conversation passed on as a whole (a message list, a run's state; not text spliced into a prompt): `history`,
 * `result.to_input_list()`, `input_items`, `thread.concat(...)`, `run_result.to_state()`, `state["messages"]`,
 * `filteredMessages`.
 */
function isHistory(text: string): boolean {
  const t = text.trim();
  // A list method on a conversation is still one (`otherMessages.map(...)`, `history.slice(-10)`).
  const listOf = /^([\w.$]+?)\.(?:map|filter|slice|concat|flatMap|toReversed|toSorted)\(/.exec(t)?.[1];
  if (listOf !== undefined && listOf !== t && isHistory(listOf)) return true;
  return /(?:^|[._])(?:messages|history|chat_history|conversation|input_list|input_items|inputItems|thread|to_input_list\(\)|to_state\(\))$/i.test(t) || /to_input_list|\.messages\b/.test(t) || /^(?:thread|history|messages)\.concat\(/.test(t) ||
    /[a-z](?:Messages|History|Conversation)$/.test(t) || /\[\s*["'](?:messages|history|chat_history|conversation)["']\s*\]$/.test(t);
}

/**
 * Discovers the prompts, delegations and unreadable sinks in the code files `files` of a project; `stateKeys` are
 * state keys written by agents defined outside the code (YAML agent configs).
 */
export function discoverCode(project: ProjectModel, files: Iterable<string>, systemPromptNames: RegExp, stateKeys: ReadonlyMap<string, string> = new Map()): CodeDiscovery {
  return new Discoverer(project, systemPromptNames, stateKeys).run(files);
}
