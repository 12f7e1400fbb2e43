// Follows values through a project: names to their definitions (in the scope chain, across imports), parameters to
// the arguments their callers pass, attributes and items to the dicts, objects, classes and config calls that hold
// them, and calls of project functions to what they return. Two questions are answered on top: which string literals
// make up a prompt (with the interpolations inside them), and whether an expression carries another agent's output.
// Every walk is bounded by a depth and a step budget, so hostile or cyclic code costs a fixed amount.
import { PROCESS_CALLS, readCommandLine, type CommandLine } from './commandLine';
import type { StringLiteral } from './lexer';
import { isInsideBoundary } from './detect';
import { blockGuards, describeGuard, inlineGuards, mayPass, type Guard } from './guards';
import { defKey, walk, type Def, type Scope } from './module';
import { chainText, lastName, rootName, type ProjectModel } from './project';
import { AGENT_BUILDER_METHODS, AGENT_CONSTRUCTORS, AGENT_ROLE_CLASSES, BOUNDARY_CALLS, CALLABLE_AGENT_SDKS, CONTENT_WORDS, DELEGATION_WORDS, HARDENING_CALLS, HUMAN_AGENTS, isAgentMethod, isModelCall, NOT_AGENT_CONSTRUCTORS, SOURCE_WORDS, TOOL_DECORATORS, TRANSPARENT_CALLS } from './sinks';
import type { Arg, Expr, Param } from './syntax';

/** Where an expression is evaluated. */
export interface Loc {
  file: string;
  scope: number;
}

/** A call's arguments bound to a function's parameters while following what the function returns. */
export interface Frame {
  file: string;
  fn: number;
  args: Arg[];
  loc: Loc;
  outer: readonly Frame[];
}

/** A value an expression may take: a terminal expression, a module namespace, or a class. */
export interface Value {
  expr: Expr;
  loc: Loc;
  frames: readonly Frame[];
  module?: string;
  classRef?: { file: string; scope: number };
  /** Given by `x += value`: appended to the name's other values, not an alternative to them. */
  augment?: boolean;
  /** One alternative of a template that `template.format(…)` fills: the call's arguments, where the call is. */
  formatWith?: { args: readonly Arg[]; at: Value };
}

/** A string literal that is part of a prompt. */
export interface Piece {
  file: string;
  literal: StringLiteral;
  scope: number;
  /** Reached through an interpolation of another piece (a constant spliced into a template). */
  nested: boolean;
  /** Appended (`prompt += "…"`) to a start harden cannot read (`prompt = str(task.scenario)`): the prompt does not open here. */
  appended?: true;
}

/** A place where a value is put into a prompt: a `${}`/`{}` interpolation, a `.format` placeholder, a `+` operand. */
export interface Candidate {
  kind: 'hole' | 'placeholder' | 'operand' | 'value';
  file: string;
  start: number;
  end: number;
  /** The expression to check; undefined for a placeholder filled by the framework (ADK state). */
  expr?: Expr;
  loc: Loc;
  frames: readonly Frame[];
  literal?: StringLiteral;
  /** The concatenation the hole's literal is joined into, when it is (one string with the literals beside it). */
  joined?: { start: number; end: number };
  /** The placeholder's name (placeholders only). */
  name?: string;
  text: string;
}

/** What a prompt value is made of. */
export interface PromptText {
  pieces: Piece[];
  candidates: Candidate[];
  /** Names referenced where the text could not be followed (a referenced warning constant counts as the warning). */
  refs: string[];
  /** Built with the runtime API (`withImmunityWarning(...)`). */
  wrapped: boolean;
  /** Why parts of the value could not be read. */
  reasons: string[];
  /** Files the value is read from (`open("prompts/x.md").read()`), relative to the file that reads them. */
  reads: { from: string; path: string }[];
}

/** A literal's source text with its interpolations left out. */
export function textOutsideHoles(text: string, literal: StringLiteral): string {
  let content = text.slice(literal.contentStart, literal.contentEnd);
  for (const hole of [...literal.holes].reverse()) content = content.slice(0, hole.start - literal.contentStart) + content.slice(hole.end - literal.contentStart);
  return content;
}

/** True when a piece holds words outside its holes (not a separator, an empty default, punctuation or `f"{x}"`). */
export function meaningful(text: string, piece: Piece): boolean {
  return /\p{L}{2}/u.test(textOutsideHoles(text, piece.literal));
}

/** A path that names where it is from the file-system root or a drive, not from the reading file. */
const ABSOLUTE_PATH = /^(?:[\\/]|[A-Za-z]:)/;
/** The folder of the file the code is in, as Python and Node write it (spaces removed). */
const HERE_FOLDER = /^(?:(?:pathlib\.)?Path\(__file__\)(?:\.(?:resolve|absolute)\(\))?\.parent|os\.path\.dirname\((?:__file__|os\.path\.(?:abspath|realpath)\(__file__\))\)|__dirname|import\.meta\.dirname)$/;

/** Calls that read a file's text: what a name holding one carries is the file's, not another agent's. */
const FILE_READS = /^(?:readFileSync|readFile|readTextFile|read_text|read_file)$/;

/** A class header whose bases make it a Semantic Kernel process step (`class Step(KernelProcessStep[State]):`). */
const PROCESS_STEP_CLASS = /\bclass\s+\w+\s*\([^)]*\bKernelProcessStep\b/;

const MAX_DEPTH = 32;
/** The literals that mean "no value" (a sink given one has no prompt). */
const NO_VALUE = /^(?:None|null|undefined)$/;
const MAX_VALUES = 512;

/** Why a prompt read from the file at `path` (as written) is not read here. */
export function readReason(path: string): string {
  return `read from ${path} at run time`;
}

/** An expression as a reason quotes it: at most 60 characters. */
function shortened(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
const STEP_BUDGET = 2_000;
const MAX_CALLERS = 40;
/** A package's own module, through which its modules' names are re-exported. */
const PACKAGE_FILE = /(?:^|\/)(?:__init__\.pyi?|index\.[cm]?[jt]sx?)$/;
/** Calls of a message helper read for prompts: each is a sink of its own, read once, not a value to follow. */
export const MAX_HELPER_CALLS = 400;
const MAX_ALTERNATIVES = 50;
const STATE_PASSES = 3;
const TEXT_KEYS = new Set(['text', 'content', 'append', 'prompt', 'template', 'instructions', 'system', 'system_prompt', 'systemPrompt']);
const MESSAGE_CLASSES = /^(?:SystemMessage|HumanMessage|AIMessage|ChatMessage|UserMessage|AssistantMessage|TextMessage|SystemMessagePromptTemplate|HumanMessagePromptTemplate|make_(?:assistant|user|system)_message|BaseMessage|TextPrompt)$/;
const READS = /^(?:read_text|read|readFileSync|readFile|load_prompt|loadPrompt|read_prompt|readPrompt)$/;
const TAINT_TRANSPARENT = /^(?:gather|wait_for|all|allSettled|filter_messages|get_buffer_string|trim_messages|format_\w+|\w+_to_str(?:ing)?|to_\w+|extract\w*|clean\w*|merge\w*|combine\w*|concat\w*|serialize\w*|str|repr|String|format|join|dumps|loads|stringify|parse|strip|lstrip|rstrip|trim|lower|upper|replace|get|getattr|dedent|indent|model_dump|model_dump_json|dict|json|to_dict|toString|pformat|text|content|render|format_messages|format_prompt|invoke)$/;
/** Objects that hold a workflow's state (`state`, `draft_state`, `self.state`, `tool_context.state`): their keys decide. */
const STATE_OBJECT = /(?:^|[._])(?:\w*state|shared)$/i;

/** How a reason names a model's or an agent's reply as the source (`the reply of llm.invoke(...)`). */
const REPLY_OF = 'the reply of ';

/** A state read of a key no agent writes. */
const CLEAN = Symbol('clean');
/** The role a message's role value names, lower-cased: a plain string (`"system"`) or an enum member (`MessageRole.SYSTEM`). */
export function roleNamed(e: Expr | undefined, text: string): string | undefined {
  if (e?.k === 'str') return e.holes.length === 0 ? literalText(text, e.literal).toLowerCase() : undefined;
  return e?.k === 'attr' && (e.obj.k === 'name' || e.obj.k === 'attr') ? e.name.toLowerCase() : undefined;
}

/** A message the model wrote itself (`("assistant", …)`, `{"role": "assistant", …}`): its own output, no one's delegation. */
function ownTurn(item: Expr, text: string): boolean {
  const role = item.k === 'list' && item.items.length === 2 ? item.items[0] : item.k === 'dict' ? item.entries.find((entry) => entry.key === 'role')?.value : undefined;
  return /^(?:assistant|ai)$/.test(roleNamed(role, text) ?? '');
}

/** A name or read of a conversation (`messages`, `state["messages"]`, `chat_history`). */
const CONVERSATION = /(?:messages|history|conversation|thread)["'\]]*$/i;

/** The state key that stands for every key a node fills from a spread model reply (`return {**reply}`). */
const ANY_KEY = '*';

/** Lower-cased words of the names in an expression, split at snake_case, kebab-case and camelCase boundaries. */
export function nameWords(expression: string): string[] {
  const names = expression.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
  return names.flatMap((name) =>
    name
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .toLowerCase()
      .split(/[\s_$-]+/)
      .filter(Boolean),
  );
}

const PROMPT_WORDS = new Set(['prompt', 'prompts', 'instruction', 'instructions', 'template', 'templates', 'backstory', 'sysmsg']);

/** True when a name's last words say it is a prompt (`..._PROMPT`, `system_message`, `instructions`). */
function namesPrompt(words: readonly string[]): boolean {
  const last = words.at(-1) ?? '';
  return PROMPT_WORDS.has(last) || (words.at(-2) === 'system' && (last === 'message' || last === 'msg'));
}

/** True when a name's words say it carries delegated or peer content (`peer_reply`, `subtask`, `agent_output`). */
export function delegatedByName(expression: string): boolean {
  if (expression.includes('(') && BOUNDARY_CALLS.test(expression.replace(/\s*\(.*$/s, '').replace(/^.*\./, ''))) return false;
  const words = nameWords(expression);
  // Content a name says a person wrote (`human_feedback`, `user_answer`) is not another agent's; nor is what a name
  // says is a prompt (`CRITIC_AGENT_PROMPT`, `writer_agent.system_message`): an agent's own instructions.
  if (words.some((w) => w === 'human' || w === 'user' || w === 'customer')) return false;
  if (namesPrompt(words)) return false;
  // A name for data about the content (`observation_date`, `peer_id`, `handoff_count`) is no content.
  if (namesMetadata(words)) return false;
  return words.some((word, i) => DELEGATION_WORDS.has(word) || (i > 0 && SOURCE_WORDS.has(words[i - 1]) && CONTENT_WORDS.has(word) && words[i - 1] !== word));
}

/** A method as a function value of its class (for calls through `self.name(...)`). */
function methodValue(file: string, classScope: number, scope: Scope, name: string): Value {
  return { expr: { k: 'func', start: scope.start, end: scope.start, fn: { params: scope.params, body: { from: 0, to: 0, tokens: [] }, name, scope: scope.id } }, loc: { file, scope: classScope }, frames: [] } as Value;
}

/** Types of the context a framework hands a tool (OpenAI Agents SDK, Pydantic AI, ADK, LangChain, MCP): not the model's choice. */
const TOOL_CONTEXT_TYPES = /(?:Context|ContextWrapper|Deps|RunnableConfig|ToolRuntime|InjectedState|InjectedStore)$/;

/** Whether a name's last word says it holds data about content, not the content (`observation_date`, `feedback.rating`). */
function namesMetadata(words: readonly string[]): boolean {
  return METADATA_WORDS.has(words[words.length - 1]);
}

/** Last words of a name that say it holds data about content, not the content (a rating or score is a grade or a number). */
const METADATA_WORDS = new Set([
  'date', 'time', 'timestamp', 'id', 'ids', 'count', 'type', 'name', 'names', 'index', 'key', 'language', 'lang', 'format', 'length', 'len', 'size', 'status',
  'number', 'num', 'rating', 'score',
  // A finished process's exit status, id and error stream (`r.returncode`, `p.pid`, `r.stderr`) are not what it answered.
  'returncode', 'pid', 'stderr',
]);

/** How deep command-line lists are followed into the lists they splice in. */
const MAX_ARGV_LEVELS = 4;

/** The plain text of a literal in its file (escapes not undone). */
function literalText(text: string, literal: StringLiteral): string {
  return text.slice(literal.contentStart, literal.contentEnd);
}

/** Answers value questions over a project. One instance per analysis; its caches assume the files do not change. */
export class Resolver {
  private steps = 0;
  /** Set when a walk stopped at the budget (its partial answer is not kept). */
  private exhausted = false;
  private readonly valueMemo = new WeakMap<Expr, Map<string, Value[]>>();
  private outputMemo = new WeakMap<Expr, Map<string, string | null>>();
  /** State keys some node names in its update (a spread reply does not stand for them). */
  private readonly namedKeys = new Set<string>();
  private readonly taintMemo = new Map<string, string | null>();
  private stateKeysCache?: Map<string, string>;
  /** Per state key, the files whose code writes it with agent output and how (keys from YAML configs have none: read anywhere). */
  private readonly stateWriters = new Map<string, Map<string, string>>();
  private readonly nearby = new Map<string, Set<string>>();
  private readonly guardMemo = new Map<string, Guard[]>();
  /** Set when an `if` test ruled out every value of a name on the way (the test): why a sink's value is not read. */
  private ruledOut: string | undefined;
  /** The same per expression whose memoised answer is empty, so that a later question that reads the memo says it too. */
  private readonly ruledOutMemo = new WeakMap<Expr, string>();
  /** Calls known to run a callable agent (asked again for every question that passes the call). */
  private readonly callsAgentMemo = new WeakMap<Expr, true>();

  constructor(
    readonly project: ProjectModel,
    private readonly extraStateKeys: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** Resets the step budget (one budget per question). */
  begin(): void {
    this.steps = 0;
  }

  private spent(): boolean {
    if (++this.steps <= STEP_BUDGET) return false;
    this.exhausted = true;
    return true;
  }

  text(file: string): string {
    return this.project.source(file)?.text ?? '';
  }

  // ------------------------------------------------------------------ values

  /**
   * The terminal values an expression may take (names, attributes, items, elements and calls followed). Answers
   * without bound arguments are kept per expression and scope; a walk back into a question still open answers nothing.
   */
  values(expr: Expr, loc: Loc, frames: readonly Frame[], depth = 0): Value[] {
    if (expr.k === 'str' || expr.k === 'concat' || expr.k === 'list' || expr.k === 'dict' || expr.k === 'func' || expr.k === 'other' || expr.k === 'format') return [{ expr, loc, frames }];
    if (depth > MAX_DEPTH) {
      // Cut short, like a spent budget: not an answer to keep, and the sink says why it was not read.
      this.exhausted = true;
      return [];
    }
    if (frames.length > 0) return this.spent() ? [] : this.valuesOf(expr, loc, frames, depth);
    let perExpr = this.valueMemo.get(expr);
    if (!perExpr) {
      perExpr = new Map();
      this.valueMemo.set(expr, perExpr);
    }
    const key = `${loc.file}\0${loc.scope}`;
    const known = perExpr.get(key);
    if (known) {
      if (known.length === 0) this.ruledOut ??= this.ruledOutMemo.get(expr);
      return known;
    }
    if (this.spent()) return [];
    perExpr.set(key, []);
    const exhausted = this.exhausted;
    this.exhausted = false;
    const found = this.valuesOf(expr, loc, frames, depth);
    if (found.length === 0 && this.ruledOut !== undefined) this.ruledOutMemo.set(expr, this.ruledOut);
    if (this.exhausted) perExpr.delete(key);
    else perExpr.set(key, found);
    this.exhausted ||= exhausted;
    return found;
  }

  /**
   * At most MAX_VALUES values per question: alternatives multiply through callers, branches and definitions, and an
   * unbounded list blew the stack when spread into the next (langgraph's _runnable.py). A cut is a spent budget.
   */
  private valuesOf(expr: Expr, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    const found = this.valuesByKind(expr, loc, frames, depth);
    if (found.length <= MAX_VALUES) return found;
    this.exhausted = true;
    return found.slice(0, MAX_VALUES);
  }

  private valuesByKind(expr: Expr, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    switch (expr.k) {
      case 'name':
        return this.guarded(expr, loc.file, this.nameValues(expr.id, loc, frames, depth, expr.start));
      case 'attr':
        return this.attrValues(expr, loc, frames, depth);
      case 'index':
        return this.indexValues(expr, loc, frames, depth);
      case 'cond':
        return expr.options.flatMap((o) => this.values(o, loc, frames, depth + 1));
      case 'elem':
        return this.values(expr.of, loc, frames, depth + 1).flatMap((v) => {
          if (v.expr.k === 'dict') return [];
          if (v.expr.k !== 'list') return [v];
          // A tuple unpacked by position gives each name its own item.
          const items = expr.at !== undefined && v.expr.tuple && v.expr.items.length > expr.at ? [v.expr.items[expr.at]] : v.expr.items;
          return items.flatMap((item) => this.values(item, v.loc, v.frames, depth + 1));
        });
      case 'call':
        return this.callValues(expr, loc, frames, depth);
      default:
        return [{ expr, loc, frames }];
    }
  }

  /** The values of a name that can pass the `if` tests around it (`isinstance(m, SystemMessage)`, `role == "system"`). */
  private guarded(expr: Extract<Expr, { k: 'name' }>, file: string, values: Value[]): Value[] {
    if (values.length === 0 || this.project.module(file)?.language !== 'python') return values;
    return this.passing(this.guardsOn(expr, file), values);
  }

  /** The tests around a name that test it. */
  private guardsOn(expr: Extract<Expr, { k: 'name' }>, file: string): Guard[] {
    return this.guardsAt(file, expr.start).filter((g) => g.name === expr.id);
  }

  /** The values that can pass every guard; when none can, what ruled them out is kept for the report. */
  private passing(guards: readonly Guard[], values: Value[]): Value[] {
    if (guards.length === 0) return values;
    const passing = values.filter((v) => guards.every((g) => mayPass(g, v.expr, this.text(v.loc.file))));
    if (passing.length === 0) this.ruledOut = guards.map(describeGuard).join(' and ');
    return passing;
  }

  /**
   * For a name the `if` tests around it narrow (`… if m["role"] == "user" else …`), whether the values that pass carry
   * another agent's output (why, or undefined); false where no test rules out any of its values.
   */
  private narrowedOutput(expr: Extract<Expr, { k: 'name' }>, loc: Loc, frames: readonly Frame[], depth: number): string | undefined | false {
    if (this.project.module(loc.file)?.language !== 'python') return false;
    const guards = this.guardsOn(expr, loc.file);
    if (guards.length === 0) return false;
    const all = this.nameValues(expr.id, loc, frames, depth + 1, expr.start);
    const ruledOut = this.ruledOut;
    const passing = this.passing(guards, all);
    this.ruledOut = ruledOut;
    if (passing.length === all.length) return false;
    for (const v of passing) {
      const why = this.agentOutput(v.expr, v.loc, v.frames, depth + 1);
      if (why) return why;
    }
    return undefined;
  }

  /** The guards around a position: its line's `if` blocks (kept per line), then the expression tests read from it. */
  private guardsAt(file: string, offset: number): Guard[] {
    const text = this.text(file);
    const key = `${file}\0${text.lastIndexOf('\n', offset - 1)}`;
    let block = this.guardMemo.get(key);
    if (!block) {
      block = blockGuards(text, offset);
      this.guardMemo.set(key, block);
    }
    const inline = inlineGuards(text, offset);
    return inline.length > 0 ? [...inline, ...block] : block;
  }

  /** What `name` is bound to where `loc` reads it; `at`, the offset of the reference, sees a comprehension's names only inside it. */
  private lookup(name: string, loc: Loc, at?: number):
    | { kind: 'defs'; defs: Def[] }
    | { kind: 'param'; scope: number; index: number; param: Param; field?: string }
    | { kind: 'class'; scope: number }
    | { kind: 'import'; module: string; name?: string }
    | { kind: 'none' } {
    const module = this.project.module(loc.file);
    if (!module) return { kind: 'none' };
    let s = module.scopes[loc.scope];
    let first = true;
    while (s) {
      const visible = !(s.kind === 'class' && !first);
      if (visible) {
        if (s.kind === 'function') {
          const index = s.params.findIndex((p) => p.name === name || p.fields?.includes(name));
          if (index !== -1) {
            const param = s.params[index];
            return { kind: 'param', scope: s.id, index, param, field: param.name === name ? undefined : name };
          }
        }
        const defs = module.defs.get(defKey(s.id, name))?.filter((def) => !def.within || at === undefined || (def.within[0] <= at && at < def.within[1]));
        if (defs?.length) return { kind: 'defs', defs };
      }
      s = s.parent >= 0 ? module.scopes[s.parent] : undefined!;
      first = false;
    }
    const classScope = module.classes.get(name);
    if (classScope !== undefined) return { kind: 'class', scope: classScope };
    const binding = module.imports.get(name);
    if (binding) return { kind: 'import', module: binding.module, name: binding.name };
    for (const spec of module.starExports) {
      const target = this.project.resolveModule(loc.file, spec);
      if (target && this.project.module(target)?.defs.has(defKey(0, name))) return { kind: 'import', module: spec, name };
    }
    return { kind: 'none' };
  }

  private nameValues(name: string, loc: Loc, frames: readonly Frame[], depth: number, at?: number): Value[] {
    const found = this.lookup(name, loc, at);
    switch (found.kind) {
      case 'defs':
        // `x = x.strip()` gives x no value it did not have.
        return found.defs
          .filter((def) => !textMethodOf(def.value, name))
          .flatMap((def) => this.values(def.value, { file: loc.file, scope: def.scope }, frames, depth + 1).map((v) => (def.augment ? { ...v, augment: true } : v)));
      case 'param':
        return this.paramValues(loc.file, found.scope, found.index, found.param, found.field, frames, depth);
      case 'class':
        return [{ expr: { k: 'name', start: 0, end: 0, id: name }, loc, frames: [], classRef: { file: loc.file, scope: found.scope } }];
      case 'import':
        return this.importValues(loc.file, found.module, found.name, depth);
      case 'none':
        return [];
    }
  }

  private importValues(file: string, spec: string, name: string | undefined, depth: number): Value[] {
    const target = this.project.resolveModule(file, spec);
    if (!target) {
      // `from . import prompts`: the name is a module of the package.
      if (name && /^\.+$/.test(spec)) {
        const sub = this.project.resolveModule(file, spec + name);
        if (sub) return [this.namespace(sub)];
      }
      return [];
    }
    if (name === undefined) return [this.namespace(target)];
    return this.exportValues(target, name, depth + 1);
  }

  private namespace(file: string): Value {
    return { expr: { k: 'name', start: 0, end: 0, id: file }, loc: { file, scope: 0 }, frames: [], module: file };
  }

  /** What module `file` exports under `name` (definitions, re-exports, star exports, Python submodules). */
  private exportValues(file: string, name: string, depth: number): Value[] {
    if (depth > MAX_DEPTH || this.spent()) return [];
    const module = this.project.module(file);
    if (!module) return [];
    const exported = module.exports.get(name);
    if (exported?.module) return this.importValues(file, exported.module, exported.name, depth + 1);
    const local = exported?.local ?? name;
    const defs = module.defs.get(defKey(0, local));
    if (defs) return defs.flatMap((def) => this.values(def.value, { file, scope: def.scope }, [], depth + 1));
    const classScope = module.classes.get(local);
    if (classScope !== undefined) return [{ expr: { k: 'name', start: 0, end: 0, id: local }, loc: { file, scope: 0 }, frames: [], classRef: { file, scope: classScope } }];
    const binding = module.imports.get(local);
    // A package that imports its own submodule (`from letta.prompts.system_prompts import memgpt_v2_chat` in that
    // package's __init__.py) finds it below, as a submodule, not by importing itself again.
    if (binding && this.project.resolveModule(file, binding.module) !== file) return this.importValues(file, binding.module, binding.name, depth + 1);
    for (const spec of module.starExports) {
      const target = this.project.resolveModule(file, spec);
      if (target) {
        const found = this.exportValues(target, name, depth + 1);
        if (found.length > 0) return found;
      }
    }
    if (module.language === 'python' && /(?:^|\/)__init__\.py$/.test(file)) {
      const sub = this.project.resolveModule(file, `.${name}`);
      if (sub) return [this.namespace(sub)];
    }
    return [];
  }

  /** The calls in the project that bind the parameters of function scope `fn` of `file`. */
  private callersOf(file: string, fn: number, limit = MAX_CALLERS): { file: string; scope: number; args: Arg[]; method: boolean }[] {
    const module = this.project.module(file);
    const scope = module?.scopes[fn];
    if (!module || !scope?.name) return [];
    const isConstructor = scope.name === '__init__' || scope.name === 'constructor';
    const name = isConstructor ? (scope.classScope !== undefined ? module.scopes[scope.classScope].name : undefined) : scope.name;
    if (!name) return [];
    // Importers through a package that re-exports the function (`from taskweaver.llm import format_chat_message`) too.
    const importers = new Set(this.project.importersOf(file));
    for (const hub of [...importers]) if (PACKAGE_FILE.test(hub)) for (const importer of this.project.importersOf(hub)) importers.add(importer);
    const selfParam = module.language === 'python' && scope.classScope !== undefined && ['self', 'cls'].includes(scope.params[0]?.name ?? '');
    return this.project
      .callsNamed(name)
      .filter((site) => site.file === file || importers.has(site.file))
      .slice(0, limit)
      .map((site) => ({ file: site.file, scope: site.scope, args: site.call.args, method: selfParam }));
  }

  /** The argument a call passes for parameter `index` (keyword first, then position). */
  private argumentFor(args: readonly Arg[], params: readonly Param[], index: number, method: boolean): Expr | undefined {
    const param = params[index];
    const keyword = args.find((a) => a.name !== undefined && a.name === param.name);
    if (keyword) return keyword.value;
    const positional = args.filter((a) => a.name === undefined && !a.spread);
    return positional[index - (method ? 1 : 0)]?.value;
  }

  private paramValues(file: string, fn: number, index: number, param: Param, field: string | undefined, frames: readonly Frame[], depth: number): Value[] {
    const scope = this.project.scope(file, fn);
    if (!scope) return [];
    const pick = (values: Value[]): Value[] => (field === undefined ? values : values.flatMap((v) => this.memberValues(v, field, depth + 1)));
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i];
      if (frame.file === file && frame.fn === fn) {
        const method = this.project.module(file)?.language === 'python' && scope.classScope !== undefined && ['self', 'cls'].includes(scope.params[0]?.name ?? '');
        const arg = this.argumentFor(frame.args, scope.params, index, method);
        if (arg) return pick(this.values(arg, frame.loc, frame.outer, depth + 1));
        return param.default ? pick(this.values(param.default, { file, scope: scope.parent }, [], depth + 1)) : [];
      }
    }
    const found: Value[] = [];
    if (param.default) found.push(...this.values(param.default, { file, scope: scope.parent }, [], depth + 1));
    for (const caller of this.callersOf(file, fn)) {
      const arg = this.argumentFor(caller.args, scope.params, index, caller.method);
      if (arg) found.push(...this.values(arg, { file: caller.file, scope: caller.scope }, [], depth + 1));
    }
    return pick(found);
  }

  /** Members named `name` of a value: dict entries, object properties, keyword arguments of a config call, class attributes. */
  memberValues(v: Value, name: string, depth: number): Value[] {
    if (depth > MAX_DEPTH || this.spent()) return [];
    if (v.module) return this.exportValues(v.module, name, depth + 1);
    if (v.classRef) return this.classAttrValues(v.classRef.file, v.classRef.scope, name, [], depth + 1);
    const e = v.expr;
    if (e.k === 'dict') {
      const out: Value[] = [];
      for (const entry of e.entries) {
        if (entry.key === name) out.push(...this.values(entry.value, v.loc, v.frames, depth + 1));
        else if (entry.spread) for (const inner of this.values(entry.value, v.loc, v.frames, depth + 1)) out.push(...this.memberValues(inner, name, depth + 1));
      }
      return out;
    }
    if (e.k === 'call') {
      const keyword = /^[A-Z]/.test(lastName(e.callee) ?? '') || lastName(e.callee) === 'dict' ? e.args.find((a) => a.name === name) : undefined;
      if (keyword) return this.values(keyword.value, v.loc, v.frames, depth + 1);
      const out: Value[] = [];
      // A constructor's config object (`new Agent({ instructions })`) holds its members; a model call's argument is its input, not its result.
      const callee = lastName(e.callee) ?? '';
      if (/^[A-Z]/.test(callee) || callee === 'dict') {
        for (const arg of e.args) {
          if (arg.name !== undefined) continue;
          if (arg.value.k === 'dict') out.push(...this.memberValues({ ...v, expr: arg.value }, name, depth + 1));
        }
      }
      const classes = this.values(e.callee, v.loc, v.frames, depth + 1).filter((c) => c.classRef);
      for (const c of classes) {
        const ctor = this.constructorOf(c.classRef!.file, c.classRef!.scope);
        const frame: Frame[] = ctor === undefined ? [] : [{ file: c.classRef!.file, fn: ctor, args: e.args, loc: v.loc, outer: v.frames }];
        out.push(...this.classAttrValues(c.classRef!.file, c.classRef!.scope, name, frame, depth + 1));
      }
      return out;
    }
    return [];
  }

  private constructorOf(file: string, classScope: number): number | undefined {
    const module = this.project.module(file);
    return module?.scopes.find((s) => s.classScope === classScope && (s.name === '__init__' || s.name === 'constructor'))?.id;
  }

  private classAttrValues(file: string, classScope: number, name: string, frames: readonly Frame[], depth: number): Value[] {
    const module = this.project.module(file);
    if (!module) return [];
    const defs = [...(module.attrDefs.get(defKey(classScope, name)) ?? []), ...(module.defs.get(defKey(classScope, name)) ?? [])];
    return defs.flatMap((def) => this.values(def.value, { file, scope: def.scope }, frames, depth + 1));
  }

  /**
   * `self.name` where the class does not set it: what each subclass sets (aider's `Coder` reads
   * `self.gpt_prompts`, which only `EditBlockCoder` and its siblings set).
   */
  private subclassAttrValues(file: string, classScope: number, name: string, depth: number): Value[] {
    return this.fromSubclasses(file, classScope, depth, (path, sub) => this.classAttrValues(path, sub.id, name, [], depth + 1));
  }

  /** What `read` finds in each subclass of a class, or, in a subclass where it finds nothing, in that one's subclasses. */
  private fromSubclasses(file: string, classScope: number, depth: number, read: (path: string, sub: Scope) => Value[]): Value[] {
    const out: Value[] = [];
    for (const { path, sub } of this.subclassesOf(file, classScope, depth)) {
      const found = read(path, sub);
      out.push(...(found.length > 0 ? found : this.fromSubclasses(path, sub.id, depth + 1, read)));
      if (out.length >= MAX_ALTERNATIVES) break;
    }
    return out;
  }

  /** The classes of the project that extend the class at `classScope` of `file` (directly). */
  private subclassesOf(file: string, classScope: number, depth: number): { path: string; sub: Scope }[] {
    const className = this.project.module(file)?.scopes[classScope].name;
    if (!className || depth > MAX_DEPTH) return [];
    const out: { path: string; sub: Scope }[] = [];
    for (const path of this.project.filesContaining(className)) {
      for (const sub of this.project.module(path)?.scopes ?? []) {
        if (sub.kind !== 'class' || !sub.bases?.some((base) => base.replace(/^.*\./, '') === className)) continue;
        const base = this.nameValues(className, { file: path, scope: sub.parent }, [], depth + 1);
        if (base.some((v) => v.classRef?.file === file && v.classRef.scope === classScope)) out.push({ path, sub });
      }
    }
    return out;
  }

  /** The class scope enclosing `scope` (for `self.x` / `this.x`). */
  private enclosingClass(file: string, scope: number): number | undefined {
    const module = this.project.module(file);
    for (let s = module?.scopes[scope]; s; s = s.parent >= 0 ? module!.scopes[s.parent] : undefined) {
      if (s.classScope !== undefined) return s.classScope;
      if (s.kind === 'class') return s.id;
    }
    return undefined;
  }

  private attrValues(expr: Extract<Expr, { k: 'attr' }>, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    const obj = expr.obj;
    if (obj.k === 'name' && (obj.id === 'self' || obj.id === 'this' || obj.id === 'cls')) {
      const classScope = this.enclosingClass(loc.file, loc.scope);
      if (classScope !== undefined) {
        const found = this.classAttrValues(loc.file, classScope, expr.name, frames, depth + 1);
        return found.length > 0 ? found : this.subclassAttrValues(loc.file, classScope, expr.name, depth + 1);
      }
    }
    const out: Value[] = [];
    for (const v of this.values(obj, loc, frames, depth + 1)) out.push(...this.memberValues(v, expr.name, depth + 1));
    if (out.length === 0) out.push(...this.itemValues(obj, expr.name, loc, frames, depth));
    return out;
  }

  /** Values assigned to `obj.key` / `obj["key"]` elsewhere in the file (matched by the object's text). */
  private itemValues(obj: Expr, key: string, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    return this.itemWrites(obj, key, loc).flatMap((w) => this.values(w.expr, w.loc, frames, depth + 1));
  }

  /** The values written to `obj[key]` in its file (`d["k"] = value`), each where it is written. */
  private itemWrites(obj: Expr, key: string, loc: Loc): { expr: Expr; loc: Loc }[] {
    const module = this.project.module(loc.file);
    if (!module) return [];
    const text = module.text.slice(obj.start, obj.end);
    return module.itemDefs
      .filter((d) => d.key === key && module.text.slice(d.obj.start, d.obj.end) === text)
      .map((d) => ({ expr: d.value, loc: { file: loc.file, scope: d.scope } }));
  }

  private indexValues(expr: Extract<Expr, { k: 'index' }>, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    const key = expr.index.k === 'str' && expr.index.holes.length === 0 ? literalText(this.text(loc.file), expr.index.literal) : undefined;
    const number = expr.index.k === 'other' && /^-?\d+$/.test(this.text(loc.file).slice(expr.index.start, expr.index.end)) ? Number(this.text(loc.file).slice(expr.index.start, expr.index.end)) : undefined;
    // A key passed in (`SYSTEM_PROMPTS[key]`, letta's `get_system_text("memgpt_v2_chat")`) is each literal it is
    // given; it is only looked up when a dict is indexed (a loop's `items[i]` needs no key).
    let passed: string[] | undefined;
    const keysOf = (v: Value) => (key !== undefined ? [key] : v.expr.k === 'dict' && expr.index.k === 'name' ? (passed ??= this.literalKeys(expr.index, loc, frames, depth)) : []);
    const out: Value[] = [];
    for (const v of this.values(expr.obj, loc, frames, depth + 1)) {
      const keys = keysOf(v);
      if (keys.length > 0) for (const k of keys) out.push(...this.memberValues(v, k, depth + 1));
      else if (v.expr.k === 'list') {
        const items = number === undefined ? v.expr.items : [v.expr.items.at(number)].filter((x): x is Expr => x !== undefined);
        for (const item of items) out.push(...this.values(item, v.loc, v.frames, depth + 1));
      }
    }
    if (out.length === 0 && key !== undefined) out.push(...this.itemValues(expr.obj, key, loc, frames, depth));
    return out;
  }

  /** The string literals a name used as a key holds, when it holds nothing else (empty otherwise). */
  private literalKeys(index: Expr, loc: Loc, frames: readonly Frame[], depth: number): string[] {
    const values = this.values(index, loc, frames, depth + 1);
    const literal = (v: Value) => v.expr.k === 'str' && v.expr.holes.length === 0;
    return values.length > 0 && values.every(literal) ? values.map((v) => literalText(this.text(v.loc.file), (v.expr as Extract<Expr, { k: 'str' }>).literal)) : [];
  }

  private callValues(expr: Extract<Expr, { k: 'call' }>, loc: Loc, frames: readonly Frame[], depth: number): Value[] {
    const name = lastName(expr.callee);
    if (name === 'dict' || name === 'deepcopy' || name === 'copy' || name === 'structuredClone') {
      const first = expr.args[0]?.value;
      if (first && !expr.args[0].name) return this.values(first, loc, frames, depth + 1);
    }
    if (expr.callee.k === 'name' || expr.callee.k === 'attr') {
      const callees = expr.callee.k === 'attr' && expr.callee.obj.k === 'name' && ['self', 'this', 'cls'].includes(expr.callee.obj.id)
        ? this.methodValues(loc, expr.callee.name, depth)
        : this.values(expr.callee, loc, frames, depth + 1);
      const functions = callees.filter((c) => c.expr.k === 'func');
      if (functions.length > 0) {
        return functions.flatMap((c) => {
          const fn = (c.expr as Extract<Expr, { k: 'func' }>).fn;
          if (fn.scope === undefined) return [];
          const scope = this.project.scope(c.loc.file, fn.scope);
          const frame: Frame = { file: c.loc.file, fn: fn.scope, args: expr.args, loc, outer: frames };
          return (scope?.returns ?? []).flatMap((r) => {
            const at = { file: c.loc.file, scope: fn.scope! };
            const found = this.values(r, at, [...c.frames, frame], depth + 1);
            // A member of something unknown (`return reply.messages[0].content.text`) is a value computed at run
            // time, not no value: beside a literal fallback it keeps the prompt from passing as checked.
            return found.length === 0 && (r.k === 'attr' || r.k === 'index') ? [{ expr: r, loc: at, frames: [...c.frames, frame] }] : found;
          });
        });
      }
    }
    return [{ expr, loc, frames }];
  }

  /** Methods named `name` of the class enclosing `loc` (for `self.method()`). */
  private methodValues(loc: Loc, name: string, depth: number): Value[] {
    const classScope = this.enclosingClass(loc.file, loc.scope);
    const module = this.project.module(loc.file);
    if (classScope === undefined || !module) return [];
    const found = (module.defs.get(defKey(classScope, name)) ?? []).flatMap((d) => this.values(d.value, { file: loc.file, scope: d.scope }, [], depth + 1));
    const methods = found.length > 0 ? found : module.scopes.filter((s) => s.classScope === classScope && s.name === name).map((s) => methodValue(loc.file, classScope, s, name));
    // A method that returns nothing here (`raise NotImplementedError`: DSPy's `Adapter.format_task_description`) is what
    // the subclasses that override it return.
    const abstract = (v: Value) => v.expr.k === 'func' && v.expr.fn.scope !== undefined && this.project.scope(v.loc.file, v.expr.fn.scope)?.returns.length === 0;
    if (methods.length === 0 || !methods.every(abstract)) return methods;
    const overrides = (path: string, sub: Scope) =>
      this.project.module(path)!.scopes.filter((s) => s.classScope === sub.id && s.name === name).map((s) => methodValue(path, sub.id, s, name));
    return this.fromSubclasses(loc.file, classScope, depth, overrides);
  }

  // ------------------------------------------------------------------ prompt text

  /** The literals and interpolations a prompt value is made of. */
  promptText(expr: Expr, loc: Loc, frames: readonly Frame[] = []): PromptText {
    const acc: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
    this.collect(expr, loc, frames, acc, 0, false);
    return acc;
  }

  /**
   * The prompts a sink's value may be, one per alternative: each definition, caller argument, branch or returned
   * value is a prompt of its own (a factory called with three prompts has three), while the parts of one value
   * (concatenation, interpolations) stay together.
   */
  promptAlternatives(expr: Expr, loc: Loc, frames: readonly Frame[] = []): PromptText[] {
    const values = this.values(expr, loc, frames);
    if (values.length === 0) return [this.promptText(expr, loc, frames)];
    const expanded: Value[] = [];
    for (const v of values.slice(0, MAX_ALTERNATIVES)) {
      if (v.expr.k === 'func' && v.expr.fn.scope !== undefined) {
        const fnScope = v.expr.fn.scope;
        const at = { file: v.loc.file, scope: fnScope };
        for (const r of this.project.scope(v.loc.file, fnScope)?.returns ?? []) expanded.push(...this.throughTextMethods(this.values(r, at, v.frames)));
      } else expanded.push(...this.throughTextMethods([v]));
    }
    // `prompt += "…"` parts belong to every alternative the name had before them (autogen's gitty: one prompt, not three).
    const bases = expanded.filter((v) => !v.augment);
    const appended = bases.length > 0 ? expanded.filter((v) => v.augment) : [];
    return (bases.length > 0 ? bases : expanded).slice(0, MAX_ALTERNATIVES).map((v) => {
      const acc: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
      this.collectValue(v, acc, 1, false);
      // A start of only separators (`str(task.scenario) + "\n\n"`, `f"{scenario}\n\n"`) opens nothing the warning can go in.
      const opensHere = acc.pieces.some((piece) => meaningful(this.text(piece.file), piece));
      for (const part of appended) this.collectValue(part, acc, 1, false);
      if (!opensHere) acc.pieces = acc.pieces.map((piece) => ({ ...piece, appended: true }));
      return acc;
    });
  }

  /**
   * Values with each text method taken off, one per alternative of the text it is applied to: `(c ? A : B).trim()` is
   * A and B (cline's `basePrompt.replace(…)` kept only one of its two prompts).
   */
  private throughTextMethods(values: Value[], seen = new Set<Expr>()): Value[] {
    return values.flatMap((v) => {
      // Each call is taken off once: `text = text.replace(…)` reassigned in a loop would otherwise expand forever.
      if (v.expr.k !== 'call' || seen.has(v.expr)) return [v];
      const name = lastName(v.expr.callee) ?? '';
      const formats = name === 'format' && v.expr.callee.k === 'attr';
      if (!formats && !TRANSPARENT_CALLS.test(name)) return [v];
      seen.add(v.expr);
      const target = formats ? (v.expr.callee as Extract<Expr, { k: 'attr' }>).obj : textTarget(v.expr);
      const alternatives = target ? this.throughTextMethods(this.values(target, v.loc, v.frames), seen) : [];
      if (alternatives.length <= 1) return [v];
      // Each template `template.format(…)` may fill is filled with the call's arguments; an appended part stays one.
      const args = (v.expr as Extract<Expr, { k: 'call' }>).args;
      return alternatives.map((alt) => ({ ...alt, ...(formats ? { formatWith: { args, at: v } } : {}), ...(v.augment ? { augment: true } : {}) }));
    });
  }

  /** What a name is assigned where `loc` reads it (one hop, as written); undefined for a parameter, an import or a class. */
  assignedValues(name: Extract<Expr, { k: 'name' }>, loc: Loc): Expr[] | undefined {
    const found = this.lookup(name.id, loc, name.start);
    return found.kind === 'defs' ? found.defs.map((def) => def.value) : undefined;
  }

  /** The dict or object literals a name is assigned in its scope chain (one hop: `const config = { ... }`). */
  definedDicts(name: string, loc: Loc): Value[] {
    const found = this.lookup(name, loc);
    if (found.kind !== 'defs') return [];
    return found.defs.filter((d) => d.value.k === 'dict').map((d) => ({ expr: d.value, loc: { file: loc.file, scope: d.scope }, frames: [] }));
  }

  /** The arguments callers pass for a parameter named by `expr` (empty when it is not a parameter), each where it is evaluated. */
  callerArguments(expr: Expr, loc: Loc): { expr: Expr; loc: Loc }[] {
    return this.callerArgumentRows([expr], loc).flatMap(([arg]) => (arg ? [arg] : []));
  }

  /**
   * Per caller, the arguments it passes for the parameters named by `exprs` (all of one function; undefined where it
   * passes none), each where it is evaluated; empty when one of them is not a parameter.
   */
  callerArgumentRows(exprs: readonly Expr[], loc: Loc, limit = MAX_CALLERS): ({ expr: Expr; loc: Loc } | undefined)[][] {
    const params = exprs.map((expr) => (expr.k === 'name' ? this.lookup(expr.id, loc, expr.start) : undefined));
    const first = params[0];
    if (first?.kind !== 'param' || params.some((p) => p?.kind !== 'param' || p.field !== undefined || p.scope !== first.scope)) return [];
    const scope = this.project.scope(loc.file, first.scope);
    if (!scope) return [];
    return this.callersOf(loc.file, first.scope, limit).map((caller) =>
      params.map((p) => {
        const arg = this.argumentFor(caller.args, scope.params, (p as { index: number }).index, caller.method);
        return arg ? { expr: arg, loc: { file: caller.file, scope: caller.scope } } : undefined;
      }),
    );
  }

  private collect(expr: Expr, loc: Loc, frames: readonly Frame[], acc: PromptText, depth: number, nested: boolean): void {
    if (depth > MAX_DEPTH || this.spent()) return;
    const exhausted = this.exhausted;
    this.exhausted = false;
    this.ruledOut = undefined;
    const values = this.values(expr, loc, frames, depth);
    const cut = this.exhausted;
    this.exhausted ||= exhausted;
    if (values.length === 0) {
      const text = this.text(loc.file).slice(expr.start, expr.end);
      // No prompt at all (`system_message=None`) is nothing to check.
      if (NO_VALUE.test(text)) return;
      acc.refs.push(text);
      const ruledOut = this.ruledOut === undefined ? undefined : `no value that reaches \`${shortened(text)}\` passes the test \`${this.ruledOut}\` on its way`;
      acc.reasons.push(cut ? `\`${shortened(text)}\` takes more steps to follow than harden takes (${MAX_DEPTH} names or calls deep, ${STEP_BUDGET} steps, ${MAX_VALUES} values)` : (ruledOut ?? this.missReason(expr, loc, text)));
      return;
    }
    for (const v of values) this.collectValue(v, acc, depth + 1, nested);
  }

  private missReason(expr: Expr, loc: Loc, text: string): string {
    if (expr.k === 'name') {
      const found = this.lookup(expr.id, loc, expr.start);
      if (found.kind === 'import') return `\`${text}\` comes from ${found.module}, outside the scanned files`;
      if (found.kind === 'param') return `\`${text}\` is a parameter no scanned caller passes`;
    }
    return `\`${shortened(text)}\` is computed at run time`;
  }

  private collectValue(v: Value, acc: PromptText, depth: number, nested: boolean): void {
    if (v.formatWith) {
      const sub: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
      this.collectValue({ ...v, formatWith: undefined }, sub, depth + 1, nested);
      this.fillTemplate(sub, v.formatWith.args, v.formatWith.at, acc, depth);
      return;
    }
    const e = v.expr;
    const text = this.text(v.loc.file);
    switch (e.k) {
      case 'str': {
        if (e.literal.bytes) return;
        const piece: Piece = { file: v.loc.file, literal: e.literal, scope: v.loc.scope, nested };
        acc.pieces.push(piece);
        for (const { hole, expr } of e.holes) this.collectHole(hole, expr, piece, v, acc, depth);
        return;
      }
      case 'concat': {
        // Operands are spliced text only in a string concatenation (`[system] + history` joins lists).
        const stringy = e.parts.some((part) => part.k === 'str');
        const whole = text.slice(e.start, e.end);
        for (const part of e.parts) {
          if (part.k === 'str') {
            // Literals joined into one string (`f"{a}\n" f"{b}"`, `"x" + f"{a}"`): a boundary in one is in that string.
            const before = acc.candidates.length;
            this.collectValue({ ...v, expr: part }, acc, depth, nested);
            for (const c of acc.candidates.slice(before)) if (c.kind === 'hole' && c.literal === part.literal) c.joined = { start: e.start, end: e.end };
          } else {
            // An operand already inside a boundary (`"<delegated_task>\n" + str(x) + "\n</delegated_task>"`) is bounded with all it holds.
            const bounded = isInsideBoundary(whole, part.start - e.start, part.end - e.start);
            const sub: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
            this.collect(part, v.loc, v.frames, sub, depth, nested);
            mergeText(acc, sub, !bounded);
            if (stringy && part.k !== 'list') acc.candidates.push({ kind: 'operand', file: v.loc.file, start: part.start, end: part.end, expr: part, loc: v.loc, frames: v.frames, text: text.slice(part.start, part.end) });
          }
        }
        return;
      }
      case 'list':
        for (const item of e.items) if (!ownTurn(item, text)) this.collect(item, v.loc, v.frames, acc, depth, nested);
        return;
      case 'dict':
        for (const entry of e.entries) if (entry.key !== undefined && TEXT_KEYS.has(entry.key)) this.collect(entry.value, v.loc, v.frames, acc, depth, nested);
        return;
      case 'func':
        if (e.fn.scope === undefined) return;
        for (const r of this.project.scope(v.loc.file, e.fn.scope)?.returns ?? []) this.collect(r, { file: v.loc.file, scope: e.fn.scope }, v.frames, acc, depth, nested);
        return;
      case 'format':
        this.collectFormat(e.template, e.args, v, acc, depth, nested);
        return;
      case 'call':
        this.collectCall(e, v, acc, depth, nested);
        return;
      default:
        if (v.module || v.classRef || NO_VALUE.test(text.slice(e.start, e.end))) return;
        acc.reasons.push(`\`${shortened(text.slice(e.start, e.end))}\` is computed at run time`);
    }
  }

  private collectHole(hole: { start: number; end: number; exprStart: number; exprEnd: number }, expr: Expr, piece: Piece, v: Value, acc: PromptText, depth: number): void {
    const text = this.text(v.loc.file);
    const exprText = text.slice(hole.exprStart, hole.exprEnd).trim();
    walk(expr, (x) => {
      if (x.k === 'name') acc.refs.push(x.id);
      if (x.k === 'attr') acc.refs.push(x.name);
    });
    if (expr.k === 'call' && BOUNDARY_CALLS.test(lastName(expr.callee) ?? '')) return;
    if (expr.k === 'call' && HARDENING_CALLS.test(lastName(expr.callee) ?? '')) acc.wrapped = true;
    const sub: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
    if (expr.k !== 'other') this.collect(expr, v.loc, v.frames, sub, depth + 1, true);
    acc.pieces.push(...sub.pieces.map((p) => ({ ...p, nested: true })));
    acc.refs.push(...sub.refs);
    acc.wrapped ||= sub.wrapped;
    // A hole that is text written here (a constant, a template) is checked through its own interpolations instead;
    // any other hole is the one place for a boundary around all it holds, conversions such as `f"{x}"` elsewhere
    // included (crewAI's `ToolUsage.use` returns one, and its value is also the crew's final answer).
    const written = sub.pieces.some((p) => meaningful(this.text(p.file), p));
    const asHole = (c: Pick<Candidate, 'expr' | 'text'>): Candidate => ({ kind: 'hole', file: v.loc.file, start: hole.start, end: hole.end, expr: c.expr, loc: v.loc, frames: v.frames, literal: piece.literal, text: c.text });
    // Code inside the hole (`{"Issues: " + str(issues) if issues else ""}`) is bounded at the hole, in the literal's
    // text: string escapes inside an f-string's expression are a SyntaxError before Python 3.12.
    const inside = (c: Candidate) => c.file === v.loc.file && c.start >= hole.exprStart && c.end <= hole.exprEnd && (c.kind === 'operand' || c.kind === 'value');
    if (written) acc.candidates.push(...sub.candidates.map((c) => (inside(c) ? asHole(c) : c)));
    else acc.candidates.push(asHole({ expr, text: exprText }));
  }

  /** `template.format(...)`, `template % args`: the template's pieces, and each placeholder bound to its argument. */
  private collectFormat(template: Expr, args: readonly Arg[], v: Value, acc: PromptText, depth: number, nested: boolean): void {
    const sub: PromptText = { pieces: [], candidates: [], refs: [], wrapped: false, reasons: [], reads: [] };
    this.collect(template, v.loc, v.frames, sub, depth + 1, nested);
    this.fillTemplate(sub, args, v, acc, depth);
  }

  /** Adds a template's text to `acc`, each of its placeholders bound to the argument `args` (given where `v` is) pass for it. */
  private fillTemplate(sub: PromptText, args: readonly Arg[], v: Value, acc: PromptText, depth: number): void {
    const positional = args.filter((a) => a.name === undefined && !a.spread);
    const spreads = args.filter((a) => a.spread);
    for (const piece of sub.pieces) {
      if (piece.literal.template) continue;
      const text = this.text(piece.file);
      let auto = 0;
      for (const ph of placeholders(text, piece.literal)) {
        let arg: Expr | undefined;
        if (ph.name === '' || /^\d+$/.test(ph.name)) arg = positional[ph.name === '' ? auto++ : Number(ph.name)]?.value;
        else arg = args.find((a) => a.name === ph.name)?.value;
        if (!arg && spreads.length > 0) {
          const fromSpread = spreads.flatMap((s) => this.values(s.value, v.loc, v.frames, depth + 1).flatMap((d) => this.memberValues(d, ph.name, depth + 1)));
          if (fromSpread[0]) {
            acc.candidates.push({ kind: 'placeholder', file: piece.file, start: ph.start, end: ph.end, expr: fromSpread[0].expr, loc: fromSpread[0].loc, frames: fromSpread[0].frames, literal: piece.literal, name: ph.name, text: ph.name });
            continue;
          }
        }
        if (arg) acc.candidates.push({ kind: 'placeholder', file: piece.file, start: ph.start, end: ph.end, expr: arg, loc: v.loc, frames: v.frames, literal: piece.literal, name: ph.name || String(auto - 1), text: ph.name || this.text(v.loc.file).slice(arg.start, arg.end) });
      }
    }
    mergeText(acc, sub, true);
  }

  /**
   * A file path built on the folder of the file that reads it, as `./name` (`Path(__file__).parent / "x.md"`,
   * `os.path.join(os.path.dirname(__file__), "x.md")`, `path.join(__dirname, "x.md")`, through names bound to either);
   * undefined for any other path.
   */
  private pathBesideFile(e: Expr | undefined, loc: Loc, depth: number): string | undefined {
    if (!e || depth > MAX_DEPTH) return undefined;
    const text = this.text(loc.file);
    if (HERE_FOLDER.test(text.slice(e.start, e.end).replace(/\s+/g, ''))) return '.';
    const plain = (x: Expr | undefined) => (x?.k === 'str' && x.holes.length === 0 ? literalText(text, x.literal) : undefined);
    // `restarts`: an absolute name (`/srv/p.md`, `C:\\p.md`) starts the path over, so it is no file beside the code
    // (pathlib's `/`, `os.path.join`, Node's `path.resolve`); Node's `path.join` appends it.
    const join = (base: Expr | undefined, rest: (Expr | undefined)[], restarts: boolean) => {
      const tail = rest.map(plain);
      if (tail.length === 0 || tail.some((t) => t === undefined || (restarts && ABSOLUTE_PATH.test(t)))) return undefined;
      const folder = this.pathBesideFile(base, loc, depth + 1);
      return folder === undefined ? undefined : [folder, ...tail].join('/');
    };
    if (e.k === 'other' && e.parts.length === 2 && text.slice(e.parts[0].end, e.parts[1].start).trim() === '/') return join(e.parts[0], [e.parts[1]], true);
    const joiner = e.k === 'call' ? /\bpath\.(join|resolve)$/.exec(chainText(e.callee)) : null;
    if (e.k === 'call' && joiner) {
      const [base, ...rest] = e.args.filter((a) => !a.spread).map((a) => a.value);
      return join(base, rest, joiner[1] === 'resolve' || this.project.module(loc.file)?.language === 'python');
    }
    if (e.k === 'call' && lastName(e.callee) === 'Path' && e.args.length === 1) return this.pathBesideFile(e.args[0].value, loc, depth + 1);
    if (e.k === 'call' && lastName(e.callee) === 'open' && e.args.length > 0) return this.pathBesideFile(e.args[0].value, loc, depth + 1);
    // A name bound once in this file (`prompt_dir = Path(__file__).parent`, `with open(…) as f`).
    const found = e.k === 'name' ? this.lookup(e.id, loc, e.start) : undefined;
    if (found?.kind !== 'defs' || found.defs.length !== 1) return undefined;
    return this.pathBesideFile(found.defs[0].value, { file: loc.file, scope: found.defs[0].scope }, depth + 1);
  }

  private collectCall(e: Extract<Expr, { k: 'call' }>, v: Value, acc: PromptText, depth: number, nested: boolean): void {
    const name = lastName(e.callee) ?? '';
    const first = e.args.find((a) => a.name === undefined && !a.spread)?.value;
    const receiver = e.callee.k === 'attr' ? e.callee.obj : undefined;
    const text = this.text(v.loc.file);
    if (HARDENING_CALLS.test(name)) {
      acc.wrapped = true;
      if (first) this.collect(first, v.loc, v.frames, acc, depth, nested);
      return;
    }
    if (BOUNDARY_CALLS.test(name)) return;
    if (name === 'join') {
      const items = receiver && (receiver.k === 'str' || receiver.k === 'concat') ? first : receiver;
      if (items) this.collect(items, v.loc, v.frames, acc, depth, nested);
      return;
    }
    if (name === 'format' && receiver) {
      this.collectFormat(receiver, e.args, v, acc, depth, nested);
      return;
    }
    if (READS.test(name)) {
      // `open("p.txt").read()`, `Path("x.md").read_text()`: the path is the receiver's argument. A method on any other
      // receiver takes no path (pathlib's `(DIR / name).read_text("utf-8")` takes an encoding) unless the argument
      // reads as one (`prompts.read_text("system.md")`, a module's helper).
      const method = (name === 'read' || name === 'read_text') && receiver !== undefined;
      const pathArg = method && receiver.k === 'call' ? receiver.args[0]?.value : first;
      const literal = pathArg?.k === 'str' && pathArg.holes.length === 0 ? literalText(text, pathArg.literal) : undefined;
      // A path joined onto the reading file's folder (`(Path(__file__).parent / "system_prompt.md").read_text()`).
      const path = literal !== undefined && (!method || receiver.k === 'call' || /[./]/.test(literal)) ? literal : this.pathBesideFile(method ? receiver : first, v.loc, depth);
      // An absolute path names no file of the project (`open("/srv/p.md")` reads the machine's, not the project's srv/p.md).
      if (path && !ABSOLUTE_PATH.test(path)) acc.reads.push({ from: v.loc.file, path });
      acc.reasons.push(path ? readReason(path) : `read from a file at run time (\`${withOpenedParentheses(text.slice(e.start, Math.min(e.end, e.start + 60)))}\`)`);
      return;
    }
    if (MESSAGE_CLASSES.test(name) || TRANSPARENT_CALLS.test(name)) {
      const target = textTarget(e);
      if (target) this.collect(target, v.loc, v.frames, acc, depth, nested);
      return;
    }
    acc.reasons.push(`\`${chainText(e.callee)}(...)\` is computed at run time`);
  }

  // ------------------------------------------------------------------ delegation

  /**
   * Why an expression carries another agent's output (`reply of llm.invoke(...)`, `state key "research" written by
   * agent researcher`, `named peer_reply`), or undefined when it does not as far as the project shows.
   */
  agentOutput(expr: Expr, loc: Loc, frames: readonly Frame[], depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (frames.length > 0 || depth <= 1) return this.spent() ? undefined : this.agentOutputOf(expr, loc, frames, depth);
    let perExpr = this.outputMemo.get(expr);
    if (!perExpr) {
      perExpr = new Map();
      this.outputMemo.set(expr, perExpr);
    }
    const key = `${loc.file}\0${loc.scope}`;
    if (perExpr.has(key)) return perExpr.get(key) ?? undefined;
    if (this.spent()) return undefined;
    perExpr.set(key, null);
    const exhausted = this.exhausted;
    this.exhausted = false;
    const why = this.agentOutputOf(expr, loc, frames, depth);
    if (this.exhausted && !why) perExpr.delete(key);
    else perExpr.set(key, why ?? null);
    this.exhausted ||= exhausted;
    return why;
  }

  private agentOutputOf(expr: Expr, loc: Loc, frames: readonly Frame[], depth: number): string | undefined {
    const text = this.text(loc.file);
    switch (expr.k) {
      case 'name': {
        const narrowed = this.narrowedOutput(expr, loc, frames, depth);
        if (narrowed !== false) return narrowed;
        const found = this.lookup(expr.id, loc, expr.start);
        if (found.kind === 'defs') {
          for (const def of found.defs) {
            const key = `${loc.file}:${def.scope}:${def.start}`;
            if (this.taintMemo.has(key)) {
              const memo = this.taintMemo.get(key);
              if (memo) return memo;
              continue;
            }
            this.taintMemo.set(key, null);
            const why = this.agentOutput(def.value, { file: loc.file, scope: def.scope }, frames, depth + 1);
            if (why) {
              if (frames.length === 0) this.taintMemo.set(key, why);
              else this.taintMemo.delete(key);
              return why;
            }
            if (frames.length > 0) this.taintMemo.delete(key);
          }
          // A name holding text written here (a constant) or read from a file of the project (continue's AGENTS.md
          // rules) is that text, whatever it is called.
          const written = found.defs.every((d) => d.value.k === 'str' || d.value.k === 'concat' || d.value.k === 'format' || (d.value.k === 'call' && FILE_READS.test(lastName(d.value.callee) ?? '')));
          return depth <= 1 && !written && delegatedByName(expr.id) ? `named ${expr.id}` : undefined;
        }
        if (found.kind === 'param') return this.paramOutput(loc.file, found.scope, found.index, expr.id, frames, depth);
        if (found.kind === 'import') {
          const imported = this.importValues(loc.file, found.module, found.name, depth);
          for (const v of imported) {
            const why = this.agentOutput(v.expr, v.loc, v.frames, depth + 1);
            if (why) return why;
          }
          if (imported.length > 0 && imported.every((v) => v.expr.k === 'str' || v.expr.k === 'concat' || v.expr.k === 'format')) return undefined;
        }
        return depth <= 1 && delegatedByName(expr.id) ? `named ${expr.id}` : undefined;
      }
      case 'attr': {
        const state = this.stateRead(expr.obj, expr.name, loc.file);
        if (state !== undefined) return state === CLEAN ? undefined : state;
        // A member that resolves (a field of a dict or config call) carries what its value carries; only an opaque
        // object (a model reply) passes its own taint on to its members.
        const members = this.attrValues(expr, loc, frames, depth + 1).filter((v) => v.expr !== expr);
        if (members.length > 0) {
          for (const v of members) {
            const why = this.agentOutput(v.expr, v.loc, v.frames, depth + 1);
            if (why) return why;
          }
        } else if (!namesPrompt(nameWords(expr.name)) && !namesMetadata(nameWords(expr.name))) {
          // An opaque object's prompt member (`config.writer_agent.system_message`) is its instructions, not its output;
          // a member named for data about it (`feedback.rating`, `result.id`) is no content.
          const inner = this.agentOutput(expr.obj, loc, frames, depth + 1);
          if (inner) return inner;
        }
        return depth <= 1 && delegatedByName(expr.name) ? `named ${text.slice(expr.start, expr.end)}` : undefined;
      }
      case 'index': {
        if (expr.index.k === 'str' && expr.index.holes.length === 0) {
          const key = literalText(text, expr.index.literal);
          const state = this.stateRead(expr.obj, key, loc.file);
          if (state !== undefined) return state === CLEAN ? undefined : state;
          // An item named for data about the content (`h["action"]["type"]`, `msg["id"]`) is no content, as a member is.
          if (namesMetadata(nameWords(key))) return undefined;
          // An entry of a dict written out with literal keys (`results["summary"]`) carries what that entry and writes to
          // it carry, not what the dict's other entries do. A computed key (`{role: reply(r) for role in ROLES}`,
          // `{KEY: …}`, `{ [KEY]: … }`) may be any entry: the whole dict counts.
          const objects = this.values(expr.obj, loc, frames, depth + 1);
          if (objects.length > 0 && objects.every((v) => v.expr.k === 'dict' && v.expr.entries.every((e) => !e.spread && e.key !== undefined))) {
            const entries = objects.flatMap((o) => (o.expr.k === 'dict' ? o.expr.entries.filter((e) => e.key === key).map((e) => ({ expr: e.value, loc: o.loc, frames: o.frames })) : []));
            const writes = this.itemWrites(expr.obj, key, loc).map((w) => ({ ...w, frames }));
            for (const v of [...entries, ...writes]) {
              const why = this.agentOutput(v.expr, v.loc, v.frames, depth + 1);
              if (why) return why;
            }
            return undefined;
          }
        }
        // A conversation's first message (`messages[0]`) is the user's request that opened it, not an agent's reply.
        if (text.slice(expr.index.start, expr.index.end).trim() === '0' && CONVERSATION.test(text.slice(expr.obj.start, expr.obj.end))) return undefined;
        return this.agentOutput(expr.obj, loc, frames, depth + 1);
      }
      case 'call':
        return this.callOutput(expr, loc, frames, depth);
      case 'concat':
      case 'cond':
      case 'list':
      case 'other':
      case 'elem':
      case 'format':
        for (const child of expr.k === 'concat' ? expr.parts : expr.k === 'cond' ? expr.options : expr.k === 'list' ? expr.items : expr.k === 'other' ? expr.parts : expr.k === 'elem' ? [expr.of] : expr.args.map((a) => a.value)) {
          const why = this.agentOutput(child, loc, frames, depth + 1);
          if (why) return why;
        }
        return undefined;
      case 'dict':
        for (const entry of expr.entries) {
          const why = this.agentOutput(entry.value, loc, frames, depth + 1);
          if (why) return why;
        }
        return undefined;
      case 'str':
        // Text built with another agent's output carries it (`"\n".join(f"{s}" for s in sections)`).
        for (const { expr: hole } of expr.holes) {
          const why = this.agentOutput(hole, loc, frames, depth + 1);
          if (why) return why;
        }
        return undefined;
      default:
        return undefined;
    }
  }

  private paramOutput(file: string, fn: number, index: number, name: string, frames: readonly Frame[], depth: number): string | undefined {
    const scope = this.project.scope(file, fn);
    // Inside a fence for untrusted content (`def fence_untrusted(text)`), the text it fences is what it bounds.
    if (!scope || BOUNDARY_CALLS.test(scope.name ?? '')) return undefined;
    const module = this.project.module(file)!;
    const method = module.language === 'python' && scope.classScope !== undefined && ['self', 'cls'].includes(scope.params[0]?.name ?? '');
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i];
      if (frame.file === file && frame.fn === fn) {
        const arg = this.argumentFor(frame.args, scope.params, index, method);
        return arg ? this.agentOutput(arg, frame.loc, frame.outer, depth + 1) : undefined;
      }
    }
    const callers = this.callersOf(file, fn);
    for (const caller of callers) {
      const arg = this.argumentFor(caller.args, scope.params, index, caller.method);
      if (!arg) continue;
      const why = this.agentOutput(arg, { file: caller.file, scope: caller.scope }, [], depth + 1);
      if (why) return why;
    }
    // A tool's framework context (`ctx: RunContext`, `tool_context`, `w: RunContextWrapper[Deps]`) is not the model's
    // choice; its other parameters are.
    const type = scope.params[index]?.type ?? '';
    if (callers.length === 0 && this.isTool(file, scope) && !/^(?:ctx|context|run_context|wrapper|self|cls|tool_context|callback_context|config|deps|runtime)$/.test(name) && !TOOL_CONTEXT_TYPES.test(type)) return `an argument the model chose for the tool ${scope.name === 'execute' ? '' : `${scope.name} `}(its parameter ${name})`.replace('  ', ' ');
    return depth <= 1 && delegatedByName(name) ? `named ${name}` : undefined;
  }

  /**
   * A function the model calls as a tool: `@tool` / `@function_tool` decorated, or the `execute` of an object handed to
   * a call named for a tool (`createTool({ … execute })`, `tool({ … })`), not a workflow step's (`andThen({ execute })`).
   */
  private isTool(file: string, scope: Scope): boolean {
    const source = this.project.source(file);
    // A tool's `execute` property (`tool({ execute })`, an object of tools); a module's own `function execute(args)` (a
    // CLI command's) is called by the program, with what the user typed.
    if (scope.name === 'execute' && source?.language === 'typescript') {
      return !DECLARED_FUNCTION.test(source.text.slice(Math.max(0, scope.start - 40), scope.start + 40)) && /tool/i.test(objectCallee(source.text, scope.start) ?? 'tool');
    }
    if (!scope.decorators.some((d) => TOOL_DECORATORS.test(lastName(d.k === 'call' ? d.callee : d) ?? ''))) return false;
    // A Semantic Kernel process step's kernel functions are called by the process with its events, not by the model.
    const owner = scope.classScope === undefined ? undefined : this.project.module(file)?.scopes[scope.classScope];
    return !(owner && source && PROCESS_STEP_CLASS.test(source.text.slice(owner.start, source.text.indexOf(':', owner.start))));
  }

  private callOutput(expr: Extract<Expr, { k: 'call' }>, loc: Loc, frames: readonly Frame[], depth: number): string | undefined {
    const name = lastName(expr.callee) ?? '';
    if (BOUNDARY_CALLS.test(name)) return undefined;
    if (name === 'get' && expr.callee.k === 'attr') {
      const key = expr.args[0]?.value;
      if (key?.k === 'str' && key.holes.length === 0) {
        const state = this.stateRead(expr.callee.obj, literalText(this.text(loc.file), key.literal), loc.file);
        if (state !== undefined) return state === CLEAN ? undefined : state;
      }
    }
    const commandLine = this.commandLine(expr, loc, depth) ?? this.communicatedTo(expr, loc, depth)?.commandLine;
    if (commandLine?.once) return `${REPLY_OF}${commandLine.agent.command} (run by ${chainText(expr.callee)})`;
    // A retrieval the project defines itself (MetaGPT's `DummyExpRetriever.retrieve` returns a fixed example) is what it returns.
    if (this.isModelCallExpr(expr, loc, depth, false) || (this.isModelCallExpr(expr, loc, depth) && !this.definedHere(expr.callee, loc, depth))) return `${REPLY_OF}${chainText(expr.callee).replace(/\.(\(\)|\[\])/g, '$1')}(...)`;
    if (expr.callee.k === 'name' || expr.callee.k === 'attr') {
      for (const c of this.values(expr.callee, loc, frames, depth + 1)) {
        if (c.expr.k !== 'func' || c.expr.fn.scope === undefined) continue;
        const fnScope = c.expr.fn.scope;
        const frame: Frame = { file: c.loc.file, fn: fnScope, args: expr.args, loc, outer: frames };
        for (const r of this.project.scope(c.loc.file, fnScope)?.returns ?? []) {
          const why = this.agentOutput(r, { file: c.loc.file, scope: fnScope }, [...c.frames, frame], depth + 1);
          if (why) return why;
        }
      }
    }
    if (expr.callee.k === 'attr') {
      const inner = this.agentOutput(expr.callee.obj, loc, frames, depth + 1);
      if (inner) return inner;
    }
    if (TAINT_TRANSPARENT.test(name)) {
      for (const arg of expr.args) {
        const why = this.agentOutput(arg.value, loc, frames, depth + 1);
        if (why) return why;
      }
    }
    return undefined;
  }

  /** True when a callee is a function whose code is in the project. */
  private definedHere(callee: Expr, loc: Loc, depth: number): boolean {
    return this.values(callee, loc, [], depth + 1).some((c) => c.expr.k === 'func' && c.expr.fn.scope !== undefined);
  }

  /**
   * True for a call that returns a model's or an agent's output: by its name and receiver (`llm.invoke`,
   * `client.messages.create`), or a method like `run` / `chat` on a receiver that is constructed as an agent or a
   * model (`roulette = Agent(...)` then `roulette.run_sync(...)`); a bare `query` / `run` only when imported from an
   * agent SDK.
   */
  isModelCallExpr(expr: Extract<Expr, { k: 'call' }>, loc: Loc, depth = 0, tools = true): boolean {
    if (this.commandLine(expr, loc, depth)?.once || this.communicatedTo(expr, loc, depth)?.commandLine.once) return true;
    const name = lastName(expr.callee) ?? '';
    const receiver = expr.callee.k === 'attr' ? chainText(expr.callee.obj) : '';
    if ((name === 'query' || name === 'run') && receiver === '') {
      const binding = this.project.module(loc.file)?.imports.get(name);
      return binding !== undefined && (name === 'query' ? /claude/ : /^(?:@openai\/agents|agents)(?:$|[/.])/).test(binding.module);
    }
    if (isModelCall(name, receiver, tools) || this.callsAgent(expr, loc, depth)) return true;
    if (expr.callee.k !== 'attr' || name.startsWith('_') || AGENT_BUILDER_METHODS.test(name)) return false;
    const agentMethod = isAgentMethod(name);
    // The receiver is constructed as an agent or a model: one of their run methods, or any method of a class
    // outside the project named for an agent's role (its code is not here to follow).
    return this.values(expr.callee.obj, loc, [], depth + 1).some((v) => {
      if (v.expr.k !== 'call' || v.classRef) return false;
      const ctor = lastName(v.expr.callee) ?? '';
      const external = !this.values(v.expr.callee, v.loc, [], depth + 1).some((c) => c.classRef);
      return (agentMethod && AGENT_CONSTRUCTORS.test(ctor) && !NOT_AGENT_CONSTRUCTORS.test(ctor)) || (external && AGENT_ROLE_CLASSES.test(ctor));
    });
  }

  /** Whether a call runs an agent called like a function (`rewriter(f"…")`, `self.agent(task)`: a Strands `Agent`), in a file that imports its SDK. */
  callsAgent(expr: Extract<Expr, { k: 'call' }>, loc: Loc, depth = 0): boolean {
    if (this.callsAgentMemo.has(expr)) return true;
    const module = this.project.module(loc.file);
    // A name bound here only to functions or to other calls than an agent's (`helper(x)`, `str(x)`) is no agent: only
    // a name that may hold one, or an attribute (`self.agent`), is followed.
    const found = expr.callee.k === 'name' ? this.lookup(expr.callee.id, loc, expr.callee.start) : undefined;
    const mayBeAgent = found?.kind !== 'defs' || found.defs.some((def) => def.value.k !== 'func' && (def.value.k !== 'call' || /Agent$/.test(lastName(def.value.callee) ?? '')));
    const importsSdk = module !== undefined && [...module.imports.values()].some((binding) => CALLABLE_AGENT_SDKS.test(binding.module));
    const calls = mayBeAgent && importsSdk && this.values(expr.callee, loc, [], depth + 1).some((v) => {
      const ctor = v.expr.k === 'call' ? lastName(v.expr.callee) ?? '' : '';
      if (v.expr.k !== 'call' || v.classRef || !/Agent$/.test(ctor) || HUMAN_AGENTS.test(ctor)) return false;
      const from = this.project.module(v.loc.file)?.imports.get(rootName(v.expr.callee) ?? '')?.module;
      return from !== undefined && CALLABLE_AGENT_SDKS.test(from);
    });
    // Only a yes is kept: a no may come from a question's spent budget, which another question has left.
    if (calls) this.callsAgentMemo.set(expr, true);
    return calls;
  }

  /** The agent CLI a process call starts (`subprocess.run(["claude", "-p", …])`), with its prompts; undefined for any other call. */
  commandLine(expr: Extract<Expr, { k: 'call' }>, loc: Loc, depth = 0): CommandLine<{ expr: Expr; loc: Loc }> | undefined {
    const language = this.project.module(loc.file)?.language;
    const name = lastName(expr.callee) ?? '';
    const call = PROCESS_CALLS.find((p) => language !== undefined && p.languages.includes(language) && p.callee.test(name));
    if (!call) return undefined;
    const positional = expr.args.filter((a) => a.name === undefined && !a.spread).map((a) => a.value);
    const argv =
      call.argv === 'arguments' ? positional.flatMap((e) => this.argvItems(e, loc, depth, false))
      : call.argv === 'list' ? this.argvItems(positional[0] ?? expr.args.find((a) => a.name === 'args')?.value, loc, depth, true)
      : positional.length > 0 ? [{ expr: positional[0], loc }, ...this.argvItems(positional[1], loc, depth, true)] : [];
    const parsed = readCommandLine(argv.map((item) => ({ literal: this.plainText(item.expr, item.loc, depth), lead: this.leadText(item.expr, item.loc), item })));
    return parsed && { ...parsed, stdin: call.input };
  }

  /**
   * The agent CLI process a Python `proc.communicate(text)` writes to (`proc = subprocess.Popen(["claude", "-p"], …)`),
   * with the call that started it; undefined for any other call.
   */
  communicatedTo(expr: Extract<Expr, { k: 'call' }>, loc: Loc, depth = 0): { commandLine: CommandLine<{ expr: Expr; loc: Loc }>; started: Extract<Expr, { k: 'call' }>; loc: Loc } | undefined {
    if (expr.callee.k !== 'attr' || expr.callee.name !== 'communicate' || this.project.module(loc.file)?.language !== 'python') return undefined;
    return this.startedProcess(expr.callee.obj, loc, depth);
  }

  /** The agent CLI process a Node `child.stdin.write(text)` (or `.end(text)`) writes to (`child = spawn("claude", ["-p"])`); undefined for any other call. */
  stdinWrittenTo(expr: Extract<Expr, { k: 'call' }>, loc: Loc, depth = 0): { commandLine: CommandLine<{ expr: Expr; loc: Loc }>; started: Extract<Expr, { k: 'call' }>; loc: Loc } | undefined {
    const { callee } = expr;
    if (callee.k !== 'attr' || (callee.name !== 'write' && callee.name !== 'end') || callee.obj.k !== 'attr' || callee.obj.name !== 'stdin') return undefined;
    if (this.project.module(loc.file)?.language !== 'typescript') return undefined;
    return this.startedProcess(callee.obj.obj, loc, depth);
  }

  /** The process call (one that starts an agent CLI) an expression holds, with its command line. */
  private startedProcess(expr: Expr, loc: Loc, depth: number): { commandLine: CommandLine<{ expr: Expr; loc: Loc }>; started: Extract<Expr, { k: 'call' }>; loc: Loc } | undefined {
    for (const v of this.values(expr, loc, [], depth + 1)) {
      const commandLine = v.expr.k === 'call' ? this.commandLine(v.expr, v.loc, depth + 1) : undefined;
      if (commandLine && v.expr.k === 'call') return { commandLine, started: v.expr, loc: v.loc };
    }
    return undefined;
  }

  /**
   * The arguments a command-line expression stands for: a list's items, lists joined with `+`, and a list spliced in
   * (`[*BASE, q]`, `[...BASE, q]`, `BASE + [q]`) followed to its items; with `whole`, the expression must be such a list.
   */
  private argvItems(e: Expr | undefined, loc: Loc, depth: number, whole: boolean, level = 0): { expr: Expr; loc: Loc }[] {
    if (!e || level > MAX_ARGV_LEVELS) return whole || !e ? [] : [{ expr: e, loc }];
    if (e.k === 'str') return whole ? [] : [{ expr: e, loc }];
    const value = this.values(e, loc, [], depth + 1).find((v) => (v.expr.k === 'list' && !v.expr.bindings) || v.expr.k === 'concat');
    if (value?.expr.k === 'list') return value.expr.items.flatMap((item) => this.argvItems(item, value.loc, depth, false, level + 1));
    // `+` joins lists or strings: only lists joined are arguments spliced in (`"Review: " + code` is one argument).
    if (value?.expr.k === 'concat' && this.joinsLists(value.expr, value.loc, depth, level)) {
      return value.expr.parts.flatMap((part) => this.argvItems(part, value.loc, depth, true, level + 1));
    }
    return whole ? [] : [{ expr: e, loc }];
  }

  /** Whether a `+` join has a list among its parts, joined in directly or through names (`head = CMD + ["-p"]`). */
  private joinsLists(join: Extract<Expr, { k: 'concat' }>, loc: Loc, depth: number, level: number): boolean {
    if (level > MAX_ARGV_LEVELS) return false;
    return join.parts.some((part) =>
      this.values(part, loc, [], depth + 1).some((v) => (v.expr.k === 'list' && !v.expr.bindings) || (v.expr.k === 'concat' && this.joinsLists(v.expr, v.loc, depth, level + 1))),
    );
  }

  /** The text an interpolated string opens with, before its first hole (`f"--system-prompt={SYS}"`: `--system-prompt=`). */
  private leadText(expr: Expr, loc: Loc): string | undefined {
    if (expr.k !== 'str' || expr.holes.length === 0) return undefined;
    return this.text(loc.file).slice(expr.literal.contentStart, expr.holes[0].hole.start);
  }

  /** The text of a string with no interpolation, written there or named (`CLAUDE = "claude"`). */
  private plainText(expr: Expr, loc: Loc, depth: number): string | undefined {
    if (expr.k === 'str') return expr.holes.length === 0 ? literalText(this.text(loc.file), expr.literal) : undefined;
    if (expr.k !== 'name' && expr.k !== 'attr') return undefined;
    const values = this.values(expr, loc, [], depth + 1);
    return values.length === 1 && values[0].expr.k === 'str' ? this.plainText(values[0].expr, values[0].loc, depth) : undefined;
  }

  /**
   * A read of key `key` from `obj` (ADK `output_key`, LangGraph node returns, `messages`): undefined when `obj` is not a
   * workflow state; else why the key holds another agent's output, or CLEAN (the state holds it, but no agent writes
   * it: a state's other keys do not taint it).
   */
  private stateRead(obj: Expr, key: string, reader: string): string | typeof CLEAN | undefined {
    const objText = chainText(obj);
    if (!STATE_OBJECT.test(objText)) return undefined;
    const keys = this.stateKeys();
    const slot = keys.has(key) ? key : keys.has(ANY_KEY) && !this.namedKeys.has(key) ? ANY_KEY : undefined;
    const writer = slot === undefined ? undefined : this.stateWriter(slot, reader);
    return writer === undefined ? CLEAN : `state key "${key}" ${writer}`;
  }

  /**
   * How a state key a prompt in `reader` reads is written with agent output by the reader's own graph: a writer in the
   * reader's file or one connected to it by imports (an unrelated example's node writing the same key is another
   * graph's state); undefined when none is.
   */
  stateWriter(key: string, reader: string): string | undefined {
    const who = this.stateKeys().get(key);
    const writers = this.stateWriters.get(key);
    if (who === undefined || !writers) return who;
    let near = this.nearby.get(reader);
    if (!near) this.nearby.set(reader, (near = this.project.neighbourhood([reader])));
    return [...writers].find(([file]) => near.has(file))?.[1];
  }

  private addStateWriter(key: string, file: string, who: string): void {
    const files = this.stateWriters.get(key) ?? new Map<string, string>();
    if (!files.has(file)) files.set(file, who);
    this.stateWriters.set(key, files);
  }

  /** State keys written with agent output: ADK `output_key=`, dicts returned by graph nodes from model replies. */
  stateKeys(): Map<string, string> {
    if (this.stateKeysCache) return this.stateKeysCache;
    const keys = new Map<string, string>(this.extraStateKeys);
    this.stateKeysCache = keys;
    for (const path of new Set([...this.project.filesContaining('output_key'), ...this.project.filesContaining('outputKey')])) {
      const module = this.project.module(path)!;
      const text = module.text;
      for (const root of module.roots) {
        walk(root.expr, (e) => {
          if (e.k !== 'call') return;
          const outputKey = e.args.find((a) => a.name === 'output_key' || a.name === 'outputKey')?.value;
          const objectArg = e.args.find((a) => a.value.k === 'dict')?.value;
          const fromObject = objectArg?.k === 'dict' ? objectArg.entries.find((x) => x.key === 'outputKey' || x.key === 'output_key')?.value : undefined;
          const literal = outputKey ?? fromObject;
          if (literal?.k === 'str' && literal.holes.length === 0) {
            const agentName = e.args.find((a) => a.name === 'name')?.value;
            const who = agentName?.k === 'str' ? `written by agent ${literalText(text, agentName.literal)} (output_key)` : 'written by an agent (output_key)';
            const key = literalText(text, literal.literal);
            if (!keys.has(key)) keys.set(key, who);
            this.addStateWriter(key, path, who);
          }
        });
      }
    }
    // Graph nodes return the state updates: functions of files that build a graph, and functions that take a state.
    // A node may read a key another node writes, so the keys are found in passes until one adds none (answers given
    // meanwhile are dropped). A node that spreads a model reply into its update (`{**reply}`) writes keys it does not
    // name: every key no node writes with a plain value is then taken as written by it.
    const graphs = new Set(['StateGraph', 'add_node', 'addNode', 'MessagesState', 'Command', 'Annotation'].flatMap((w) => this.project.filesContaining(w)));
    // A node's state update: a returned dict, `Command(update={...})`, and the payloads of `Send(node, {...})`.
    const updates = (scope: Scope) =>
      scope.returns.flatMap((returned) => {
        const found: Extract<Expr, { k: 'dict' }>[] = [];
        if (returned.k === 'dict') found.push(returned);
        walk(returned, (e) => {
          if (e.k !== 'call') return;
          const name = lastName(e.callee);
          const payload = name === 'Command' ? e.args.find((a) => a.name === 'update')?.value : name === 'Send' ? e.args[1]?.value : undefined;
          if (payload?.k === 'dict') found.push(payload);
        });
        return found;
      });
    // Each write of a key: the entries of the updates nodes return, and assignments to a state object's key
    // (`self.state.x_post = result.raw` in a CrewAI Flow, `state["draft"] = reply`).
    const writes: { path: string; scope: number; key: string; value: Expr; who: string; replyOnly?: boolean }[] = [];
    for (const path of new Set([...graphs, ...this.project.filesWithWordMatching(/state$/i)])) {
      const module = this.project.module(path)!;
      for (const scope of module.scopes) {
        if (scope.kind !== 'function' || scope.returns.length === 0) continue;
        if (!graphs.has(path) && !scope.params.some((p) => /state$/i.test(p.name))) continue;
        for (const r of updates(scope)) {
          for (const entry of r.entries) {
            if (entry.key !== undefined) this.namedKeys.add(entry.key);
            const key = entry.key ?? (entry.spread ? ANY_KEY : undefined);
            if (key !== undefined) writes.push({ path, scope: scope.id, key, value: entry.value, who: `written by node ${scope.name ?? '(anonymous)'}` });
          }
        }
      }
      for (const def of module.itemDefs) {
        if (!STATE_OBJECT.test(chainText(def.obj))) continue;
        this.namedKeys.add(def.key);
        // Only a reply itself: a record built from other keys (lead-score-flow's candidates joined with their scores) keeps
        // its own fields, which this reading cannot tell apart.
        writes.push({ path, scope: def.scope, key: def.key, value: def.value, who: `written in ${module.scopes[def.scope].name ?? '(module)'}`, replyOnly: true });
      }
    }
    for (let pass = 0, added = true; added && pass < STATE_PASSES; pass++) {
      added = false;
      this.outputMemo = new WeakMap();
      this.taintMemo.clear();
      for (const write of writes) {
        if (this.stateWriters.get(write.key)?.has(write.path)) continue;
        // Each key gets a budget of its own (this runs inside whichever question first needed the keys).
        const saved = this.steps;
        this.steps = 0;
        const why = this.agentOutput(write.value, { file: write.path, scope: write.scope }, []);
        this.steps = saved;
        if (why && (!write.replyOnly || why.startsWith(REPLY_OF))) {
          const who = `${write.who} from ${why}`;
          if (!keys.has(write.key)) keys.set(write.key, who);
          this.addStateWriter(write.key, write.path, who);
          added = true;
        }
      }
    }
    this.outputMemo = new WeakMap();
    this.taintMemo.clear();
    return keys;
  }
}

/** The text a message class or a text method is applied to: `base` of `base.replace(…)`, `x` of `dedent(x)` or `SystemMessage(content=x)`. */
function textTarget(e: Extract<Expr, { k: 'call' }>): Expr | undefined {
  const name = lastName(e.callee) ?? '';
  const receiver = e.callee.k === 'attr' ? e.callee.obj : undefined;
  const content = e.args.find((a) => a.name === 'content' || a.name === 'template' || a.name === 'text')?.value ?? e.args.find((a) => a.name === undefined && !a.spread)?.value;
  return receiver && !MESSAGE_CLASSES.test(name) && (receiver.k === 'str' || receiver.k === 'concat' || receiver.k === 'cond' || receiver.k === 'name' || receiver.k === 'attr' || receiver.k === 'call' || receiver.k === 'index') && !isModuleLike(receiver) ? receiver : content;
}

/** Whether `e` is a chain of text methods applied to the name `name` (`name.strip()`, `name.replace(a, b).lower()`). */
function textMethodOf(e: Expr, name: string): boolean {
  if (e.k !== 'call' || !TRANSPARENT_CALLS.test(lastName(e.callee) ?? '') || e.callee.k !== 'attr') return false;
  const receiver = e.callee.obj;
  return (receiver.k === 'name' && receiver.id === name) || textMethodOf(receiver, name);
}

/** Adds what `sub` found to `acc`, its delegation candidates only when `withCandidates`. */
function mergeText(acc: PromptText, sub: PromptText, withCandidates: boolean): void {
  acc.pieces.push(...sub.pieces);
  if (withCandidates) acc.candidates.push(...sub.candidates);
  acc.refs.push(...sub.refs);
  acc.reasons.push(...sub.reasons);
  acc.reads.push(...sub.reads);
  acc.wrapped ||= sub.wrapped;
}

/** Whether an expression names a module-like receiver (`textwrap` of `textwrap.dedent`, `inspect`, `String`). */
function isModuleLike(e: Expr): boolean {
  return e.k === 'name' && /^(?:textwrap|inspect|String|string|str|common_tags|dedent|utils|json)$/.test(e.id);
}

/** `{name}` / `{}` / `{0}` placeholders of a plain (non-template) literal, with their ranges in the file. */
export function placeholders(text: string, literal: StringLiteral): { name: string; start: number; end: number }[] {
  const found: { name: string; start: number; end: number }[] = [];
  const content = text.slice(literal.contentStart, literal.contentEnd);
  const re = /\{\{|\}\}|\{([A-Za-z_][\w.]*|\d*)(\?)?(?:![rsa])?(?::[^{}]*)?\}/g;
  for (const match of content.matchAll(re)) {
    if (match[0] === '{{' || match[0] === '}}') continue;
    const start = literal.contentStart + (match.index ?? 0);
    found.push({ name: match[1], start, end: start + match[0].length });
  }
  return found;
}

/** A function declared by the `function` keyword under the name `execute` (not an object's property or method). */
const DECLARED_FUNCTION = /\bfunction\s*\*?\s*execute\s*[<(]/;

/** `{{ name }}` placeholders of a Jinja template in a literal (`{{ parent_outputs["id"] }}` by its variable), with their ranges. */
export function jinjaPlaceholders(text: string, literal: Pick<StringLiteral, 'contentStart' | 'contentEnd'>): { name: string; start: number; end: number }[] {
  const content = text.slice(literal.contentStart, literal.contentEnd);
  return [...content.matchAll(/\{\{-?\s*([A-Za-z_]\w*)[^{}]{0,200}?-?\}\}/g)].map((m) => {
    const start = literal.contentStart + (m.index ?? 0);
    return { name: m[1], start, end: start + m[0].length };
  });
}

/**
 * The name of the call an object literal around `pos` is handed to (`createTool` in `createTool({ name, execute: … })`),
 * read back over at most 20,000 characters; undefined when the object is not a call's argument or is too far back.
 */
function objectCallee(text: string, pos: number): string | undefined {
  let depth = 0;
  for (let i = pos - 1; i >= Math.max(0, pos - 20_000); i--) {
    const c = text[i];
    if (c === '}' || c === ')' || c === ']') depth++;
    else if (c === '(' || c === '[') depth = Math.max(0, depth - 1);
    else if (c === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      return /([\w$]+)\s*(?:<[^()]*>)?\s*\(\s*$/.exec(text.slice(Math.max(0, i - 200), i))?.[1];
    }
  }
  return undefined;
}

/** A snippet whose receiver was in parentheses (`(DIR / "x.md").read_text()` starts inside them) with the opening one shown. */
function withOpenedParentheses(snippet: string): string {
  let open = 0;
  let missing = 0;
  for (const c of snippet) {
    if (c === '(') open++;
    else if (c === ')' && --open < 0) {
      missing++;
      open = 0;
    }
  }
  return '('.repeat(missing) + snippet;
}
