// What the `if` / `elif` tests around a line of Python say about the values there: `isinstance(m, SystemMessage)` and
// `role == "system"` (with `role = m.get("role")`), and so do a conditional expression's test (`x if test else y`) and a
// comprehension's filter on the same line. Read from the text by indentation, so a value that cannot pass the test (a
// `UserMessage(...)`, a dict whose role is "tool") is not taken for what the branch handles.
import { lastName } from './project';
import type { Expr } from './syntax';

/** A test that holds where a line runs: `name` is an instance of one of `classes`, or its role is `role`. */
export type Guard = { name: string; classes: string[] } | { name: string; role: string };

/** How far up a block header is looked for (lines). */
const MAX_LINES_UP = 400;
const HEADER = /^(?:el)?if\s+(.+?):\s*(?:#.*)?$/;
const INSTANCE = /^isinstance\(\s*([A-Za-z_][\w.]*)\s*,\s*\(?\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*,?\s*\)?\s*\)$/;
const ROLE_OF = /^([A-Za-z_][\w.]*?)(?:\.get\(\s*["']role["']\s*(?:,[^)]*)?\)|\[\s*["']role["']\s*\]|\.role)$/;
const EQUALS_LITERAL = /^(.+?)\s*==\s*["'](\w+)["']$|^["'](\w+)["']\s*==\s*(.+)$/;

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
/** Lines longer than this (minified or generated code) are not read for such tests: each position would cost a line. */
const MAX_LINE_CHARS = 20_000;
/** How many lines above are read for the brackets still open at a position. */
const BRACKET_LINES = 40;
const IF_AHEAD = /\bif\b/g;

/**
 * The tests that hold at `offset` from later in its statement: a conditional expression's (`("User: " + m["content"])
 * if m["role"] == "user" else …`) when `offset` is in the branch taken when the test holds, and a comprehension's filter
 * (`[m["content"] for m in ms if m["role"] == "user"]`). Read at the level of the expression holding `offset`: past the
 * brackets it sits in (and the string, for a name inside an f-string), not in a sibling after a comma, nothing once an
 * `else` of that level comes first, and not for a name a `for` or `lambda` between binds afresh. Inside brackets the
 * statement goes on over line breaks (as black writes a long comprehension), up to SCAN_CHARS.
 */
export function inlineGuards(text: string, offset: number): Guard[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const limit = Math.min(text.length, offset + SCAN_CHARS);
  IF_AHEAD.lastIndex = offset;
  const ahead = IF_AHEAD.exec(text);
  if (!ahead || ahead.index >= limit || lineEnd(text, offset) - lineStart > MAX_LINE_CHARS) return [];
  const start = stringAround(text, lineStart, offset) ?? offset;
  let open: number | undefined;
  let depth = 0;
  let level = 0;
  let sibling = false;
  const bound: { name: string; depth: number }[] = lambdaParams(text.slice(lineStart, offset)).map((name) => ({ name, depth: Infinity }));
  for (let i = start; i < limit; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i, lineEnd(text, i));
    else if (c === '#') i = lineEnd(text, i) - 1;
    else if (c === '\n' && (open ??= openBrackets(text, lineStart, offset)) + depth <= 0) break;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth < level) [level, sibling] = [depth, false];
    } else if (keywordAt(text, i, 'for')) {
      for (const name of boundIn(`for ${text.slice(i + 3, Math.min(limit, i + 200))}`)) bound.push({ name, depth });
    } else if (keywordAt(text, i, 'lambda')) {
      for (const name of lambdaParams(text.slice(i, Math.min(limit, i + 200)))) bound.push({ name, depth });
    } else if (depth === level) {
      if (c === ',') sibling = true;
      else if (keywordAt(text, i, 'else')) return [];
      else if (keywordAt(text, i, 'if') && !sibling) {
        if (blockHeaderAt(text, i)) return [];
        // A name a comprehension or lambda inside the branch binds is another variable than the one the test reads.
        const shadowed = new Set(bound.filter((b) => b.depth > level).map((b) => b.name));
        return testsOf(text.slice(i + 2, testEnd(text, i + 2, limit)).replace(/\s+/g, ' ').trim(), text, lineStart).filter((g) => !shadowed.has(g.name));
      }
    }
  }
  return [];
}

/** The parameters of the `lambda`s in `code` (each `lambda a, b:` up to its colon). */
function lambdaParams(code: string): string[] {
  return [...code.matchAll(/\blambda\b([^:]*):/g)].flatMap((m) => m[1].match(/[A-Za-z_]\w*/g) ?? []);
}

/** Where the string literal holding `offset` on its line ends (a name inside an f-string's braces), or undefined. */
function stringAround(text: string, lineStart: number, offset: number): number | undefined {
  for (let i = lineStart; i < offset; i++) {
    const c = text[i];
    if (c === '#') return undefined;
    if (c !== '"' && c !== "'") continue;
    const end = stringEnd(text, i, lineEnd(text, i));
    if (end >= offset) return end + 1;
    i = end;
  }
  return undefined;
}

/** Whether the `if` at `i` opens its line and the line ends with a colon: a block's header, not part of an expression. */
function blockHeaderAt(text: string, i: number): boolean {
  const start = text.lastIndexOf('\n', i - 1) + 1;
  return text.slice(start, i).trim() === '' && HEADER.test(text.slice(start, lineEnd(text, i)).trim());
}

/**
 * How many brackets are open at `offset`: over the lines above (the nearest BRACKET_LINES), openings minus closings,
 * outside strings (a triple-quoted one over several lines too) and comments. Read upward, an earlier statement's lines
 * never add up to more openings than closings, so the most this sum reaches is what the statement holding `offset` left
 * open.
 */
function openBrackets(text: string, lineStart: number, offset: number): number {
  let sum = bracketBalance(text, lineStart, offset);
  let most = Math.max(0, sum);
  let inTriple = false;
  let end = lineStart - 1;
  for (let n = 0; end > 0 && n < BRACKET_LINES; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const quotes = (line.match(/"""|\'\'\'/g) ?? []).length;
    if (quotes % 2 === 1) {
      // Read upward, a line with an odd count of triple quotes closes a string opened above (code after its last quote)
      // or opens the one we were in (code before it, which stringEnd reads).
      sum += inTriple ? bracketBalance(text, start, end) : bracketBalance(text, start + Math.max(line.lastIndexOf('"""'), line.lastIndexOf("\'\'\'")) + 3, end);
      inTriple = !inTriple;
    } else if (!inTriple) sum += bracketBalance(text, start, end);
    most = Math.max(most, sum);
    end = start - 1;
  }
  return most;
}

/** Openings minus closings of brackets between `start` and `end` on one line, outside strings and comments. */
function bracketBalance(text: string, start: number, end: number): number {
  let balance = 0;
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i, end);
    else if (c === '#') break;
    else if (c === '(' || c === '[' || c === '{') balance++;
    else if (c === ')' || c === ']' || c === '}') balance--;
  }
  return balance;
}

/** Where the test starting at `start` ends: at `else`, `for`, `if` or a comma of its level, or the bracket closing around it. */
function testEnd(text: string, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i, lineEnd(text, i));
    else if (c === '#') return i;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth < 0) return i;
    } else if (depth === 0 && (c === ',' || keywordAt(text, i, 'else') || keywordAt(text, i, 'for') || keywordAt(text, i, 'if'))) return i;
  }
  return end;
}

/** The last index of the string literal whose quote opens at `at` (its line's end when it does not close on it). */
function stringEnd(text: string, at: number, end: number): number {
  const quote = text[at];
  const triple = text.startsWith(quote.repeat(3), at);
  const close = triple ? quote.repeat(3) : quote;
  for (let i = at + close.length; i < end; i++) {
    if (text[i] === '\\') i++;
    else if (text.startsWith(close, i)) return i + close.length - 1;
  }
  return end;
}

/** Whether the keyword `word` stands at `i` (not inside a longer name). */
function keywordAt(text: string, i: number, word: string): boolean {
  return text.startsWith(word, i) && !/\w/.test(text[i - 1] ?? '') && !/\w/.test(text[i + word.length] ?? '');
}

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
