// What the `if` / `elif` tests around a line of Python say about the values there: `isinstance(m, SystemMessage)` and
// `role == "system"` (with `role = m.get("role")`). Read from the text by indentation, so a value that cannot pass the
// test (a `UserMessage(...)`, a dict whose role is "tool") is not taken for what the branch handles.
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

/**
 * The guards of the `if` / `elif` blocks enclosing `offset` in a Python file, inside its function (innermost first). A
 * guard on a name the lines in between bind again (`m = …`, `for m in …`, `as m`, `m := …`) no longer holds.
 */
export function enclosingGuards(text: string, offset: number): Guard[] {
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
