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

/** The guards of the `if` / `elif` blocks enclosing `offset` in a Python file, inside its function (innermost first). */
export function enclosingGuards(text: string, offset: number): Guard[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let indent = indentOf(text, lineStart);
  const guards: Guard[] = [];
  let end = lineStart - 1;
  for (let n = 0; n < MAX_LINES_UP && end > 0 && indent > 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    const body = line.trim();
    if (body === '' || body.startsWith('#')) continue;
    const at = indentOf(text, start);
    if (at >= indent) continue;
    indent = at;
    if (/^(?:async\s+)?(?:def|class)\s/.test(body)) break;
    const header = HEADER.exec(body);
    if (header) guards.push(...testsOf(header[1], text, start));
  }
  return guards;
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

/** For a plain name holding a role (`role = m_dict.get("role")` above `at` in its function), the name it was read from. */
function roleVariableOwner(text: string, at: number, name: string): string | undefined {
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const before = text.slice(Math.max(0, at - 4000), at);
  const def = before.search(/\n[ \t]*(?:async\s+)?def\s[^\n]*$/m);
  const assigned = [...before.slice(Math.max(0, def)).matchAll(new RegExp(`^[ \\t]*${name}\\s*=\\s*(.+?)\\s*$`, 'gm'))].at(-1);
  return assigned ? ROLE_OF.exec(assigned[1])?.[1] : undefined;
}

function indentOf(text: string, lineStart: number): number {
  let i = lineStart;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i - lineStart;
}

/** Message classes named for different roles (`SystemMessage`, `UserMessage`) are never instances of each other. */
const ROLE_CLASS = /^(System|Developer|User|Human|AI|Assistant|Tool|Function)(?=[A-Z])/;
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
