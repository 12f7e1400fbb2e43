// What the `if` / `elif` tests around a line of Python say about the values there: `isinstance(m, SystemMessage)` (or
// `m.type == "SystemMessage"`) and `role == "system"` (with `role = m.get("role")`), and so do a conditional expression's test (`x if test else y`) and a
// comprehension's filter in the same statement. Blocks are read from the text by indentation, expressions from the
// file's tokens, so a value that cannot pass the test (a `UserMessage(...)`, a dict whose role is "tool") is not taken
// for what the branch handles.
import { lastName } from './project';
import { tokenize, type Token } from './lexer';
import type { Expr } from './syntax';

/** A test that holds where a line runs: `name` is an instance of one of `classes`, or its role is `role`. */
export type Guard = { name: string; classes: string[] } | { name: string; role: string };

/** How far up a block header is looked for (lines). */
const MAX_LINES_UP = 400;
const HEADER = /^(?:el)?if\s+(.+?):\s*(?:#.*)?$/;
const INSTANCE = /^isinstance\(\s*([A-Za-z_][\w.]*)\s*,\s*\(?\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*,?\s*\)?\s*\)$/;
const ROLE_OF = /^([A-Za-z_][\w.]*?)(?:\.get\(\s*["']role["']\s*(?:,[^)]*)?\)|\[\s*["']role["']\s*\]|\.role)$/;
const EQUALS_LITERAL = /^(.+?)\s*==\s*["'](\w+)["']$|^["'](\w+)["']\s*==\s*(.+)$/;
// A message's class tested by its name: AutoGen's `m.type == "SystemMessage"`, or `type(m).__name__ == "SystemMessage"`.
const TYPE_NAME_OF = /^([A-Za-z_][\w.]*?)\.type$|^type\(\s*([A-Za-z_][\w.]*)\s*\)\.__name__$/;

/** The guards that hold at `offset` in a Python file, innermost first: `inlineGuards`, then `blockGuards`. */
export function enclosingGuards(text: string, offset: number): Guard[] {
  return [...inlineGuards(text, offset), ...blockGuards(text, offset)];
}

/**
 * The guards of the `if` / `elif` blocks enclosing the line of `offset` in a Python file, inside its function (innermost
 * first); the same for every position of a line. A guard on a name the lines in between bind again (`m = …`,
 * `for m in …`, `as m`, `m := …`) no longer holds.
 */
export function blockGuards(text: string, offset: number): Guard[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let indent = indentOf(text, lineStart);
  const guards: Guard[] = [];
  const rebound = new Set(boundIn(text.slice(lineStart, lineEnd(text, lineStart))));
  for (const line of linesAbove(text, lineStart)) {
    if (indent === 0) break;
    if (line.indent >= indent) {
      for (const name of boundIn(line.body)) rebound.add(name);
      continue;
    }
    indent = line.indent;
    if (/^(?:async\s+)?(?:def|class)\s/.test(line.body)) break;
    const header = HEADER.exec(line.body);
    if (header) guards.push(...testsOf(header[1], text, line.start).filter((guard) => !rebound.has(guard.name)));
    else for (const name of boundIn(line.body)) rebound.add(name);
  }
  return guards;
}

/** How far past `offset` a statement is read for the test of an expression holding it. */
const SCAN_CHARS = 4000;
const IF_AHEAD = /\bif\b/g;

/** A Python file's tokens and the bracket depth before each (0 at every statement's start). */
interface Lexed {
  text: string;
  tokens: Token[];
  depths: Int32Array;
}

/** Files lexed lately, by text (the least recently used dropped past LEXED_FILES or LEXED_CHARACTERS of text, so 32
 * generated 4 MB modules do not hold 3.5 GB of tokens): guards are asked position after position, and a value followed
 * across modules alternates between files (one entry re-lexed a file per question: 3 of the 7 s of
 * `harden src/agents/agent.py` in openai-agents-python). */
const recentlyLexed = new Map<string, Lexed>();
const LEXED_FILES = 32;
const LEXED_CHARACTERS = 4_000_000;
let lexedCharacters = 0;

function lexed(text: string): Lexed {
  const known = recentlyLexed.get(text);
  if (known) {
    recentlyLexed.delete(text);
    recentlyLexed.set(text, known);
    return known;
  }
  const tokens = tokenize(text, 'python');
  const depths = new Int32Array(tokens.length);
  let depth = 0;
  tokens.forEach((token, i) => {
    if (token.type === 'newline') depth = 0;
    depths[i] = depth;
    if (token.type !== 'punct') return;
    if (OPENING.has(token.value)) depth++;
    else if (CLOSING.has(token.value)) depth = Math.max(0, depth - 1);
  });
  const result = { text, tokens, depths };
  recentlyLexed.set(text, result);
  lexedCharacters += text.length;
  while (recentlyLexed.size > 1 && (recentlyLexed.size > LEXED_FILES || lexedCharacters > LEXED_CHARACTERS)) {
    const oldest = recentlyLexed.keys().next().value!;
    recentlyLexed.delete(oldest);
    lexedCharacters -= oldest.length;
  }
  return result;
}

const OPENING = new Set(['(', '[', '{']);
const CLOSING = new Set([')', ']', '}']);

/** The index of the first token that ends after `offset` (the token holding it, or the next one). */
function tokenAt(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The tests that hold at `offset` from later in its statement: a conditional expression's (`("User: " + m["content"])
 * if m["role"] == "user" else …`) when `offset` is in the branch taken when the test holds, and a comprehension's filter
 * (`[m["content"] for m in ms if m["role"] == "user"]`). Read from the tokens at the level of the expression holding
 * `offset`: past the brackets it sits in (and the string, for a name inside an f-string), not in a sibling after a comma,
 * nothing once an `else` of that level comes first, and not for a name a `for` or `lambda` between binds afresh. The
 * statement goes on over the line breaks inside brackets (as black writes a long comprehension), up to SCAN_CHARS.
 */
export function inlineGuards(text: string, offset: number): Guard[] {
  IF_AHEAD.lastIndex = offset;
  const ahead = IF_AHEAD.exec(text);
  if (!ahead || ahead.index >= offset + SCAN_CHARS) return [];
  const { tokens, depths } = lexed(text);
  let k = tokenAt(tokens, offset);
  // A name inside an f-string: the test is read after the string.
  if (tokens[k]?.type === 'string' && tokens[k].start < offset) k++;
  if (k >= tokens.length) return [];
  const base = depths[k];
  let level = base;
  let sibling = false;
  const bound = lambdasBefore(tokens, k, offset).map((name) => ({ name, depth: Infinity }));
  for (let i = k; i < tokens.length && tokens[i].start < offset + SCAN_CHARS; i++) {
    const token = tokens[i];
    if (token.type === 'newline') break;
    const depth = depths[i];
    if (token.type === 'punct' && CLOSING.has(token.value) && depth - 1 < level) [level, sibling] = [depth - 1, false];
    if (token.type !== 'name' && !(token.type === 'punct' && token.value === ',')) continue;
    if (token.type === 'name' && token.value === 'for') bound.push(...namesUntil(tokens, i + 1, 'in').map((name) => ({ name, depth })));
    else if (token.type === 'name' && token.value === 'lambda') bound.push(...namesUntil(tokens, i + 1, ':').map((name) => ({ name, depth })));
    else if (depth !== level) continue;
    else if (token.type === 'punct') sibling = true;
    else if (token.value === 'else') return [];
    else if (token.value === 'if' && !sibling) {
      // A name a comprehension or lambda inside the branch binds is another variable than the one the test reads.
      const shadowed = new Set(bound.filter((b) => b.depth > level).map((b) => b.name));
      return testsOf(testText(text, tokens, depths, i + 1), text, text.lastIndexOf('\n', offset - 1) + 1).filter((g) => !shadowed.has(g.name));
    }
  }
  return [];
}

/** The parameters of the `lambda`s between the start of the statement and token `k` (up to SCAN_CHARS back). */
function lambdasBefore(tokens: readonly Token[], k: number, offset: number): string[] {
  const names: string[] = [];
  for (let i = k - 1; i >= 0 && tokens[i].type !== 'newline' && tokens[i].start > offset - SCAN_CHARS; i--) {
    const token = tokens[i];
    if (token.type === 'name' && token.value === 'lambda') names.push(...namesUntil(tokens, i + 1, ':'));
  }
  return names;
}

/** How many tokens a `for` target or a `lambda`'s parameters are read over. */
const TARGET_TOKENS = 64;

/** The names from token `from` up to the token `stop` (`in` of a `for`, `:` of a `lambda`). */
function namesUntil(tokens: readonly Token[], from: number, stop: string): string[] {
  const names: string[] = [];
  for (let i = from; i < tokens.length && i < from + TARGET_TOKENS; i++) {
    const token = tokens[i];
    if (token.type === 'newline' || (token.type !== 'string' && token.value === stop)) break;
    if (token.type === 'name') names.push(token.value);
  }
  return names;
}

/**
 * The text of the test whose first token is `from`: up to `else`, `for`, `if` or a comma of its level, the bracket
 * closing around it or the statement's end; comments left out, each run of blanks one space.
 */
function testText(text: string, tokens: readonly Token[], depths: Int32Array, from: number): string {
  const level = depths[from - 1];
  let out = '';
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'newline' || depths[i] < level) break;
    if (token.type === 'punct' && CLOSING.has(token.value) && depths[i] === level) break;
    if (depths[i] === level && (token.type === 'punct' ? token.value === ',' : token.type === 'name' && TEST_ENDS.has(token.value))) break;
    if (i > from && token.start > tokens[i - 1].end) out += ' ';
    out += text.slice(token.start, token.end);
  }
  return out;
}

const TEST_ENDS = new Set(['else', 'for', 'if']);

/** The non-blank, non-comment lines above the line starting at `lineStart`, nearest first (at most MAX_LINES_UP). */
function* linesAbove(text: string, lineStart: number): Generator<{ start: number; body: string; indent: number }> {
  for (let end = lineStart - 1, n = 0; end > 0 && n < MAX_LINES_UP; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const body = text.slice(start, end).trim();
    end = start - 1;
    if (body !== '' && !body.startsWith('#')) yield { start, body, indent: indentOf(text, start) };
  }
}

/** The names a line of Python binds: assigned, a loop's or a comprehension's targets, `as` names, `:=` targets. */
function boundIn(line: string): string[] {
  const names: string[] = [];
  const add = (targets: string) => names.push(...(targets.match(/[A-Za-z_]\w*/g) ?? []));
  const assigned = /^([A-Za-z_][\w\s,()[\]*]*?)\s*(?::[^=\n]*)?(?:[-+*/%|&^@]|\/\/|\*\*|>>|<<)?=(?!=)/.exec(line.trim());
  if (assigned) add(assigned[1]);
  for (const loop of line.matchAll(/\bfor\s+([\w\s,()[\]*]+?)\s+in\b/g)) add(loop[1]);
  for (const alias of line.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) names.push(alias[1]);
  for (const walrus of line.matchAll(/([A-Za-z_]\w*)\s*:=/g)) names.push(walrus[1]);
  return names;
}

function lineEnd(text: string, lineStart: number): number {
  const end = text.indexOf('\n', lineStart);
  return end < 0 ? text.length : end;
}

/** The guards a condition makes: its tests joined by `and` (a condition with `or` or `not` makes none). */
function testsOf(condition: string, text: string, at: number): Guard[] {
  if (/\bor\b|\bnot\b/.test(condition)) return [];
  const guards: Guard[] = [];
  for (const test of condition.replace(/^\((.*)\)$/, '$1').split(/\s+and\s+/)) {
    const instance = INSTANCE.exec(test.trim());
    if (instance) {
      guards.push({ name: instance[1], classes: instance[2].split(',').map((c) => c.trim().replace(/^.*\./, '')) });
      continue;
    }
    const equals = EQUALS_LITERAL.exec(test.trim());
    if (!equals) continue;
    const [subject, role] = equals[1] !== undefined ? [equals[1].trim(), equals[2]] : [equals[4].trim(), equals[3]];
    const typed = TYPE_NAME_OF.exec(subject);
    if (typed && ROLE_CLASS.test(role)) {
      guards.push({ name: typed[1] ?? typed[2], classes: [role] });
      continue;
    }
    const owner = ROLE_OF.exec(subject)?.[1] ?? roleVariableOwner(text, at, subject);
    if (owner) guards.push({ name: owner, role });
  }
  return guards;
}

/**
 * For a plain name holding a role (`role = m_dict.get("role")` above `at`, in the function holding the `if` line at
 * `at` and outside the functions nested in it), the name it was read from.
 */
function roleVariableOwner(text: string, at: number, name: string): string | undefined {
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const ifIndent = indentOf(text, at);
  const lines: { start: number; body: string; indent: number }[] = [];
  for (const line of linesAbove(text, at)) {
    if (line.indent < ifIndent && /^(?:async\s+)?def\s/.test(line.body)) break;
    lines.push(line);
  }
  let owner: string | undefined;
  let nested = Infinity;
  // From the function's first line down: a `def` inside it opens a body whose lines are not its own.
  for (const line of lines.reverse()) {
    if (line.indent > nested) continue;
    nested = /^(?:async\s+)?def\s/.test(line.body) ? line.indent : Infinity;
    const assigned = new RegExp(`^${name}\\s*=\\s*(.+?)\\s*$`).exec(line.body);
    if (assigned) owner = ROLE_OF.exec(assigned[1])?.[1];
  }
  return owner;
}

function indentOf(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i - lineStart;
}

/**
 * The role message classes of the chat frameworks (`SystemMessage`, `UserMessage`, `AIMessage`): classes named for
 * different roles are never instances of each other. A project's own class (`UserDefinedSystemMessage`) is not judged
 * by its name.
 */
const ROLE_CLASS = /^(System|Developer|User|Human|AI|Assistant|Tool|Function)Message$/;
const SAME_ROLE: Record<string, string> = { Developer: 'System', Human: 'User', AI: 'Assistant', Function: 'Tool' };

/**
 * Whether a value (in a file of text `text`) can pass a guard: false for a constructor call of a class named for another
 * role than every class the test names, and for a dict (or a call's keyword) whose role is another string than the test's.
 */
export function mayPass(guard: Guard, value: Expr, text: string): boolean {
  if ('classes' in guard) {
    if (value.k !== 'call') return true;
    const made = roleWord(lastName(value.callee));
    return made === undefined || guard.classes.some((c) => {
      const tested = roleWord(c);
      return tested === undefined || tested === made;
    });
  }
  const role = value.k === 'dict' ? value.entries.find((e) => e.key === 'role')?.value : value.k === 'call' ? value.args.find((a) => a.name === 'role')?.value : undefined;
  return role?.k !== 'str' || role.holes.length > 0 || text.slice(role.literal.contentStart, role.literal.contentEnd) === guard.role;
}

function roleWord(className: string | undefined): string | undefined {
  const word = className === undefined ? undefined : ROLE_CLASS.exec(className)?.[1];
  return word === undefined ? undefined : (SAME_ROLE[word] ?? word);
}

/** A guard as its test reads (`isinstance(m, SystemMessage)`, `m's role == "system"`). */
export function describeGuard(guard: Guard): string {
  return 'classes' in guard ? `isinstance(${guard.name}, ${guard.classes.join(' | ')})` : `${guard.name}'s role == "${guard.role}"`;
}
