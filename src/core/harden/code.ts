// Finds prompts inside TypeScript/JavaScript and Python source: string literals assigned or passed as a system
// prompt (by name, `system=`, `role: "system"` content, `("system", ...)` tuples, `SystemMessage(...)`) and other prompt text.
import { tokenize, type CodeLanguage, type StringLiteral, type Token } from './lexer';
import type { Interpolation, PromptSite } from './types';

/** The name patterns that make a value a prompt. */
export interface PromptNamePatterns {
  /** Names whose string value is a system prompt (needs the immunity warning). */
  system: RegExp;
  /** Names whose string value is other prompt text (checked for unbounded delegation only). */
  message: RegExp;
}

const SYSTEM_ROLES = new Set(['system', 'developer']);
const WRAPPERS = new Set(['dedent', 'cleandoc']);

function simpleStringValue(source: string, token: Token | undefined): string | undefined {
  if (token?.type !== 'string' || token.literal.holes.length > 0) return undefined;
  return source.slice(token.literal.contentStart, token.literal.contentEnd);
}

function keyName(source: string, token: Token | undefined): string | undefined {
  if (!token) return undefined;
  return token.type === 'name' ? token.value : simpleStringValue(source, token);
}

function isPunct(token: Token | undefined, value: string): boolean {
  return token?.type === 'punct' && token.value === value;
}

/** Reads the string value starting at token `i`: grouping parentheses, `dedent(`, tags, then literals joined by `+` or adjacency. */
function readValue(tokens: Token[], i: number, language: CodeLanguage): { literals: StringLiteral[]; references: string[] } | undefined {
  let k = i;
  for (let guard = 0; guard < 4; guard++) {
    const token = tokens[k];
    if (isPunct(token, '(')) k++;
    else if (token?.type === 'name' && isPunct(tokens[k + 1], '.') && tokens[k + 2]?.type === 'name') k += 2;
    else if (token?.type === 'name' && WRAPPERS.has(token.value) && isPunct(tokens[k + 1], '(')) k += 2;
    else if (token?.type === 'name' && tokens[k + 1]?.type === 'string' && tokens[k + 1].start === token.end && language === 'typescript') {
      const tagged = tokens[k + 1];
      if (tagged.type === 'string' && tagged.literal.quote === '`') {
        if (token.value === 'raw' && tokens[k - 2]?.type === 'name' && (tokens[k - 2] as { value: string }).value === 'String') tagged.literal.raw = true;
        k++;
      }
      break;
    } else break;
  }
  const literals: StringLiteral[] = [];
  const references: string[] = [];
  while (k < tokens.length) {
    const token = tokens[k];
    if (token.type === 'string') {
      if (token.literal.bytes) return undefined;
      literals.push(token.literal);
      k++;
    } else if (literals.length > 0 && isPunct(token, '+')) {
      if (tokens[k + 1]?.type === 'name') references.push((tokens[k + 1] as { value: string }).value);
      k++;
    } else break;
    if (language === 'typescript' && tokens[k]?.type === 'string' && !isPunct(tokens[k - 1], '+')) break;
  }
  return literals.length > 0 ? { literals, references } : undefined;
}

/** Every prompt site in the source, in order; a literal belongs to at most one site (system wins over message). */
export function findCodePrompts(source: string, language: CodeLanguage, names: PromptNamePatterns): PromptSite[] {
  const tokens = tokenize(source, language);
  const kind = language;
  const sites = new Map<number, PromptSite>();
  const add = (valueAt: number, role: PromptSite['role'], anchor: string) => {
    const value = readValue(tokens, valueAt, language);
    if (!value) return;
    const first = value.literals[0];
    const existing = sites.get(first.start);
    if (existing && (existing.role === 'system' || role === 'message')) return;
    const interpolations: Interpolation[] = value.literals.flatMap((literal) =>
      literal.holes.map((hole) => ({ start: hole.start, end: hole.end, expression: source.slice(hole.exprStart, hole.exprEnd).trim(), literal })),
    );
    sites.set(first.start, {
      kind, role, anchor, start: first.start, end: value.literals[value.literals.length - 1].end, literals: value.literals, interpolations,
      references: value.references,
    });
  };

  // Innermost open bracket of each token and where each bracket closes, so keys of one object or call can be matched.
  const group: number[] = [];
  const closeOf = new Map<number, number>();
  const stack: number[] = [];
  tokens.forEach((token, i) => {
    if (token.type === 'punct' && /^[)\]}]$/.test(token.value)) closeOf.set(stack.pop() ?? -1, i);
    group.push(stack[stack.length - 1] ?? -1);
    if (token.type === 'punct' && /^[([{]$/.test(token.value)) stack.push(i);
  });
  const siblingValue = (i: number, key: string): number | undefined => {
    const open = group[i];
    if (open === -1) return undefined;
    const close = closeOf.get(open) ?? tokens.length;
    for (let j = open + 1; j < close; j++) {
      if (group[j] === open && keyName(source, tokens[j]) === key && (isPunct(tokens[j + 1], ':') || isPunct(tokens[j + 1], '='))) return j + 2;
    }
    return undefined;
  };

  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    const key = keyName(source, token);
    // role: "system" (or "developer") beside content: ... in one object, dict or call.
    if (key === 'role' && (isPunct(next, ':') || isPunct(next, '='))) {
      const role = simpleStringValue(source, tokens[i + 2]);
      const content = role === undefined ? undefined : siblingValue(i, 'content');
      if (content !== undefined) add(content, SYSTEM_ROLES.has(role!) ? 'system' : 'message', `role: ${role}`);
    }
    // ("system", "...") tuples of LangChain message lists.
    if (token.type === 'string' && SYSTEM_ROLES.has(simpleStringValue(source, token) ?? '') && (isPunct(tokens[i - 1], '(') || isPunct(tokens[i - 1], '[')) && isPunct(next, ',')) {
      add(i + 2, 'system', `(${simpleStringValue(source, token)}, ...)`);
    }
    // SystemMessage("...") / new SystemMessage({ content: "..." }) / SystemMessage(content="...").
    if (token.type === 'name' && /^System(?:Message|Prompt)\w*$/.test(token.value) && isPunct(next, '(')) {
      add(i + 2, 'system', token.value);
      if (keyName(source, tokens[i + 2]) === 'content' && isPunct(tokens[i + 3], '=')) add(i + 4, 'system', token.value);
    }
    if (key === undefined || (token.type === 'string' && !isPunct(next, ':'))) return;
    // name = value, name: Type = value, name: value (property or dict key), name=value (keyword argument).
    let valueAt: number | undefined;
    if (isPunct(next, '=')) valueAt = i + 2;
    else if (isPunct(next, ':')) valueAt = tokens[i + 2]?.type === 'name' && isPunct(tokens[i + 3], '=') ? i + 4 : i + 2;
    if (valueAt === undefined) return;
    if (names.system.test(key)) add(valueAt, 'system', key);
    else if (names.message.test(key)) add(valueAt, 'message', key);
  });
  return [...sites.values()].sort((a, b) => a.start - b.start);
}

/** The string literal whose content holds `offset` (top-level literals only), for edits at a cursor. */
export function literalAt(source: string, language: CodeLanguage, offset: number): StringLiteral | undefined {
  for (const token of tokenize(source, language)) {
    if (token.start > offset) break;
    if (token.type === 'string' && token.literal.contentStart <= offset && offset <= token.literal.contentEnd) return token.literal;
  }
  return undefined;
}
