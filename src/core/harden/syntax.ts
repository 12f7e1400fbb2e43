// Expressions of TypeScript/JavaScript and Python as prompt discovery needs them: strings and their interpolations,
// names, attributes, calls with keyword arguments, lists, dicts/objects, conditionals, concatenation, and functions.
// Everything else parses to `other` with its sub-expressions kept, so calls inside any construct are still seen.
// The parser is recursive descent with a depth limit: past it the rest of a bracket is skipped, never a stack overflow.
import type { CodeLanguage, Hole, StringLiteral, Token } from './lexer';

/** A parsed expression with its source range. */
export type Expr =
  | { k: 'str'; start: number; end: number; literal: StringLiteral; holes: { hole: Hole; expr: Expr }[] }
  | { k: 'concat'; start: number; end: number; parts: Expr[] }
  | { k: 'name'; start: number; end: number; id: string; /** An object literal's shorthand property (`{ instruction }`): key and value in one. */ shorthand?: boolean }
  | { k: 'attr'; start: number; end: number; obj: Expr; name: string }
  | { k: 'index'; start: number; end: number; obj: Expr; index: Expr }
  | { k: 'call'; start: number; end: number; callee: Expr; args: Arg[]; isNew: boolean }
  | { k: 'list'; start: number; end: number; items: Expr[]; tuple: boolean; bindings?: Comprehension[] }
  | { k: 'dict'; start: number; end: number; entries: Entry[] }
  | { k: 'cond'; start: number; end: number; options: Expr[] }
  | { k: 'func'; start: number; end: number; fn: FuncNode }
  | { k: 'format'; start: number; end: number; template: Expr; args: Arg[] }
  | { k: 'elem'; start: number; end: number; of: Expr; /** The position taken from a tuple (`_, parsed, body = data`); absent: any element. */ at?: number }
  | { k: 'other'; start: number; end: number; parts: Expr[] };

/** The `for names in iterable` clauses of a comprehension: the names stand for elements of the iterable. */
export interface Comprehension {
  names: { id: string; start: number }[];
  iter: Expr;
}

/** A call argument: positional, keyword (`name=`), or spread (`*x`, `**x`, `...x`). */
export interface Arg {
  name?: string;
  value: Expr;
  spread?: boolean;
}

/** An entry of a dict or object literal; `key` is undefined for computed keys and spreads. */
export interface Entry {
  key?: string;
  keyStart: number;
  value: Expr;
  spread?: boolean;
}

/** A function parameter (destructured object parameters list their property names in `fields`). */
export interface Param {
  name: string;
  start: number;
  default?: Expr;
  rest?: boolean;
  fields?: string[];
  /** The first name of its type annotation (`RunContextWrapper` in `ctx: RunContextWrapper[Deps]`), if it has one. */
  type?: string;
}

/** A function written inside an expression (arrow, lambda, function expression, object method). */
export interface FuncNode {
  params: Param[];
  /** An expression body (arrow, lambda) or a block body as a range of `tokens`. */
  body: { expr: Expr } | { from: number; to: number; tokens: readonly Token[] };
  name?: string;
  /** Set by the module scanner when it registers the function. */
  scope?: number;
}

const MAX_DEPTH = 120;
const PY_STOP_NAMES = new Set(['for', 'if', 'else', 'in', 'is', 'and', 'or', 'not', 'as', 'from', 'import', 'lambda', 'async', 'yield', 'return', 'with']);
const TS_BINARY = new Set(['===', '!==', '==', '!=', '<', '>', '<=', '>=', '-', '&', '|', '^', '<<', '>>', '>>>', 'instanceof', 'in']);
const PY_BINARY = new Set(['==', '!=', '<', '>', '<=', '>=', '-', '&', '|', '^', '<<', '>>', 'in', 'is', 'not']);
const TS_UNARY = new Set(['!', '-', '+', '~', 'typeof', 'void', 'delete', 'await', '++', '--']);
const CONTINUES_LINE = new Set(['.', '?.', '+', '-', '*', '/', '%', '**', '&&', '||', '??', '?', ':', '=>', '==', '===', '!=', '!==', '<', '>', '<=', '>=', '&', '|', '^', ',', ')', ']', '}', 'as', 'satisfies', 'instanceof', 'in']);

/** Matching close bracket of every open bracket in a token list (`()`, `[]`, `{}`), computed without recursion. */
export function bracketPairs(tokens: readonly Token[]): Int32Array {
  const close = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'punct') continue;
    if (t.value === '(' || t.value === '[' || t.value === '{') stack.push(i);
    else if (t.value === ')' || t.value === ']' || t.value === '}') {
      const open = stack.pop();
      if (open !== undefined) close[open] = i;
    }
  }
  return close;
}

/** Parses expressions from one token list (a file's, or an interpolation's). */
export class ExprParser {
  pos = 0;
  private depth = 0;
  /** Open brackets around the current position inside the expression being parsed (newlines are insignificant there). */
  private nest = 0;
  readonly close: Int32Array;

  constructor(
    readonly text: string,
    readonly tokens: readonly Token[],
    readonly language: CodeLanguage,
    close?: Int32Array,
  ) {
    this.close = close ?? bracketPairs(tokens);
  }

  get py(): boolean {
    return this.language === 'python';
  }

  tok(i = this.pos): Token | undefined {
    return this.tokens[i];
  }

  /** The value of a name or punctuator token (undefined for strings and line ends). */
  val(i = this.pos): string | undefined {
    const t = this.tokens[i];
    return t && (t.type === 'name' || t.type === 'punct' || t.type === 'other') ? t.value : undefined;
  }

  is(value: string, i = this.pos): boolean {
    const t = this.tokens[i];
    return t !== undefined && (t.type === 'punct' || t.type === 'name') && t.value === value;
  }

  /** Skips line-end tokens where they are insignificant (inside brackets, or before a token that continues the line). */
  skipNewlines(): void {
    while (this.tokens[this.pos]?.type === 'newline') {
      const next = this.tokens[this.pos + 1];
      const continues = next !== undefined && (next.type === 'punct' || next.type === 'name') && CONTINUES_LINE.has(next.value);
      if (this.nest === 0 && !continues) return;
      this.pos++;
    }
  }

  private startOf(i: number): number {
    return this.tokens[i]?.start ?? this.tokens[this.tokens.length - 1]?.end ?? 0;
  }

  private endOf(i: number): number {
    return this.tokens[i - 1]?.end ?? 0;
  }

  /** Index just after the bracket opened at `i` closes (the end of the list when it never closes). */
  after(i: number): number {
    const c = this.close[i];
    return c === -1 ? this.tokens.length : c + 1;
  }

  private skipBracket(start: number): Expr {
    this.pos = this.after(this.pos);
    return { k: 'other', start, end: this.endOf(this.pos), parts: [] };
  }

  /** Parses one expression (a conditional, or a lambda/arrow); `other` when no expression starts here. */
  expression(): Expr {
    if (this.depth > MAX_DEPTH) {
      const start = this.startOf(this.pos);
      this.skipToBoundary();
      return { k: 'other', start, end: this.endOf(this.pos), parts: [] };
    }
    this.depth++;
    try {
      return this.py ? this.pyConditional() : this.tsAssignmentLevel();
    } finally {
      this.depth--;
    }
  }

  /** Skips to the next `,`, `;`, close bracket or statement end at this level. */
  private skipToBoundary(): void {
    while (this.pos < this.tokens.length) {
      const t = this.tokens[this.pos];
      if (t.type === 'newline' && this.nest === 0) return;
      if (t.type === 'punct') {
        if (t.value === '(' || t.value === '[' || t.value === '{') {
          this.pos = this.after(this.pos);
          continue;
        }
        if (t.value === ',' || t.value === ';' || t.value === ')' || t.value === ']' || t.value === '}') return;
      }
      this.pos++;
    }
  }

  // ---------------------------------------------------------------- Python

  private pyConditional(): Expr {
    if (this.is('lambda')) return this.pyLambda();
    const start = this.startOf(this.pos);
    const body = this.pyOr();
    if (this.is('if')) {
      this.pos++;
      const test = this.pyOr();
      if (this.is('else')) {
        this.pos++;
        const otherwise = this.expression();
        return { k: 'cond', start, end: otherwise.end, options: [body, otherwise] };
      }
      return { k: 'other', start, end: test.end, parts: [body, test] };
    }
    return body;
  }

  private pyLambda(): Expr {
    const start = this.startOf(this.pos);
    this.pos++;
    const params: Param[] = [];
    while (this.pos < this.tokens.length && !this.is(':')) {
      const t = this.tokens[this.pos];
      if (t.type === 'name') {
        const param: Param = { name: t.value, start: t.start };
        this.pos++;
        if (this.is('=')) {
          this.pos++;
          param.default = this.pyOr();
        }
        params.push(param);
      } else if (t.type === 'newline') break;
      else this.pos++;
    }
    if (this.is(':')) this.pos++;
    const body = this.expression();
    return { k: 'func', start, end: body.end, fn: { params, body: { expr: body } } };
  }

  private pyOr(): Expr {
    const start = this.startOf(this.pos);
    const first = this.pyNot();
    if (!this.is('or') && !this.is('and')) return first;
    const options = [first];
    while (this.is('or') || this.is('and')) {
      this.pos++;
      options.push(this.pyNot());
    }
    return { k: 'cond', start, end: options[options.length - 1].end, options };
  }

  private pyNot(): Expr {
    if (this.is('not')) {
      const start = this.startOf(this.pos);
      this.pos++;
      const operand = this.pyNot();
      return { k: 'other', start, end: operand.end, parts: [operand] };
    }
    return this.pyBinary();
  }

  /** `*`, `/`, `//`, `@`, `%` (a string `%` is formatting): tighter than `+`. */
  private pyMultiplicative(): Expr {
    const start = this.startOf(this.pos);
    let left = this.pyUnary();
    for (;;) {
      const v = this.val();
      if (v === '%' && (left.k === 'str' || left.k === 'concat')) {
        this.pos++;
        const right = this.pyUnary();
        const args = right.k === 'list' && right.tuple ? right.items.map((value) => ({ value })) : right.k === 'dict' ? right.entries.map((e) => ({ name: e.key, value: e.value })) : [{ value: right }];
        left = { k: 'format', start, end: right.end, template: left, args };
      } else if (v === '*' || v === '/' || v === '//' || v === '@' || v === '%') {
        this.pos++;
        const right = this.pyUnary();
        left = { k: 'other', start, end: right.end, parts: [left, right] };
      } else return left;
    }
  }

  private pyBinary(): Expr {
    const start = this.startOf(this.pos);
    const first = this.pyMultiplicative();
    let left = first;
    const parts: Expr[] = [];
    for (;;) {
      const v = this.val();
      if (v === '+') {
        this.pos++;
        const right = this.pyMultiplicative();
        const prior = left.k === 'concat' ? left.parts : [left];
        left = { k: 'concat', start, end: right.end, parts: [...prior, right] };
      } else if (v !== undefined && PY_BINARY.has(v) && this.tokens[this.pos]?.type !== 'string') {
        if (v === 'not' && !this.is('in', this.pos + 1)) break;
        if (v === 'is' && this.is('not', this.pos + 1)) this.pos++;
        if (v === 'not') this.pos++;
        this.pos++;
        parts.push(left);
        left = this.pyMultiplicative();
      } else break;
    }
    if (parts.length === 0) return left;
    parts.push(left);
    return { k: 'other', start, end: left.end, parts };
  }

  private pyUnary(): Expr {
    const v = this.val();
    if (v === '-' || v === '+' || v === '~' || v === 'await' || v === '*' || v === '**') {
      const start = this.startOf(this.pos);
      this.pos++;
      const operand = this.pyUnary();
      return v === 'await' || v === '*' || v === '**' ? operand : { k: 'other', start, end: operand.end, parts: [operand] };
    }
    return this.postfix(this.primary());
  }

  // ---------------------------------------------------------------- TypeScript

  private tsAssignmentLevel(): Expr {
    const arrow = this.tsArrow();
    if (arrow) return arrow;
    const start = this.startOf(this.pos);
    const test = this.tsBinary();
    this.skipNewlines();
    if (this.is('?')) {
      this.pos++;
      this.nest++;
      const yes = this.expression();
      this.skipNewlines();
      if (this.is(':')) this.pos++;
      this.nest--;
      const no = this.expression();
      return { k: 'cond', start, end: no.end, options: [yes, no] };
    }
    return test;
  }

  /** An arrow function starting here (`x =>`, `(a, b) =>`, `async (a): T =>`), or undefined. */
  private tsArrow(): Expr | undefined {
    const start = this.startOf(this.pos);
    let i = this.pos;
    if (this.is('async', i) && (this.is('(', i + 1) || (this.tokens[i + 1]?.type === 'name' && this.is('=>', i + 2)))) i++;
    let params: Param[];
    let afterParams: number;
    const t = this.tokens[i];
    if (t?.type === 'name' && this.is('=>', i + 1)) {
      params = [{ name: t.value, start: t.start }];
      afterParams = i + 1;
    } else if (this.is('(', i)) {
      const closeAt = this.close[i];
      if (closeAt === -1) return undefined;
      let j = closeAt + 1;
      if (this.is(':', j)) j = this.skipType(j + 1, true);
      if (!this.is('=>', j)) return undefined;
      params = this.paramList(i);
      afterParams = j;
    } else return undefined;
    this.pos = afterParams + 1;
    this.skipNewlinesAlways();
    if (this.is('{')) {
      const from = this.pos + 1;
      const to = this.close[this.pos] === -1 ? this.tokens.length : this.close[this.pos];
      this.pos = this.after(this.pos);
      return { k: 'func', start, end: this.endOf(this.pos), fn: { params, body: { from, to, tokens: this.tokens } } };
    }
    const body = this.expression();
    return { k: 'func', start, end: body.end, fn: { params, body: { expr: body } } };
  }

  skipNewlinesAlways(): void {
    while (this.tokens[this.pos]?.type === 'newline') this.pos++;
  }

  /**
   * Skips a type parameter list from `i` (just after its `<`) and returns the index after its `>`: defaults and
   * constraints included (`<P extends Record<string, unknown> = Payload>`), which a type annotation stops at.
   */
  skipTypeParams(i: number): number {
    let depth = 1;
    while (i < this.tokens.length) {
      const t = this.tokens[i];
      if (t.type === 'punct' && (t.value === '(' || t.value === '[' || t.value === '{')) {
        i = this.after(i);
        continue;
      }
      if (t.type === 'punct' && t.value === '<') depth++;
      if (t.type === 'punct' && t.value === '>' && --depth === 0) return i + 1;
      i++;
    }
    return i;
  }

  /**
   * Skips a type annotation from `i` and returns the index after it: stops at `=`, `,`, `;`, a close bracket, a `{`
   * that follows a complete type, and with `stopAtArrow` at a top-level `=>` (else it belongs to a function type).
   */
  skipType(i: number, stopAtArrow = false): number {
    let angle = 0;
    let complete = false;
    while (i < this.tokens.length) {
      const t = this.tokens[i];
      if (t.type === 'newline') {
        if (complete && angle === 0) return i;
        i++;
        continue;
      }
      const v = t.type === 'string' ? '"' : t.value;
      if (v === '<') {
        angle++;
        complete = false;
        i++;
        continue;
      }
      if (v === '>' && angle > 0) {
        angle--;
        complete = true;
        i++;
        continue;
      }
      if (v === '=>' ) {
        if (angle === 0 && stopAtArrow) return i;
        complete = false;
        i++;
        continue;
      }
      if (angle === 0 && (v === '=' || v === ',' || v === ';' || v === ')' || v === ']' || v === '}')) return i;
      if (v === '{' && complete && angle === 0) return i;
      if (v === '(' || v === '[' || v === '{') {
        i = this.after(i);
        complete = true;
        continue;
      }
      complete = t.type === 'name' || t.type === 'string' || t.type === 'other';
      if (v === '|' || v === '&' || v === '.' || v === '?' || v === ':' || v === 'keyof' || v === 'typeof' || v === 'extends' || v === 'infer' || v === 'readonly') complete = false;
      i++;
    }
    return i;
  }

  /** `*`, `/`, `%`, `**`: tighter than `+`. */
  private tsMultiplicative(): Expr {
    const start = this.startOf(this.pos);
    let left = this.tsUnary();
    for (;;) {
      this.skipNewlines();
      const v = this.val();
      if ((v === '*' || v === '/' || v === '%' || v === '**') && this.tokens[this.pos]?.type === 'punct') {
        this.pos++;
        this.skipNewlinesAlways();
        const right = this.tsUnary();
        left = { k: 'other', start, end: right.end, parts: [left, right] };
      } else return left;
    }
  }

  private tsBinary(): Expr {
    const start = this.startOf(this.pos);
    let left = this.tsMultiplicative();
    const parts: Expr[] = [];
    let options: Expr[] | undefined;
    for (;;) {
      this.skipNewlines();
      const v = this.val();
      if (v === '+') {
        this.pos++;
        this.skipNewlinesAlways();
        const right = this.tsMultiplicative();
        const prior = left.k === 'concat' ? left.parts : [left];
        left = { k: 'concat', start, end: right.end, parts: [...prior, right] };
      } else if (v === '||' || v === '??' || v === '&&') {
        this.pos++;
        this.skipNewlinesAlways();
        options ??= [];
        options.push(left);
        left = this.tsMultiplicative();
      } else if (v === 'as' || v === 'satisfies') {
        this.pos = this.skipType(this.pos + 1, true);
      } else if (v === '!' && this.tokens[this.pos - 1]?.end === this.tokens[this.pos]?.start) {
        this.pos++;
      } else if (v !== undefined && TS_BINARY.has(v) && this.tokens[this.pos]?.type === 'punct') {
        this.pos++;
        this.skipNewlinesAlways();
        parts.push(left);
        left = this.tsMultiplicative();
      } else if (v === 'instanceof' || v === 'in') {
        this.pos++;
        parts.push(left);
        left = this.tsMultiplicative();
      } else break;
    }
    if (options) {
      options.push(left);
      left = { k: 'cond', start, end: left.end, options };
    }
    if (parts.length === 0) return left;
    parts.push(left);
    return { k: 'other', start, end: left.end, parts };
  }

  private tsUnary(): Expr {
    this.skipNewlines();
    const v = this.val();
    if (v !== undefined && TS_UNARY.has(v) && this.tokens[this.pos]?.type !== 'string') {
      const start = this.startOf(this.pos);
      this.pos++;
      const operand = this.tsUnary();
      return v === 'await' ? operand : { k: 'other', start, end: operand.end, parts: [operand] };
    }
    if (v === '...') {
      this.pos++;
      return this.tsUnary();
    }
    if (v === '<' && this.tokens[this.pos + 1]?.type === 'name') {
      // A `<Type>value` cast.
      const after = this.skipType(this.pos + 1);
      if (this.is('>', after)) this.pos = after + 1;
    }
    return this.postfix(this.primary());
  }

  // ---------------------------------------------------------------- shared

  /** Postfix chain: `.name`, `?.name`, calls, subscripts, template tags (TypeScript), generic call arguments. */
  private postfix(base: Expr): Expr {
    let node = base;
    for (;;) {
      if (!this.py) this.skipNewlines();
      const t = this.tokens[this.pos];
      if (!t) break;
      if (t.type === 'punct' && (t.value === '.' || t.value === '?.')) {
        const next = this.tokens[this.pos + 1];
        if (next?.type === 'name') {
          this.pos += 2;
          node = { k: 'attr', start: node.start, end: next.end, obj: node, name: next.value };
          continue;
        }
        if (t.value === '?.' && (this.is('(', this.pos + 1) || this.is('[', this.pos + 1))) {
          this.pos++;
          continue;
        }
        if (next?.type === 'punct' && next.value === '#') {
          this.pos += 2;
          continue;
        }
        break;
      }
      if (t.type === 'punct' && t.value === '(') {
        node = this.callArgs(node, false);
        continue;
      }
      if (t.type === 'punct' && t.value === '[') {
        const open = this.pos;
        this.pos++;
        this.nest++;
        const index = this.expression();
        this.nest--;
        this.pos = this.after(open);
        node = { k: 'index', start: node.start, end: this.endOf(this.pos), obj: node, index };
        continue;
      }
      if (!this.py && t.type === 'string' && t.literal.quote === '`' && t.start === node.end) {
        const str = this.primary();
        node = { k: 'call', start: node.start, end: str.end, callee: node, args: [{ value: str }], isNew: false };
        continue;
      }
      if (!this.py && t.type === 'punct' && t.value === '!' && t.start === node.end) {
        this.pos++;
        continue;
      }
      if (!this.py && t.type === 'punct' && t.value === '<' && (node.k === 'name' || node.k === 'attr')) {
        const after = this.skipType(this.pos + 1);
        if (this.is('>', after) && this.is('(', after + 1)) {
          this.pos = after + 1;
          continue;
        }
      }
      break;
    }
    return node;
  }

  /** Parses `(args)` after a callee. */
  private callArgs(callee: Expr, isNew: boolean): Expr {
    const open = this.pos;
    const end = this.close[open] === -1 ? this.tokens.length : this.close[open];
    this.pos++;
    this.nest++;
    const args: Arg[] = [];
    while (this.pos < end) {
      const before = this.pos;
      if (this.tokens[this.pos].type === 'newline' || this.is(',')) {
        this.pos++;
        continue;
      }
      const arg: Arg = { value: undefined as unknown as Expr };
      if (this.py && this.tokens[this.pos].type === 'name' && this.is('=', this.pos + 1)) {
        arg.name = (this.tokens[this.pos] as { value: string }).value;
        this.pos += 2;
      } else if (this.is('*') || this.is('**') || this.is('...')) {
        arg.spread = true;
        this.pos++;
      }
      arg.value = this.expression();
      if (this.py && this.is('for')) {
        // A generator argument (`f(x for x in y)`): a comprehension, as in brackets.
        arg.value = this.generator(arg.value, end);
        this.pos = end;
      }
      args.push(arg);
      if (this.pos === before) this.pos++;
      if (this.pos < end && !this.is(',') && this.tokens[this.pos]?.type !== 'newline') this.skipToBoundary();
    }
    this.nest--;
    this.pos = this.after(open);
    return { k: 'call', start: callee.start, end: this.endOf(this.pos), callee, args, isNew };
  }

  /** A primary expression: literal, name, bracketed expression, list, dict/object, `new`, function expression. */
  primary(): Expr {
    // An operand is never empty: a line break before it (`x =\n  'text'`) is insignificant.
    this.skipNewlinesAlways();
    const t = this.tokens[this.pos];
    if (!t) return { k: 'other', start: this.startOf(this.pos), end: this.startOf(this.pos), parts: [] };
    if (t.type === 'string') return this.strings();
    if (t.type === 'punct') {
      if (t.value === '(') return this.parenthesized();
      if (t.value === '[') return this.listLiteral();
      if (t.value === '{') return this.dictLiteral();
    }
    if (t.type === 'name') {
      if (!this.py && t.value === 'new') {
        this.pos++;
        const start = t.start;
        let callee = this.primary();
        while (this.is('.') && this.tokens[this.pos + 1]?.type === 'name') {
          const name = this.tokens[this.pos + 1] as { value: string; end: number };
          callee = { k: 'attr', start: callee.start, end: name.end, obj: callee, name: name.value };
          this.pos += 2;
        }
        if (this.is('<')) {
          const after = this.skipType(this.pos + 1);
          if (this.is('>', after)) this.pos = after + 1;
        }
        if (this.is('(')) {
          const call = this.callArgs(callee, true);
          return { ...call, start } as Expr;
        }
        return { k: 'call', start, end: callee.end, callee, args: [], isNew: true };
      }
      if (!this.py && (t.value === 'function' || (t.value === 'async' && this.is('function', this.pos + 1)))) return this.functionExpression();
      if (!this.py && t.value === 'class') {
        const start = t.start;
        this.pos++;
        while (this.pos < this.tokens.length && !this.is('{')) this.pos++;
        return this.skipBracket(start);
      }
      if (this.py && PY_STOP_NAMES.has(t.value)) return { k: 'other', start: t.start, end: t.start, parts: [] };
      this.pos++;
      return { k: 'name', start: t.start, end: t.end, id: t.value };
    }
    if (t.type === 'newline') return { k: 'other', start: t.start, end: t.start, parts: [] };
    if (t.type === 'punct' && /^[)\]},;:=]$/.test(t.value)) return { k: 'other', start: t.start, end: t.start, parts: [] };
    this.pos++;
    return { k: 'other', start: t.start, end: t.end, parts: [] };
  }

  /** One string literal, or several adjacent ones (Python concatenates them). */
  private strings(): Expr {
    const parts: Expr[] = [];
    while (this.tokens[this.pos]?.type === 'string') {
      const t = this.tokens[this.pos] as { literal: StringLiteral; start: number; end: number };
      this.pos++;
      parts.push(this.stringExpr(t.literal));
      if (!this.py) break;
    }
    if (parts.length === 1) return parts[0];
    return { k: 'concat', start: parts[0].start, end: parts[parts.length - 1].end, parts };
  }

  /** A literal with its interpolations parsed (each from its own tokens). */
  stringExpr(literal: StringLiteral): Expr {
    const holes = literal.holes.map((hole) => {
      const inner = new ExprParser(this.text, hole.tokens, this.language);
      inner.depth = this.depth + 1;
      inner.nest = 1;
      return { hole, expr: inner.expression() };
    });
    return { k: 'str', start: literal.start, end: literal.end, literal, holes };
  }

  private parenthesized(): Expr {
    const open = this.pos;
    const start = this.tokens[open].start;
    const end = this.close[open] === -1 ? this.tokens.length : this.close[open];
    this.pos++;
    this.nest++;
    const items: Expr[] = [];
    let comma = false;
    while (this.pos < end) {
      const before = this.pos;
      if (this.tokens[this.pos].type === 'newline') {
        this.pos++;
        continue;
      }
      if (this.is(',')) {
        comma = true;
        this.pos++;
        continue;
      }
      items.push(this.expression());
      if (this.py && this.is('for')) {
        items.push(this.generator(items.pop()!, end));
        break;
      }
      if (this.pos === before) this.pos++;
      if (this.pos < end && !this.is(',')) this.skipToBoundary();
    }
    this.nest--;
    this.pos = this.after(open);
    const stop = this.endOf(this.pos);
    if (items.length === 1 && !comma) return items[0];
    return { k: 'list', start, end: stop, items, tuple: true };
  }

  private listLiteral(): Expr {
    const open = this.pos;
    const start = this.tokens[open].start;
    const end = this.close[open] === -1 ? this.tokens.length : this.close[open];
    this.pos++;
    this.nest++;
    const items: Expr[] = [];
    while (this.pos < end) {
      const before = this.pos;
      if (this.tokens[this.pos].type === 'newline' || this.is(',')) {
        this.pos++;
        continue;
      }
      items.push(this.expression());
      if (this.py && this.is('for')) {
        // A comprehension: the element expression stands for every item; its loop names are bound to the iterable.
        const element = items.pop()!;
        items.push({ k: 'elem', start: element.start, end: element.end, of: element });
        const bindings = this.comprehension(end);
        this.nest--;
        this.pos = this.after(open);
        return { k: 'list', start, end: this.endOf(this.pos), items, tuple: false, bindings };
      }
      if (this.pos === before) this.pos++;
      if (this.pos < end && !this.is(',')) this.skipToBoundary();
    }
    this.nest--;
    this.pos = this.after(open);
    return { k: 'list', start, end: this.endOf(this.pos), items, tuple: false };
  }

  /** A generator expression (`x for x in xs`) as the list it yields: the element stands for every item, its loop names bound to the iterable. */
  private generator(element: Expr, end: number): Expr {
    const bindings = this.comprehension(end);
    return { k: 'list', start: element.start, end: this.endOf(this.pos), items: [{ k: 'elem', start: element.start, end: element.end, of: element }], tuple: false, bindings };
  }

  /** The `for x in xs` clauses from `pos` up to `end` (filters skipped). */
  private comprehension(end: number): Comprehension[] {
    const out: Comprehension[] = [];
    while (this.pos < end && (this.is('for') || this.is('async'))) {
      if (this.is('async')) this.pos++;
      this.pos++;
      const names: { id: string; start: number }[] = [];
      while (this.pos < end && !this.is('in')) {
        const t = this.tokens[this.pos];
        if (t.type === 'name') names.push({ id: t.value, start: t.start });
        this.pos++;
      }
      if (!this.is('in')) break;
      this.pos++;
      const iter = this.pyOr();
      out.push({ names, iter });
      while (this.pos < end && !this.is('for')) {
        const before = this.pos;
        this.skipToBoundary();
        if (this.is(',') || this.pos === before) this.pos++;
        if (this.tokens[this.pos]?.type === 'punct' && /^[)\]}]$/.test(this.val()!)) break;
      }
    }
    return out;
  }

  private dictLiteral(): Expr {
    const open = this.pos;
    const start = this.tokens[open].start;
    const end = this.close[open] === -1 ? this.tokens.length : this.close[open];
    this.pos++;
    this.nest++;
    const entries: Entry[] = [];
    const items: Expr[] = [];
    while (this.pos < end) {
      const before = this.pos;
      const t = this.tokens[this.pos];
      if (t.type === 'newline' || this.is(',')) {
        this.pos++;
        continue;
      }
      if (this.is('...') || this.is('**')) {
        this.pos++;
        entries.push({ keyStart: t.start, value: this.expression(), spread: true });
      } else if (this.py) {
        const keyExpr = this.expression();
        if (this.is(':')) {
          this.pos++;
          const key = keyExpr.k === 'str' && keyExpr.holes.length === 0 ? textOf(this.text, keyExpr.literal) : undefined;
          entries.push({ key, keyStart: keyExpr.start, value: this.expression() });
        } else {
          items.push(keyExpr);
          if (this.is('for')) break;
        }
      } else {
        this.objectMember(entries);
      }
      if (this.pos === before) this.pos++;
      if (this.pos < end && !this.is(',')) this.skipToBoundary();
    }
    this.nest--;
    this.pos = this.after(open);
    if (this.py && entries.length === 0 && items.length > 0) return { k: 'list', start, end: this.endOf(this.pos), items, tuple: false };
    return { k: 'dict', start, end: this.endOf(this.pos), entries };
  }

  /** One member of an object literal: `key: value`, shorthand `key`, method `key() {}`, getter, computed key. */
  private objectMember(entries: Entry[]): void {
    let t = this.tokens[this.pos];
    while (t?.type === 'name' && (t.value === 'async' || t.value === 'get' || t.value === 'set' || t.value === 'static') && !this.is(':', this.pos + 1) && !this.is('(', this.pos + 1) && !this.is(',', this.pos + 1)) {
      this.pos++;
      t = this.tokens[this.pos];
    }
    if (!t) return;
    if (this.is('*')) {
      this.pos++;
      t = this.tokens[this.pos];
    }
    let key: string | undefined;
    const keyStart = t.start;
    if (t.type === 'name' || t.type === 'other') {
      key = t.value;
      this.pos++;
    } else if (t.type === 'string') {
      key = t.literal.holes.length === 0 ? textOf(this.text, t.literal) : undefined;
      this.pos++;
    } else if (this.is('[')) {
      this.pos = this.after(this.pos);
    } else {
      this.pos++;
      return;
    }
    if (this.is('?')) this.pos++;
    if (this.is(':')) {
      this.pos++;
      const value = this.expression();
      // A function written as a property is named by it (`execute: async (args) => ...`).
      if (value.k === 'func' && key !== undefined) value.fn.name ??= key;
      entries.push({ key, keyStart, value });
      return;
    }
    if (this.is('(') || this.is('<')) {
      if (this.is('<')) this.pos = this.skipTypeParams(this.pos + 1);
      const paramsAt = this.pos;
      const params = this.paramList(paramsAt);
      this.pos = this.after(paramsAt);
      if (this.is(':')) this.pos = this.skipType(this.pos + 1);
      if (this.is('{')) {
        const from = this.pos + 1;
        const to = this.close[this.pos] === -1 ? this.tokens.length : this.close[this.pos];
        this.pos = this.after(this.pos);
        entries.push({ key, keyStart, value: { k: 'func', start: keyStart, end: this.endOf(this.pos), fn: { params, body: { from, to, tokens: this.tokens }, name: key } } });
      }
      return;
    }
    if (key !== undefined && t.type === 'name') entries.push({ key, keyStart, value: { k: 'name', start: t.start, end: t.end, id: key, shorthand: true } });
    if (this.is('=')) {
      // A default in a destructuring pattern: `{ a = 1 }`.
      this.pos++;
      this.expression();
    }
  }

  private functionExpression(): Expr {
    const start = this.startOf(this.pos);
    if (this.is('async')) this.pos++;
    this.pos++;
    if (this.is('*')) this.pos++;
    let name: string | undefined;
    const t = this.tokens[this.pos];
    if (t?.type === 'name') {
      name = t.value;
      this.pos++;
    }
    if (this.is('<')) this.pos = this.skipTypeParams(this.pos + 1);
    if (!this.is('(')) return { k: 'other', start, end: this.endOf(this.pos), parts: [] };
    const paramsAt = this.pos;
    const params = this.paramList(paramsAt);
    this.pos = this.after(paramsAt);
    if (this.is(':')) this.pos = this.skipType(this.pos + 1);
    if (!this.is('{')) return { k: 'other', start, end: this.endOf(this.pos), parts: [] };
    const from = this.pos + 1;
    const to = this.close[this.pos] === -1 ? this.tokens.length : this.close[this.pos];
    this.pos = this.after(this.pos);
    return { k: 'func', start, end: this.endOf(this.pos), fn: { params, body: { from, to, tokens: this.tokens }, name } };
  }

  /**
   * The parameters in the bracket opened at `open`: names, defaults, rest parameters, destructured object fields;
   * types skipped. Leaves `pos` unchanged.
   */
  paramList(open: number): Param[] {
    const saved = this.pos;
    const savedNest = this.nest;
    const end = this.close[open] === -1 ? this.tokens.length : this.close[open];
    const params: Param[] = [];
    this.pos = open + 1;
    this.nest = 1;
    while (this.pos < end) {
      const t = this.tokens[this.pos];
      if (t.type === 'newline' || this.is(',')) {
        this.pos++;
        continue;
      }
      let rest = false;
      if (this.is('...') || this.is('*') || this.is('**')) {
        rest = true;
        this.pos++;
      }
      while (this.tokens[this.pos]?.type === 'name' && ['public', 'private', 'protected', 'readonly', 'override'].includes(this.val()!) && this.tokens[this.pos + 1]?.type === 'name') this.pos++;
      const at = this.tokens[this.pos];
      if (!at) break;
      let param: Param | undefined;
      if (at.type === 'name') {
        param = { name: at.value, start: at.start, rest };
        this.pos++;
      } else if (this.is('{') || this.is('[')) {
        const fields: string[] = [];
        const close = this.close[this.pos] === -1 ? end : this.close[this.pos];
        for (let j = this.pos + 1; j < close; j++) {
          const f = this.tokens[j];
          if (f.type === 'name' && (this.is(',', j + 1) || this.is('}', j + 1) || this.is('=', j + 1) || this.is(':', j + 1) || this.tokens[j + 1]?.type === 'newline') && !this.is(':', j - 1)) fields.push(f.value);
        }
        param = { name: '', start: at.start, fields };
        this.pos = this.after(this.pos);
      } else {
        this.pos++;
        continue;
      }
      if (this.is('?')) this.pos++;
      if (this.is(':')) {
        const type = this.tokens[this.pos + 1];
        if (type?.type === 'name') param.type = type.value;
        this.pos = this.py ? this.pySkipAnnotation(end) : this.skipType(this.pos + 1);
      }
      if (this.is('=')) {
        this.pos++;
        param.default = this.expression();
      }
      params.push(param);
      if (this.pos < end && !this.is(',')) this.skipToBoundary();
    }
    this.pos = saved;
    this.nest = savedNest;
    return params;
  }

  /** Skips a Python annotation after `:` up to `=`, `,` or the end of the bracket. */
  pySkipAnnotation(end: number): number {
    let i = this.pos + 1;
    while (i < end) {
      if (this.is('=', i) || this.is(',', i)) return i;
      if (this.is('(', i) || this.is('[', i) || this.is('{', i)) i = this.after(i);
      else i++;
    }
    return i;
  }
}

/** The text of a literal without interpolations as it appears in the source (escapes not undone). */
export function textOf(text: string, literal: StringLiteral): string {
  return text.slice(literal.contentStart, literal.contentEnd);
}
