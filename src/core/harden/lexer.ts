// A small tokenizer for TypeScript/JavaScript and Python source: enough to find string literals exactly (escapes,
// template literals with ${}, Python prefixes, triple quotes and f-string fields), the names and punctuation around
// them, and line ends. It never recurses: literals nested in interpolations are tracked on an explicit stack, so
// hostile nesting depth costs memory in proportion to the file, never the call stack.
import { escapeRegExp } from '../regexSafety';

/** Source languages the code scanner reads. */
export type CodeLanguage = 'typescript' | 'python';

/** An interpolation inside a template literal or f-string: the whole `${...}` / `{...}`, its expression and its tokens. */
export interface Hole {
  start: number;
  end: number;
  exprStart: number;
  exprEnd: number;
  /** Tokens of the expression (Python: the field, including any `!conversion` or `:spec`). */
  tokens: Token[];
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

/**
 * A token: a string literal, a name, a punctuator, a line end (Python: logical line ends outside brackets;
 * TypeScript: every line break between tokens), or anything else (numbers, regular expressions).
 */
export type Token =
  | { type: 'string'; start: number; end: number; literal: StringLiteral }
  | { type: 'name' | 'punct' | 'other' | 'newline'; start: number; end: number; value: string };

const TS_PUNCT = ['===', '!==', '**=', '...', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '++', '--'];
const PY_PUNCT = ['**=', '//=', '>>=', '<<=', '==', '!=', '<=', '>=', ':=', '->', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '//'];
const REGEX_AFTER_NAME = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
/** Sticky patterns (matched at `lastIndex`, no substring copies): the lexer's hot path on large files. */
const NAME = /[\p{L}_$][\p{L}\p{N}_$\u200c\u200d]*/uy;
const NUMBER = /(?:\d|\.\d)[\w.]*/y;
const SPACE = /[ \t\f\v\r\n\u00a0\ufeff\u2028\u2029]+/y;
const TS_PUNCT_RE = new RegExp(`${TS_PUNCT.map(escapeRegExp).join('|')}|[^]`, 'y');
const PY_PUNCT_RE = new RegExp(`${PY_PUNCT.map(escapeRegExp).join('|')}|[^]`, 'y');
const PY_PREFIX = /(?:[rRuUfFbBtT]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF]|[tT][rR]|[rR][tT])?(?=['"])/y;

function isAsciiNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

function isAsciiNamePart(c: number): boolean {
  return isAsciiNameStart(c) || (c >= 48 && c <= 57);
}

/** Letters that can start a Python string prefix (r, u, f, b, t in either case). */
function isPrefixStart(c: number): boolean {
  return c === 114 || c === 82 || c === 117 || c === 85 || c === 102 || c === 70 || c === 98 || c === 66 || c === 116 || c === 84;
}

/** The match of a sticky pattern at `pos`, or undefined. */
function stickyMatch(pattern: RegExp, text: string, pos: number): string | undefined {
  pattern.lastIndex = pos;
  return pattern.exec(text)?.[0];
}

/** An interpolation being lexed: the literal it belongs to and the code context to restore when it closes. */
interface OpenHole {
  literal: StringLiteral;
  owner: Token[];
  start: number;
  exprStart: number;
  outerTokens: Token[];
  outerDepth: number;
}

class Lexer {
  pos = 0;
  readonly tokens: Token[] = [];
  /** Where tokens go now: the file's list, or the expression tokens of the innermost open interpolation. */
  private sink: Token[] = this.tokens;
  /** Bracket depth in the current code context. */
  private depth = 0;
  private readonly open: OpenHole[] = [];

  constructor(
    readonly text: string,
    readonly language: CodeLanguage,
  ) {}

  run(): void {
    const { text } = this;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      // ASCII fast paths: blanks and names are most of any source file.
      if (code === 32 || code === 9 || code === 10 || code === 13) {
        let i = this.pos;
        let newline = false;
        for (let c = code; c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i)) if (c === 10) newline = true;
        if (newline) this.lineBreak();
        this.pos = i;
        continue;
      }
      if (isAsciiNameStart(code) && !this.atPrefixedString()) {
        let i = this.pos + 1;
        while (isAsciiNamePart(text.charCodeAt(i))) i++;
        if (!(text.charCodeAt(i) >= 128)) {
          this.sink.push({ type: 'name', start: this.pos, end: i, value: text.slice(this.pos, i) });
          this.pos = i;
          continue;
        }
      }
      const ch = text[this.pos];
      const space = stickyMatch(SPACE, text, this.pos);
      if (space) {
        if (space.includes('\n')) this.lineBreak();
        this.pos += space.length;
        continue;
      }
      if (ch === '\\' && this.language === 'python' && /[\r\n]/.test(text[this.pos + 1] ?? '')) {
        this.pos += text[this.pos + 1] === '\r' && text[this.pos + 2] === '\n' ? 3 : 2;
        continue;
      }
      if (this.language === 'python' ? ch === '#' : text.startsWith('//', this.pos)) {
        this.skipLine();
        continue;
      }
      if (this.language === 'typescript' && text.startsWith('/*', this.pos)) {
        const close = text.indexOf('*/', this.pos + 2);
        const end = close === -1 ? text.length : close + 2;
        if (text.slice(this.pos, end).includes('\n')) this.lineBreak();
        this.pos = end;
        continue;
      }
      if (this.open.length > 0 && ch === '}' && this.depth === 0) {
        this.closeHole(this.pos, this.pos + 1);
        continue;
      }
      if (ch === '{' || ch === '(' || ch === '[') this.depth++;
      if ((ch === '}' || ch === ')' || ch === ']') && this.depth > 0) this.depth--;
      if (this.lexString() || this.lexName() || this.lexNumber() || this.lexRegex()) continue;
      this.lexPunct();
    }
    while (this.open.length > 0) this.closeHole(text.length, text.length);
  }

  /** True at a Python string prefix followed by its quote (`f"`, `rb'`), which lexString reads, not lexName. */
  private atPrefixedString(): boolean {
    if (this.language !== 'python') return false;
    const { text, pos } = this;
    const quoteAt = (i: number) => text[i] === '"' || text[i] === "'";
    return (quoteAt(pos + 1) || (quoteAt(pos + 2) && isPrefixStart(text.charCodeAt(pos + 1)))) && stickyMatch(PY_PREFIX, text, pos) !== undefined;
  }

  /** A line break in code: a newline token (Python: outside brackets only), or the end of a single-line literal's hole. */
  private lineBreak(): void {
    const hole = this.open[this.open.length - 1];
    if (hole && !hole.literal.multiline) {
      // A single-line literal cannot continue past the line: close its interpolations and the literal here.
      while (this.open.length > 0 && !this.open[this.open.length - 1].literal.multiline) this.closeHole(this.pos, this.pos, true);
    }
    if (this.open.length > 0) return;
    if (this.language === 'python' && this.depth > 0) return;
    const last = this.sink[this.sink.length - 1];
    if (!last || last.type === 'newline') return;
    this.sink.push({ type: 'newline', start: this.pos, end: this.pos, value: '\n' });
  }

  private skipLine() {
    const end = this.text.indexOf('\n', this.pos);
    this.pos = end === -1 ? this.text.length : end;
  }

  private lexName(): boolean {
    const value = stickyMatch(NAME, this.text, this.pos);
    if (!value) return false;
    this.sink.push({ type: 'name', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
    return true;
  }

  private lexNumber(): boolean {
    const value = stickyMatch(NUMBER, this.text, this.pos);
    if (!value) return false;
    this.sink.push({ type: 'other', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
    return true;
  }

  private lexPunct() {
    const value = stickyMatch(this.language === 'python' ? PY_PUNCT_RE : TS_PUNCT_RE, this.text, this.pos) ?? this.text[this.pos];
    this.sink.push({ type: 'punct', start: this.pos, end: this.pos + value.length, value });
    this.pos += value.length;
  }

  /** The last token that is not a line end. */
  private previous(): Token | undefined {
    for (let i = this.sink.length - 1; i >= 0; i--) if (this.sink[i].type !== 'newline') return this.sink[i];
    return undefined;
  }

  /** A `/` starts a regular expression where an operand is expected (TypeScript only). */
  private lexRegex(): boolean {
    const { text } = this;
    if (this.language !== 'typescript' || text[this.pos] !== '/') return false;
    const prev = this.previous();
    const operandExpected =
      !prev || (prev.type === 'punct' && !/^[)\]}]$/.test(prev.value)) || (prev.type === 'name' && REGEX_AFTER_NAME.has(prev.value));
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
    this.sink.push({ type: 'other', start, end: i, value: text.slice(start, i) });
    return true;
  }

  /** Starts a string literal at `pos` when one begins there, and scans it up to its end or its first interpolation. */
  private lexString(): boolean {
    const { text } = this;
    const start = this.pos;
    let prefix = '';
    if (this.language === 'python') {
      const match = stickyMatch(PY_PREFIX, text, this.pos);
      if (match === undefined) return false;
      prefix = match.toLowerCase();
    } else if (!/['"`]/.test(text[this.pos])) return false;
    const i = this.pos + prefix.length;
    const q = text[i];
    const triple = this.language === 'python' && text.startsWith(q.repeat(3), i);
    const quote = triple ? q.repeat(3) : q;
    const template = this.language === 'typescript' ? q === '`' : prefix.includes('f') || prefix.includes('t');
    const literal: StringLiteral = {
      language: this.language, start, end: start, contentStart: i + quote.length, contentEnd: i + quote.length, quote, prefix,
      raw: prefix.includes('r'), template, multiline: triple || q === '`', bytes: prefix.includes('b'), terminated: false, holes: [],
    };
    this.scanString(literal, this.sink, i + quote.length);
    return true;
  }

  /**
   * Scans literal content from `from`: on its closing quote (or the end of its line or file) the literal is done and
   * its token goes to `owner`; on an interpolation the lexer switches to code inside it (closeHole resumes here).
   */
  private scanString(literal: StringLiteral, owner: Token[], from: number): void {
    const { text, language } = this;
    const { quote, template, multiline } = literal;
    let i = from;
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
        this.finishString(literal, owner, i);
        return;
      }
      if (c === '\n' && !multiline) break;
      if (template && language === 'typescript' && text.startsWith('${', i)) {
        this.openHole(literal, owner, i, i + 2);
        return;
      }
      if (template && language === 'python' && c === '{') {
        if (text[i + 1] === '{') {
          i += 2;
          continue;
        }
        this.openHole(literal, owner, i, i + 1);
        return;
      }
      i++;
    }
    literal.contentEnd = Math.min(i, text.length);
    this.finishString(literal, owner, Math.min(i, text.length));
  }

  private finishString(literal: StringLiteral, owner: Token[], end: number): void {
    literal.end = end;
    this.pos = end;
    owner.push({ type: 'string', start: literal.start, end, literal });
  }

  private openHole(literal: StringLiteral, owner: Token[], start: number, exprStart: number): void {
    this.open.push({ literal, owner, start, exprStart, outerTokens: this.sink, outerDepth: this.depth });
    this.sink = [];
    this.depth = 0;
    this.pos = exprStart;
  }

  /**
   * Closes the innermost interpolation at `close` (its `}`, or where it was cut off), records it on its literal and
   * resumes scanning the literal after it; `cut` ends the literal there too (a single-line literal hit a line end).
   */
  private closeHole(close: number, resume: number, cut = false): void {
    const hole = this.open.pop()!;
    const exprEnd = this.language === 'python' ? pythonFieldExpressionEnd(this.sink, close) : close;
    hole.literal.holes.push({ start: hole.start, end: Math.min(resume, this.text.length), exprStart: hole.exprStart, exprEnd, tokens: this.sink });
    this.sink = hole.outerTokens;
    this.depth = hole.outerDepth;
    if (cut || resume >= this.text.length) {
      hole.literal.contentEnd = Math.min(close, this.text.length);
      this.finishString(hole.literal, hole.owner, Math.min(close, this.text.length));
      this.pos = Math.min(resume, this.text.length);
      return;
    }
    this.scanString(hole.literal, hole.owner, resume);
  }
}

/** End of the expression part of an f-string field: before a top-level `!conversion`, `:spec` or `=` token. */
function pythonFieldExpressionEnd(tokens: readonly Token[], close: number): number {
  let depth = 0;
  for (const token of tokens) {
    if (token.type !== 'punct') continue;
    const v = token.value;
    if (v === '(' || v === '[' || v === '{') depth++;
    else if (v === ')' || v === ']' || v === '}') depth--;
    else if (depth === 0 && (v === '!' || v === ':' || v === '=' || v === ':=')) return token.start;
  }
  return close;
}

/** Tokenizes source text of the given language; never throws (unterminated constructs end at the line or file end). */
export function tokenize(text: string, language: CodeLanguage): Token[] {
  const lexer = new Lexer(text, language);
  lexer.run();
  return lexer.tokens;
}
