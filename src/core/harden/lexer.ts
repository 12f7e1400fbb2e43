// A small tokenizer for TypeScript/JavaScript and Python source: enough to find string literals exactly (escapes,
// template literals with ${}, Python prefixes, triple quotes and f-string fields) and the names around them.

/** Source languages the code scanner reads. */
export type CodeLanguage = 'typescript' | 'python';

/** An interpolation inside a template literal or f-string: the whole `${...}` / `{...}` and its expression. */
export interface Hole {
  start: number;
  end: number;
  exprStart: number;
  exprEnd: number;
}

/** One string literal with the exact offsets of its quotes and content. */
export interface StringLiteral {
  language: CodeLanguage;
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  /** The delimiter: ' " ` ''' or """. */
  quote: string;
  /** Python prefix letters, lower-cased ('' for none and for TypeScript). */
  prefix: string;
  raw: boolean;
  /** Template literal or f-string: `holes` lists its interpolations. */
  template: boolean;
  /** Raw newlines are allowed inside (template literals, triple-quoted strings). */
  multiline: boolean;
  bytes: boolean;
  terminated: boolean;
  holes: Hole[];
}

/** A token: a string literal, a name, a punctuator, or anything else (numbers, regular expressions). */
export type Token =
  | { type: 'string'; start: number; end: number; literal: StringLiteral }
  | { type: 'name' | 'punct' | 'other'; start: number; end: number; value: string };

const TS_PUNCT = ['===', '!==', '**=', '...', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '++', '--'];
const PY_PUNCT = ['**=', '//=', '>>=', '<<=', '==', '!=', '<=', '>=', ':=', '->', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '//'];
const REGEX_AFTER_NAME = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const escapeRegex = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Sticky patterns (matched at `lastIndex`, no substring copies): the lexer's hot path on large files. */
const NAME = /[\p{L}_$][\p{L}\p{N}_$\u200c\u200d]*/uy;
const NUMBER = /(?:\d|\.\d)[\w.]*/y;
const SPACE = /\s+/y;
const TS_PUNCT_RE = new RegExp(`${TS_PUNCT.map(escapeRegex).join('|')}|[^]`, 'y');
const PY_PUNCT_RE = new RegExp(`${PY_PUNCT.map(escapeRegex).join('|')}|[^]`, 'y');
const PY_PREFIX = /(?:[rRuUfFbB]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])?(?=['"])/y;

/** The match of a sticky pattern at `pos`, or undefined. */
function stickyMatch(pattern: RegExp, text: string, pos: number): string | undefined {
  pattern.lastIndex = pos;
  return pattern.exec(text)?.[0];
}

class Lexer {
  pos = 0;
  readonly tokens: Token[] = [];

  constructor(
    readonly text: string,
    readonly language: CodeLanguage,
  ) {}

  /** Lexes until the end, or until the `}` closing an interpolation (returns its offset; tokens are not kept). */
  run(untilClose: boolean): number {
    const { text } = this;
    let depth = 0;
    const start = this.tokens.length;
    while (this.pos < text.length) {
      const ch = text[this.pos];
      const space = stickyMatch(SPACE, text, this.pos);
      if (space) {
        this.pos += space.length;
        continue;
      }
      if (ch === '\\' && this.language === 'python' && /[\r\n]/.test(text[this.pos + 1] ?? '')) {
        this.pos++;
        continue;
      }
      if (this.language === 'python' ? ch === '#' : text.startsWith('//', this.pos)) {
        this.skipLine();
        continue;
      }
      if (this.language === 'typescript' && text.startsWith('/*', this.pos)) {
        const close = text.indexOf('*/', this.pos + 2);
        this.pos = close === -1 ? text.length : close + 2;
        continue;
      }
      if (untilClose && ch === '}' && depth === 0) {
        this.tokens.length = start;
        return this.pos;
      }
      if (ch === '{' || ch === '(' || ch === '[') depth++;
      if ((ch === '}' || ch === ')' || ch === ']') && depth > 0) depth--;
      if (this.lexString() || this.lexName() || this.lexNumber() || this.lexRegex()) continue;
      this.lexPunct();
    }
    if (untilClose) this.tokens.length = start;
    return text.length;
  }

  private skipLine() {
    while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
  }

  private lexName(): boolean {
    const value = stickyMatch(NAME, this.text, this.pos);
    if (!value) return false;
    this.tokens.push({ type: 'name', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
    return true;
  }

  private lexNumber(): boolean {
    const value = stickyMatch(NUMBER, this.text, this.pos);
    if (!value) return false;
    this.tokens.push({ type: 'other', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
    return true;
  }

  private lexPunct() {
    const value = stickyMatch(this.language === 'python' ? PY_PUNCT_RE : TS_PUNCT_RE, this.text, this.pos) ?? this.text[this.pos];
    this.tokens.push({ type: 'punct', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
  }

  /** A `/` starts a regular expression where an operand is expected (TypeScript only). */
  private lexRegex(): boolean {
    const { text } = this;
    if (this.language !== 'typescript' || text[this.pos] !== '/') return false;
    const prev = this.tokens[this.tokens.length - 1];
    const operandExpected =
      !prev || (prev.type === 'punct' && !/^[)\]]$/.test(prev.value)) || (prev.type === 'name' && REGEX_AFTER_NAME.has(prev.value));
    if (!operandExpected) return false;
    const start = this.pos;
    let i = this.pos + 1;
    let inClass = false;
    for (; i < text.length && text[i] !== '\n'; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    if (text[i] !== '/') return false;
    i++;
    while (i < text.length && /[a-z]/i.test(text[i])) i++;
    this.pos = i;
    this.tokens.push({ type: 'other', start, end: i, value: text.slice(start, i) });
    return true;
  }

  private lexString(): boolean {
    const { text } = this;
    const start = this.pos;
    let prefix = '';
    if (this.language === 'python') {
      const match = stickyMatch(PY_PREFIX, text, this.pos);
      if (match === undefined) return false;
      prefix = match.toLowerCase();
    } else if (!/['"`]/.test(text[this.pos])) return false;
    let i = this.pos + prefix.length;
    const q = text[i];
    const triple = this.language === 'python' && text.startsWith(q.repeat(3), i);
    const quote = triple ? q.repeat(3) : q;
    const template = this.language === 'typescript' ? q === '`' : prefix.includes('f');
    const multiline = triple || q === '`';
    const literal: StringLiteral = {
      language: this.language, start, end: start, contentStart: i + quote.length, contentEnd: i + quote.length, quote, prefix,
      raw: prefix.includes('r'), template, multiline, bytes: prefix.includes('b'), terminated: false, holes: [],
    };
    i += quote.length;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (text.startsWith(quote, i)) {
        literal.contentEnd = i;
        literal.terminated = true;
        i += quote.length;
        break;
      }
      if (c === '\n' && !multiline) break;
      if (template && this.language === 'typescript' && text.startsWith('${', i)) {
        i = this.lexHole(literal, i, i + 2);
        continue;
      }
      if (template && this.language === 'python' && c === '{') {
        if (text[i + 1] === '{') i += 2;
        else i = this.lexHole(literal, i, i + 1);
        continue;
      }
      i++;
    }
    if (!literal.terminated) literal.contentEnd = i;
    literal.end = i;
    this.pos = i;
    this.tokens.push({ type: 'string', start, end: i, literal });
    return true;
  }

  /** Lexes one interpolation from `exprStart`, records it, and returns the offset after its closing brace. */
  private lexHole(literal: StringLiteral, start: number, exprStart: number): number {
    const inner = new Lexer(this.text, this.language);
    inner.pos = exprStart;
    const close = inner.run(true);
    let exprEnd = close;
    if (this.language === 'python') exprEnd = exprStart + pythonFieldExpressionLength(this.text.slice(exprStart, close));
    const end = Math.min(close + 1, this.text.length);
    literal.holes.push({ start, end, exprStart, exprEnd });
    return end;
  }
}

/** Length of the expression part of an f-string field, before a top-level `!conversion`, `:spec` or `=`. */
function pythonFieldExpressionLength(field: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < field.length; i++) {
    const c = field[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && c === '!' && field[i + 1] !== '=') return i;
    else if (depth === 0 && c === ':') return i;
    else if (depth === 0 && c === '=' && !'=!<>'.includes(field[i - 1] ?? '') && field[i + 1] !== '=') return i;
  }
  return field.length;
}

/** Tokenizes source text of the given language; never throws (unterminated constructs end at the line or file end). */
export function tokenize(text: string, language: CodeLanguage): Token[] {
  const lexer = new Lexer(text, language);
  lexer.run(false);
  return lexer.tokens;
}
