// One source file as prompt discovery sees it: scopes (module, functions, classes), the definitions of names and
// attributes, imports and exports, function parameters and returns, and every parsed expression (where sinks are
// looked for). Statements are scanned from an explicit work list, so nesting never grows the call stack.
import { tokenize, type CodeLanguage, type Token } from './lexer';
import { bracketPairs, ExprParser, type Expr, type FuncNode, type Param } from './syntax';

/** A module, function or class scope. */
export interface Scope {
  id: number;
  kind: 'module' | 'function' | 'class';
  parent: number;
  name?: string;
  /** For a method: the scope of its class. */
  classScope?: number;
  params: Param[];
  /** Returned expressions (a lambda or arrow with an expression body returns it). */
  returns: Expr[];
  decorators: Expr[];
  start: number;
  /** For a class: the classes it extends as written (`pkg.Base` of `class C(pkg.Base)`, `Base` of `class C extends Base`). */
  bases?: string[];
}

/** A value given to a name, attribute or item. */
export interface Def {
  value: Expr;
  scope: number;
  start: number;
  /** `x += value`: the value is appended to the earlier ones. */
  augment?: boolean;
  /** A comprehension's loop name: bound only inside the comprehension (its start and end offsets), as in Python 3. */
  within?: readonly [number, number];
}

/** A name bound by an import: a whole module (`name` undefined) or one name from it. */
export interface ImportBinding {
  module: string;
  name?: string;
}

/** What a TypeScript module exports under one name: a local name, or a name of another module. */
export interface ExportBinding {
  local?: string;
  module?: string;
  name?: string;
}

/** An expression with the scope it is evaluated in. */
export interface Rooted {
  expr: Expr;
  scope: number;
}

/** The scanned file. */
export interface ModuleSummary {
  language: CodeLanguage;
  text: string;
  scopes: Scope[];
  /** Definitions by scope and name (`${scope}:${name}`). */
  defs: Map<string, Def[]>;
  /** Attribute definitions by class scope and attribute (`self.x = ...`, class attributes). */
  attrDefs: Map<string, Def[]>;
  /** `obj["key"] = value` and `obj.key = value` outside classes. */
  itemDefs: { obj: Expr; key: string; value: Expr; scope: number }[];
  imports: Map<string, ImportBinding>;
  exports: Map<string, ExportBinding>;
  starExports: string[];
  /** Functions by name (declarations, methods, named function values). */
  functions: Map<string, number[]>;
  classes: Map<string, number>;
  /** Every parsed expression, for the sink walk. */
  roots: Rooted[];
}

/** The key of a name in a scope. */
export function defKey(scope: number, name: string): string {
  return `${scope}:${name}`;
}

/** Sub-expressions of an expression (one level). */
export function children(e: Expr): Expr[] {
  switch (e.k) {
    case 'str':
      return e.holes.map((h) => h.expr);
    case 'concat':
      return e.parts;
    case 'attr':
      return [e.obj];
    case 'index':
      return [e.obj, e.index];
    case 'call':
      return [e.callee, ...e.args.map((a) => a.value)];
    case 'list':
      return e.items;
    case 'dict':
      return e.entries.map((x) => x.value);
    case 'cond':
      return e.options;
    case 'format':
      return [e.template, ...e.args.map((a) => a.value)];
    case 'elem':
      return [e.of];
    case 'other':
      return e.parts;
    case 'func':
      return 'expr' in e.fn.body ? [e.fn.body.expr, ...e.fn.params.flatMap((p) => (p.default ? [p.default] : []))] : e.fn.params.flatMap((p) => (p.default ? [p.default] : []));
    case 'name':
      return [];
  }
}

/** Calls `visit` on an expression and every sub-expression, without recursion. */
export function walk(root: Expr, visit: (e: Expr) => void): void {
  const stack = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    visit(e);
    const kids = children(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

/** A range of tokens to scan as statements of a scope. */
interface Work {
  parser: ExprParser;
  from: number;
  to: number;
  scope: number;
  classBody?: boolean;
}

const TS_SKIP_WORDS = new Set(['else', 'try', 'finally', 'do', 'break', 'continue', 'debugger', 'abstract', 'declare']);
const TS_MEMBER_MODIFIERS = new Set(['public', 'private', 'protected', 'static', 'readonly', 'abstract', 'override', 'declare', 'async', 'get', 'set', 'accessor']);

class ModuleScanner {
  readonly summary: ModuleSummary;
  private readonly work: Work[] = [];
  private readonly parsers = new WeakMap<readonly Token[], ExprParser>();
  private readonly funcs: FuncNode[] = [];

  constructor(text: string, language: CodeLanguage) {
    this.summary = {
      language, text, scopes: [], defs: new Map(), attrDefs: new Map(), itemDefs: [], imports: new Map(), exports: new Map(), starExports: [],
      functions: new Map(), classes: new Map(), roots: [],
    };
  }

  run(): ModuleSummary {
    const { text, language } = this.summary;
    const tokens = tokenize(text, language);
    const parser = new ExprParser(text, tokens, language, bracketPairs(tokens));
    this.parsers.set(tokens, parser);
    this.addScope('module', -1, 0);
    this.work.push({ parser, from: 0, to: tokens.length, scope: 0 });
    while (this.work.length > 0) {
      const item = this.work.pop()!;
      if (language === 'python') this.scanPython(item);
      else if (item.classBody) this.scanTsClass(item);
      else this.scanTs(item);
    }
    // Bodies are scanned: drop their token lists so a kept summary does not hold the whole file's tokens.
    for (const fn of this.funcs) if (!('expr' in fn.body)) fn.body = { from: fn.body.from, to: fn.body.to, tokens: [] };
    return this.summary;
  }

  private addScope(kind: Scope['kind'], parent: number, start: number, name?: string): Scope {
    const scope: Scope = { id: this.summary.scopes.length, kind, parent, name, params: [], returns: [], decorators: [], start };
    this.summary.scopes.push(scope);
    return scope;
  }

  private addDef(scope: number, name: string, def: Def): void {
    push(this.summary.defs, defKey(scope, name), def);
  }

  private addFunctionName(name: string, scope: number): void {
    push(this.summary.functions, name, scope);
  }

  /** The function scope a statement in `scope` returns from (undefined at module or class level). */
  private functionOf(scope: number): Scope | undefined {
    const s = this.summary.scopes[scope];
    return s?.kind === 'function' ? s : undefined;
  }

  /** Records a parsed expression and registers the functions written inside it. */
  private root(expr: Expr, scope: number, parser: ExprParser): void {
    this.summary.roots.push({ expr, scope });
    walk(expr, (e) => {
      if (e.k === 'func' && e.fn.scope === undefined) this.registerFunc(e, scope, parser);
      // Comprehension names are local to it in Python 3: bound in the enclosing scope, seen only inside the comprehension.
      if (e.k === 'list' && e.bindings) for (const b of e.bindings) this.bindLoop(b.names, b.iter, scope, [e.start, e.end]);
    });
  }

  /** The parser of a token list: the file's, or one made for an interpolation's tokens. */
  private parserFor(tokens: readonly Token[], fallback: ExprParser): ExprParser {
    if (tokens === fallback.tokens) return fallback;
    let parser = this.parsers.get(tokens);
    if (!parser) {
      parser = new ExprParser(this.summary.text, tokens, this.summary.language);
      this.parsers.set(tokens, parser);
    }
    return parser;
  }

  /** Registers a function written in an expression and queues its body. */
  private registerFunc(e: Extract<Expr, { k: 'func' }>, parent: number, parser: ExprParser): Scope {
    const fn = e.fn;
    const scope = this.addScope('function', parent, e.start, fn.name);
    scope.params = fn.params;
    fn.scope = scope.id;
    this.funcs.push(fn);
    if (fn.name) this.addFunctionName(fn.name, scope.id);
    if ('expr' in fn.body) scope.returns.push(fn.body.expr);
    else this.work.push({ parser: this.parserFor(fn.body.tokens, parser), from: fn.body.from, to: fn.body.to, scope: scope.id });
    return scope;
  }

  /** Assigns `value` to a target expression in `scope`. */
  private assign(target: Expr, value: Expr, scope: number, augment = false): void {
    const s = this.summary.scopes[scope];
    if (target.k === 'name') {
      this.addDef(scope, target.id, { value, scope, start: target.start, augment });
      if (value.k === 'func') {
        value.fn.name ??= target.id;
        if (value.fn.scope !== undefined) {
          this.summary.scopes[value.fn.scope].name ??= target.id;
          this.addFunctionName(target.id, value.fn.scope);
        }
      }
      return;
    }
    if (target.k === 'attr' && target.obj.k === 'name' && (target.obj.id === 'self' || target.obj.id === 'this' || target.obj.id === 'cls')) {
      const classScope = s?.kind === 'class' ? scope : s?.classScope ?? this.enclosingClass(scope);
      if (classScope !== undefined) {
        push(this.summary.attrDefs, defKey(classScope, target.name), { value, scope, start: target.start, augment });
        return;
      }
    }
    if (target.k === 'attr') {
      this.summary.itemDefs.push({ obj: target.obj, key: target.name, value, scope });
      return;
    }
    if (target.k === 'index' && target.index.k === 'str' && target.index.holes.length === 0) {
      const key = this.summary.text.slice(target.index.literal.contentStart, target.index.literal.contentEnd);
      this.summary.itemDefs.push({ obj: target.obj, key, value, scope });
      return;
    }
    if (target.k === 'list') {
      // Each name takes its own position (`_, parsed, body = data`) unless one is starred (`first, *rest = data`).
      const positional = target.items.every((item) => item.k === 'name' || item.k === 'attr' || item.k === 'index');
      target.items.forEach((item, i) => this.assign(item, { k: 'elem', start: value.start, end: value.end, of: value, ...(positional ? { at: i } : {}) }, scope));
    }
  }

  /**
   * Binds the targets of a `for` loop to elements of what it iterates; the index of `enumerate(xs)` / `xs.entries()`
   * and the key of `Object.entries(o)` / `d.items()` are numbers and keys, not elements.
   */
  private bindLoop(names: { id: string; start: number }[], iter: Expr, scope: number, within?: readonly [number, number]): void {
    let source = iter;
    let skipFirst = false;
    if (iter.k === 'call') {
      const callee = iter.callee;
      const name = callee.k === 'name' ? callee.id : callee.k === 'attr' ? callee.name : '';
      if ((name === 'enumerate' || name === 'entries' || name === 'items') && names.length > 1) {
        skipFirst = true;
        source = callee.k === 'attr' && name !== 'entries' ? callee.obj : callee.k === 'attr' && callee.obj.k !== 'name' ? callee.obj : iter.args[0]?.value ?? (callee.k === 'attr' ? callee.obj : iter);
        if (callee.k === 'attr' && name === 'entries' && !(callee.obj.k === 'name' && callee.obj.id === 'Object')) source = callee.obj;
      }
    }
    names.forEach((n, i) => {
      const value: Expr = skipFirst && i === 0 ? { k: 'other', start: n.start, end: n.start, parts: [] } : { k: 'elem', start: source.start, end: source.end, of: source };
      this.addDef(scope, n.id, { value, scope, start: n.start, ...(within ? { within } : {}) });
    });
  }

  /** `xs.append(v)` / `xs.push(v)` / `xs.extend(vs)`: the list gets the values (for what flows out of it later). */
  private mutation(value: Expr, scope: number): void {
    if (value.k !== 'call' || value.callee.k !== 'attr') return;
    const method = value.callee.name;
    if (!['append', 'push', 'extend', 'unshift', 'insert', 'add'].includes(method)) return;
    const target = value.callee.obj;
    if (target.k !== 'name' && target.k !== 'attr') return;
    const args = value.args.filter((a) => a.name === undefined).map((a) => a.value);
    const items = method === 'insert' ? args.slice(1) : args;
    const added: Expr = method === 'extend' && items[0] ? items[0] : { k: 'list', start: value.start, end: value.end, items, tuple: false };
    this.assign(target, added, scope, true);
  }

  private enclosingClass(scope: number): number | undefined {
    for (let s = this.summary.scopes[scope]; s; s = this.summary.scopes[s.parent]) {
      if (s.classScope !== undefined) return s.classScope;
      if (s.kind === 'class') return s.id;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- Python

  private column(offset: number): number {
    const text = this.summary.text;
    return offset - (text.lastIndexOf('\n', offset - 1) + 1);
  }

  /** Index of the first line end (or `;`) at or after `i`, before `to`. */
  private statementEnd(p: ExprParser, i: number, to: number): number {
    for (let j = i; j < to; j++) {
      const t = p.tokens[j];
      if (t.type === 'newline' || (t.type === 'punct' && t.value === ';')) return j;
      if (t.type === 'punct' && (t.value === '(' || t.value === '[' || t.value === '{')) j = p.after(j) - 1;
    }
    return to;
  }

  /** Index of the first statement after an indented block whose header line ends at `lineEnd`. */
  private blockEnd(p: ExprParser, lineEnd: number, indent: number, to: number): number {
    let j = lineEnd;
    while (j < to) {
      while (j < to && p.tokens[j].type === 'newline') j++;
      if (j >= to) return to;
      if (this.column(p.tokens[j].start) <= indent) return j;
      let k = j;
      for (;;) {
        k = this.statementEnd(p, k, to);
        if (k >= to || p.tokens[k].type === 'newline') break;
        k++;
      }
      j = k;
    }
    return to;
  }

  /** Index of the `:` ending a compound statement header that starts at `i` (or the statement end). */
  private headerColon(p: ExprParser, i: number, end: number): number {
    for (let j = i; j < end; j++) {
      if (p.is(':', j)) return j;
      if (p.is('(', j) || p.is('[', j) || p.is('{', j)) j = p.after(j) - 1;
      if (p.is('lambda', j)) {
        // A lambda's own colon is not the header's.
        for (j++; j < end && !p.is(':', j); j++) if (p.is('(', j) || p.is('[', j)) j = p.after(j) - 1;
      }
    }
    return end;
  }

  private parseList(p: ExprParser, end: number): Expr {
    const items: Expr[] = [];
    const start = p.tok()?.start ?? 0;
    let comma = false;
    while (p.pos < end) {
      const before = p.pos;
      items.push(p.expression());
      if (p.pos === before) break;
      if (p.is(',') && p.pos < end) {
        comma = true;
        p.pos++;
      } else break;
    }
    if (items.length === 1 && !comma) return items[0];
    return { k: 'list', start, end: items[items.length - 1]?.end ?? start, items, tuple: true };
  }

  private scanPython(work: Work): void {
    const p = work.parser;
    const { scope } = work;
    let decorators: Expr[] = [];
    let i = work.from;
    while (i < work.to) {
      const t = p.tokens[i];
      if (t.type === 'newline' || (t.type === 'punct' && t.value === ';')) {
        i++;
        continue;
      }
      const end = this.statementEnd(p, i, work.to);
      let kw = p.val(i);
      let at = i;
      if (kw === 'async' && (p.is('def', i + 1) || p.is('for', i + 1) || p.is('with', i + 1))) {
        at = i + 1;
        kw = p.val(at);
      }
      if (t.type === 'punct' && t.value === '@') {
        p.pos = i + 1;
        const decorator = p.expression();
        decorators.push(decorator);
        this.root(decorator, scope, p);
        i = end;
        continue;
      }
      if (kw === 'def' || kw === 'class') {
        const nameTok = p.tokens[at + 1];
        const name = nameTok?.type === 'name' ? nameTok.value : undefined;
        let j = at + 2;
        let params: Param[] = [];
        let bases: string[] | undefined;
        if (p.is('(', j)) {
          if (kw === 'def') params = p.paramList(j);
          else {
            p.pos = j;
            const header = p.primary();
            this.root(header, scope, p);
            bases = baseNames(header.k === 'list' ? header.items : [header]);
          }
          j = p.after(j);
        }
        const colon = this.headerColon(p, j, end);
        const bodyFrom = colon + 1;
        const bodyTo = bodyFrom < end ? end : this.blockEnd(p, end, this.column(t.start), work.to);
        const s = this.addScope(kw === 'def' ? 'function' : 'class', scope, t.start, name);
        if (kw === 'def') {
          s.params = params;
          s.decorators = decorators;
          const parent = this.summary.scopes[scope];
          if (parent.kind === 'class') s.classScope = scope;
          if (name) {
            this.addFunctionName(name, s.id);
            const fn: FuncNode = { params, body: { from: bodyFrom, to: bodyTo, tokens: [] }, name, scope: s.id };
            this.addDef(scope, name, { value: { k: 'func', start: t.start, end: t.end, fn }, scope, start: t.start });
          }
          for (const param of params) if (param.default) this.root(param.default, scope, p);
        } else {
          s.bases = bases;
          if (name) this.summary.classes.set(name, s.id);
        }
        decorators = [];
        this.work.push({ parser: p, from: bodyFrom, to: bodyTo, scope: s.id });
        i = bodyTo;
        continue;
      }
      decorators = [];
      if (kw === 'import' || kw === 'from') {
        this.pyImport(p, i, end);
        i = end;
        continue;
      }
      if (kw === 'return' || kw === 'yield') {
        p.pos = i + 1;
        if (p.is('from')) p.pos++;
        if (p.pos < end) {
          const value = this.parseList(p, end);
          this.functionOf(scope)?.returns.push(value);
          this.root(value, scope, p);
        }
        i = end;
        continue;
      }
      if (kw === 'for') {
        const inAt = this.findWord(p, at + 1, end, 'in');
        const colon = this.headerColon(p, inAt, end);
        p.pos = inAt + 1;
        const iter = this.parseList(p, colon);
        this.root(iter, scope, p);
        const names: { id: string; start: number }[] = [];
        for (let j = at + 1; j < inAt; j++) {
          const n = p.tokens[j];
          if (n.type === 'name') names.push({ id: n.value, start: n.start });
        }
        this.bindLoop(names, iter, scope);
        i = colon + 1;
        continue;
      }
      if (kw === 'with') {
        const colon = this.headerColon(p, at + 1, end);
        p.pos = at + 1;
        while (p.pos < colon) {
          const before = p.pos;
          const item = p.expression();
          this.root(item, scope, p);
          if (p.is('as')) {
            p.pos++;
            const n = p.tok();
            if (n?.type === 'name') this.addDef(scope, n.value, { value: item, scope, start: n.start });
            p.pos++;
          }
          if (p.is(',')) p.pos++;
          if (p.pos === before) p.pos++;
        }
        i = colon + 1;
        continue;
      }
      if (kw === 'if' || kw === 'elif' || kw === 'while' || kw === 'else' || kw === 'try' || kw === 'finally' || kw === 'except' || kw === 'case' || (kw === 'match' && p.tokens[at + 1]?.type !== 'punct')) {
        const colon = this.headerColon(p, at + 1, end);
        if (kw !== 'except' && kw !== 'case') {
          p.pos = at + 1;
          while (p.pos < colon) {
            const before = p.pos;
            this.root(p.expression(), scope, p);
            if (p.pos === before) p.pos++;
          }
        }
        i = colon + 1;
        continue;
      }
      if (kw === 'global' || kw === 'nonlocal' || kw === 'pass' || kw === 'break' || kw === 'continue' || kw === 'del' || kw === 'raise' || kw === 'assert' || kw === 'await') {
        p.pos = kw === 'await' ? i : i + 1;
        while (p.pos < end) {
          const before = p.pos;
          this.root(p.expression(), scope, p);
          if (p.pos === before) p.pos++;
        }
        i = end;
        continue;
      }
      // An expression statement or an assignment (`a = b = value`, `a: T = value`, `a += value`).
      p.pos = i;
      const targets: Expr[] = [];
      let value = this.parseList(p, end);
      let augment = false;
      for (;;) {
        if (p.is(':') && p.pos < end) {
          p.pos = p.pySkipAnnotation(end);
          if (!p.is('=')) {
            value = { k: 'other', start: value.start, end: value.end, parts: [] };
            break;
          }
        }
        if (p.is('=') && p.pos < end) {
          p.pos++;
          targets.push(value);
          value = this.parseList(p, end);
          continue;
        }
        if (p.is('+=') && p.pos < end) {
          p.pos++;
          targets.push(value);
          augment = true;
          value = this.parseList(p, end);
        }
        break;
      }
      for (const target of targets) this.assign(target, value, scope, augment);
      if (targets.length === 0) this.mutation(value, scope);
      this.root(value, scope, p);
      i = Math.max(end, i + 1);
    }
  }

  private findWord(p: ExprParser, from: number, to: number, word: string): number {
    for (let j = from; j < to; j++) {
      if (p.is(word, j)) return j;
      if (p.is('(', j) || p.is('[', j) || p.is('{', j)) j = p.after(j) - 1;
    }
    return to;
  }

  private pyImport(p: ExprParser, i: number, end: number): void {
    const dotted = (j: number): { name: string; next: number } => {
      let name = '';
      while (j < end && (p.is('.', j) || p.tokens[j].type === 'name' || p.is('...', j))) {
        // `from . import prompt`: the keyword ends the module name even right after its dots.
        if (p.tokens[j].type === 'name' && ((name !== '' && !name.endsWith('.')) || p.is('import', j))) break;
        name += p.val(j);
        j++;
      }
      return { name, next: j };
    };
    if (p.is('import', i)) {
      let j = i + 1;
      while (j < end) {
        const { name, next } = dotted(j);
        j = next;
        let local = name.split('.')[0];
        let module = local;
        if (p.is('as', j) && p.tokens[j + 1]?.type === 'name') {
          local = p.val(j + 1)!;
          module = name;
          j += 2;
        }
        if (local) this.summary.imports.set(local, { module });
        if (!p.is(',', j)) break;
        j++;
      }
      return;
    }
    const { name: module, next } = dotted(i + 1);
    let j = next;
    if (!p.is('import', j)) return;
    j++;
    if (p.is('(', j)) j++;
    while (j < end) {
      const n = p.tokens[j];
      if (n.type === 'punct' && n.value === '*') {
        this.summary.starExports.push(module);
        j++;
      } else if (n.type === 'name') {
        let local = n.value;
        if (p.is('as', j + 1) && p.tokens[j + 2]?.type === 'name') {
          local = p.val(j + 2)!;
          j += 2;
        }
        this.summary.imports.set(local, { module, name: n.value });
        j++;
      } else j++;
    }
  }

  // ---------------------------------------------------------------- TypeScript

  private scanTs(work: Work): void {
    const p = work.parser;
    const { scope } = work;
    let i = work.from;
    while (i < work.to) {
      const t = p.tokens[i];
      if (t.type === 'newline' || (t.type === 'punct' && (t.value === ';' || t.value === '}' || t.value === '{' || t.value === ')' || t.value === ']'))) {
        i++;
        continue;
      }
      const next = this.tsStatement(p, i, work.to, scope);
      i = Math.max(next, i + 1);
    }
  }

  /** Scans one statement at `i`; returns the index after it. */
  private tsStatement(p: ExprParser, i: number, to: number, scope: number): number {
    let kw = p.val(i);
    if (kw === 'export') {
      i++;
      if (p.is('default', i)) {
        i++;
        if (!p.is('function', i) && !p.is('class', i) && !p.is('async', i) && !p.is('abstract', i)) {
          p.pos = i;
          const value = p.expression();
          if (value.k !== 'name') this.addDef(scope, '*default*', { value, scope, start: value.start });
          this.summary.exports.set('default', value.k === 'name' ? { local: value.id } : { local: '*default*' });
          this.root(value, scope, p);
          return p.pos;
        }
      } else if (p.is('{', i) || p.is('*', i)) return this.tsExportList(p, i);
      kw = p.val(i);
    }
    if (kw === 'declare') return this.skipStatement(p, i + 1, to);
    if (kw === 'import' && !p.is('(', i + 1) && !p.is('.', i + 1)) return this.tsImport(p, i, to);
    if (kw === 'const' || kw === 'let' || kw === 'var' || (kw === 'using' && p.tokens[i + 1]?.type === 'name')) return this.tsDeclaration(p, i + 1, to, scope);
    if (kw === 'async' && p.is('function', i + 1)) {
      i++;
      kw = 'function';
    }
    if (kw === 'function') return this.tsFunctionDeclaration(p, i, scope);
    if (kw === 'abstract' && p.is('class', i + 1)) {
      i++;
      kw = 'class';
    }
    if (kw === 'class') return this.tsClass(p, i, scope);
    if (kw === 'interface' || kw === 'enum') {
      let j = i;
      while (j < to && !p.is('{', j)) j++;
      return p.after(j);
    }
    if (kw === 'type' && p.tokens[i + 1]?.type === 'name' && (p.is('=', i + 2) || p.is('<', i + 2))) {
      let j = i + 2;
      if (p.is('<', j)) j = p.skipTypeParams(j + 1);
      return p.skipType(j + 1);
    }
    if ((kw === 'namespace' || kw === 'module') && p.tokens[i + 1]?.type !== 'punct') {
      let j = i + 1;
      while (j < to && !p.is('{', j)) j++;
      return j + 1;
    }
    if (kw === 'return' || kw === 'throw' || kw === 'yield') {
      p.pos = i + 1;
      if (p.is('*')) p.pos++;
      const t = p.tok();
      if (!t || t.type === 'newline' || p.is(';') || p.is('}')) return i + 1;
      const value = p.expression();
      if (kw === 'return') this.functionOf(scope)?.returns.push(value);
      this.root(value, scope, p);
      return p.pos;
    }
    if (kw === 'for' && (p.is('(', i + 1) || (p.is('await', i + 1) && p.is('(', i + 2)))) {
      const open = p.is('(', i + 1) ? i + 1 : i + 2;
      const close = p.after(open) - 1;
      const of = this.findOfIn(p, open + 1, close);
      if (of !== undefined) {
        p.pos = of + 1;
        const iter = p.expression();
        this.root(iter, scope, p);
        const names: { id: string; start: number }[] = [];
        for (let j = open + 1; j < of; j++) {
          const n = p.tokens[j];
          if (n.type === 'name' && !['const', 'let', 'var', 'await'].includes(n.value)) names.push({ id: n.value, start: n.start });
        }
        this.bindLoop(names, iter, scope);
      } else this.rootsIn(p, open + 1, close, scope);
      return close + 1;
    }
    if ((kw === 'if' || kw === 'while' || kw === 'switch' || kw === 'with' || kw === 'catch') && p.is('(', i + 1)) {
      const close = p.after(i + 1) - 1;
      if (kw !== 'catch') this.rootsIn(p, i + 2, close, scope);
      return close + 1;
    }
    if (kw !== undefined && TS_SKIP_WORDS.has(kw) && p.tokens[i].type === 'name') return i + 1;
    if (kw === 'case') {
      p.pos = i + 1;
      this.root(p.expression(), scope, p);
      return p.is(':') ? p.pos + 1 : p.pos;
    }
    if (kw === 'default' && p.is(':', i + 1)) return i + 2;
    if (p.tokens[i].type === 'name' && p.is(':', i + 1) && !p.is('?', i - 1)) return i + 2; // a label
    if (p.is('@', i)) {
      p.pos = i + 1;
      this.root(p.expression(), scope, p);
      return p.pos;
    }
    // An expression statement, possibly an assignment chain.
    p.pos = i;
    let value = p.expression();
    const targets: Expr[] = [];
    let augment = false;
    while (p.is('=') || p.is('+=') || p.is('??=') || p.is('||=')) {
      augment = !p.is('=');
      p.pos++;
      targets.push(value);
      value = p.expression();
    }
    for (const target of targets) this.assign(target, value, scope, augment);
    if (targets.length === 0) this.mutation(value, scope);
    this.root(value, scope, p);
    return p.pos;
  }

  private skipStatement(p: ExprParser, i: number, to: number): number {
    for (let j = i; j < to; j++) {
      const t = p.tokens[j];
      if (t.type === 'newline' || p.is(';', j)) return j + 1;
      if (p.is('{', j) || p.is('(', j) || p.is('[', j)) j = p.after(j) - 1;
    }
    return to;
  }

  private rootsIn(p: ExprParser, from: number, to: number, scope: number): void {
    p.pos = from;
    while (p.pos < to) {
      const before = p.pos;
      const e = p.expression();
      this.root(e, scope, p);
      if (p.is('=') && p.pos < to) {
        p.pos++;
        const value = p.expression();
        this.assign(e, value, scope);
        this.root(value, scope, p);
      }
      if (p.pos === before) p.pos++;
    }
  }

  /** Index of the `of`/`in` keyword of a `for (x of y)` head, when it has one. */
  private findOfIn(p: ExprParser, from: number, to: number): number | undefined {
    for (let j = from; j < to; j++) {
      if (p.is(';', j)) return undefined;
      if ((p.is('of', j) || p.is('in', j)) && j > from) return j;
      if (p.is('(', j) || p.is('[', j) || p.is('{', j)) j = p.after(j) - 1;
    }
    return undefined;
  }

  private tsImport(p: ExprParser, i: number, to: number): number {
    let j = i + 1;
    if (p.is('type', j) && !p.is('from', j + 1) && !p.is(',', j + 1)) j++;
    const bindings: [string, string | undefined][] = [];
    let stop = j;
    while (stop < to && p.tokens[stop].type !== 'string') {
      if (p.tokens[stop].type === 'newline' && bindings.length === 0 && stop > j + 40) break;
      stop++;
    }
    const specTok = p.tokens[stop];
    if (specTok?.type !== 'string') return this.skipStatement(p, i, to);
    const module = p.text.slice(specTok.literal.contentStart, specTok.literal.contentEnd);
    // import x = require('m')
    if (p.tokens[j]?.type === 'name' && p.is('=', j + 1)) {
      this.summary.imports.set(p.val(j)!, { module });
      return stop + 1;
    }
    for (let k = j; k < stop; k++) {
      const n = p.tokens[k];
      if (n.type === 'punct' && n.value === '*' && p.is('as', k + 1)) {
        bindings.push([p.val(k + 2)!, undefined]);
        k += 2;
      } else if (n.type === 'punct' && n.value === '{') {
        const close = p.after(k) - 1;
        for (let m = k + 1; m < close; m++) {
          const x = p.tokens[m];
          if (x.type === 'name' && x.value === 'type' && p.tokens[m + 1]?.type === 'name' && !p.is('as', m + 1)) continue;
          let imported: string;
          if (x.type === 'name') imported = x.value;
          else if (x.type === 'string') imported = p.text.slice(x.literal.contentStart, x.literal.contentEnd);
          else continue;
          let local = imported;
          if (p.is('as', m + 1) && p.tokens[m + 2]?.type === 'name') {
            local = p.val(m + 2)!;
            m += 2;
          }
          bindings.push([local, imported]);
        }
        k = close;
      } else if (n.type === 'name' && n.value !== 'from' && n.value !== 'type') {
        bindings.push([n.value, 'default']);
      }
    }
    for (const [local, name] of bindings) this.summary.imports.set(local, { module, name });
    return stop + 1;
  }

  private tsExportList(p: ExprParser, i: number): number {
    if (p.is('*', i)) {
      let j = i + 1;
      let alias: string | undefined;
      if (p.is('as', j)) {
        alias = p.val(j + 1);
        j += 2;
      }
      if (p.is('from', j) && p.tokens[j + 1]?.type === 'string') {
        const s = p.tokens[j + 1] as { literal: { contentStart: number; contentEnd: number } };
        const module = p.text.slice(s.literal.contentStart, s.literal.contentEnd);
        if (alias) this.summary.exports.set(alias, { module });
        else this.summary.starExports.push(module);
        return j + 2;
      }
      return j;
    }
    const close = p.after(i) - 1;
    const pairs: [string, string][] = [];
    for (let m = i + 1; m < close; m++) {
      const x = p.tokens[m];
      if (x.type !== 'name' || (x.value === 'type' && p.tokens[m + 1]?.type === 'name' && !p.is('as', m + 1))) continue;
      let exported = x.value;
      if (p.is('as', m + 1) && p.tokens[m + 2]?.type === 'name') {
        exported = p.val(m + 2)!;
        m += 2;
      }
      pairs.push([exported, x.value]);
    }
    let j = close + 1;
    let module: string | undefined;
    if (p.is('from', j) && p.tokens[j + 1]?.type === 'string') {
      const s = p.tokens[j + 1] as { literal: { contentStart: number; contentEnd: number } };
      module = p.text.slice(s.literal.contentStart, s.literal.contentEnd);
      j += 2;
    }
    for (const [exported, local] of pairs) this.summary.exports.set(exported, module ? { module, name: local } : { local });
    return j;
  }

  private tsDeclaration(p: ExprParser, i: number, to: number, scope: number): number {
    p.pos = i;
    for (;;) {
      const t = p.tok();
      if (!t) return p.pos;
      let pattern: Expr | undefined;
      let fields: [string, string][] | undefined;
      if (t.type === 'name') {
        pattern = { k: 'name', start: t.start, end: t.end, id: t.value };
        p.pos++;
      } else if (p.is('{') || p.is('[')) {
        const open = p.pos;
        const close = p.after(open) - 1;
        fields = [];
        const isObject = p.is('{');
        let index = 0;
        for (let m = open + 1; m < close; m++) {
          const x = p.tokens[m];
          if (p.is('{', m) || p.is('[', m)) {
            m = p.after(m) - 1;
            continue;
          }
          if (x.type !== 'name') {
            if (p.is(',', m)) index++;
            continue;
          }
          if (isObject && p.is(':', m + 1) && p.tokens[m + 2]?.type === 'name') {
            fields.push([p.val(m + 2)!, x.value]);
            m += 2;
          } else if (!p.is(':', m - 1) && !p.is('=', m - 1)) fields.push([x.value, isObject ? x.value : `[${index}]`]);
        }
        p.pos = close + 1;
      } else return p.pos;
      if (p.is('!')) p.pos++;
      if (p.is(':')) p.pos = p.skipType(p.pos + 1);
      if (p.is('=')) {
        p.pos++;
        const value = p.expression();
        const required = this.requireOf(value);
        if (pattern?.k === 'name') {
          if (required) this.summary.imports.set(pattern.id, { module: required });
          else this.assign(pattern, value, scope);
        } else if (fields) {
          for (const [local, key] of fields) {
            if (required && !key.startsWith('[')) this.summary.imports.set(local, { module: required, name: key });
            else {
              const field: Expr = key.startsWith('[')
                ? { k: 'elem', start: value.start, end: value.end, of: value }
                : { k: 'attr', start: value.start, end: value.end, obj: value, name: key };
              this.assign({ k: 'name', start: value.start, end: value.end, id: local }, field, scope);
            }
          }
        }
        this.root(value, scope, p);
      }
      if (p.is(',') && p.pos < to) {
        p.pos++;
        while (p.tok()?.type === 'newline') p.pos++;
        continue;
      }
      return p.pos;
    }
  }

  /** The module of a `require('m')` call (also `await import('m')`). */
  private requireOf(value: Expr): string | undefined {
    if (value.k !== 'call' || value.callee.k !== 'name' || (value.callee.id !== 'require' && value.callee.id !== 'import')) return undefined;
    const arg = value.args[0]?.value;
    return arg?.k === 'str' && arg.holes.length === 0 ? this.summary.text.slice(arg.literal.contentStart, arg.literal.contentEnd) : undefined;
  }

  private tsFunctionDeclaration(p: ExprParser, i: number, scope: number): number {
    p.pos = i;
    const e = p.primary();
    if (e.k !== 'func') return p.pos;
    this.registerFunc(e, scope, p);
    if (e.fn.name) this.addDef(scope, e.fn.name, { value: e, scope, start: e.start });
    return p.pos;
  }

  private tsClass(p: ExprParser, i: number, scope: number): number {
    const nameTok = p.tokens[i + 1];
    const name = nameTok?.type === 'name' && nameTok.value !== 'extends' ? nameTok.value : undefined;
    let j = i + 1;
    let bases: string[] | undefined;
    while (j < p.tokens.length && !p.is('{', j)) {
      if (p.is('extends', j)) {
        p.pos = j + 1;
        const base = p.expression();
        this.root(base, scope, p);
        bases = baseNames([base]);
        j = Math.max(j + 1, p.pos);
        continue;
      }
      j++;
    }
    if (j >= p.tokens.length) return j;
    const s = this.addScope('class', scope, p.tokens[i].start, name);
    s.bases = bases;
    if (name) this.summary.classes.set(name, s.id);
    const to = p.after(j) - 1;
    this.work.push({ parser: p, from: j + 1, to, scope: s.id, classBody: true });
    return to + 1;
  }

  private scanTsClass(work: Work): void {
    const p = work.parser;
    const classScope = work.scope;
    let i = work.from;
    while (i < work.to) {
      const t = p.tokens[i];
      if (t.type === 'newline' || p.is(';', i) || p.is(',', i)) {
        i++;
        continue;
      }
      if (p.is('@', i)) {
        p.pos = i + 1;
        this.root(p.expression(), classScope, p);
        i = Math.max(p.pos, i + 1);
        continue;
      }
      if (t.type === 'name' && TS_MEMBER_MODIFIERS.has(t.value) && !p.is('(', i + 1) && !p.is('=', i + 1) && !p.is(':', i + 1) && !p.is(';', i + 1)) {
        i++;
        continue;
      }
      if (p.is('*', i) || p.is('#', i)) {
        i++;
        continue;
      }
      let name: string | undefined;
      if (t.type === 'name') name = t.value;
      else if (t.type === 'string') name = p.text.slice(t.literal.contentStart, t.literal.contentEnd);
      else if (p.is('[', i)) {
        i = p.after(i) - 1;
      } else if (p.is('{', i)) {
        // A static block.
        const close = p.after(i) - 1;
        const s = this.addScope('function', classScope, t.start, 'static');
        s.classScope = classScope;
        this.work.push({ parser: p, from: i + 1, to: close, scope: s.id });
        i = close + 1;
        continue;
      } else {
        i++;
        continue;
      }
      let j = i + 1;
      if (p.is('?', j) || p.is('!', j)) j++;
      if (p.is('<', j)) j = p.skipTypeParams(j + 1);
      if (p.is('(', j)) {
        const params = p.paramList(j);
        let k = p.after(j);
        if (p.is(':', k)) k = p.skipType(k + 1);
        if (!p.is('{', k)) {
          i = k;
          continue;
        }
        const s = this.addScope('function', classScope, t.start, name);
        s.params = params;
        s.classScope = classScope;
        if (name) this.addFunctionName(name, s.id);
        if (name === 'constructor') {
          // Parameter properties: `constructor(private readonly prompt: string)`.
          for (const param of params) if (param.name) push(this.summary.attrDefs, defKey(classScope, param.name), { value: { k: 'name', start: param.start, end: param.start, id: param.name }, scope: s.id, start: param.start });
        }
        const close = p.after(k) - 1;
        this.work.push({ parser: p, from: k + 1, to: close, scope: s.id });
        i = close + 1;
        continue;
      }
      if (p.is(':', j)) j = p.skipType(j + 1);
      if (p.is('=', j)) {
        p.pos = j + 1;
        const value = p.expression();
        if (name) push(this.summary.attrDefs, defKey(classScope, name), { value, scope: classScope, start: t.start });
        this.root(value, classScope, p);
        if (value.k === 'func' && value.fn.scope !== undefined) {
          this.summary.scopes[value.fn.scope].classScope = classScope;
          if (name) {
            this.summary.scopes[value.fn.scope].name ??= name;
            this.addFunctionName(name, value.fn.scope);
          }
        }
        i = Math.max(p.pos, j + 1);
        continue;
      }
      i = j;
    }
  }
}

/** The class names a class header extends: `Base` of `Base`, `pkg.Base` and `Base[T]`. */
function baseNames(headers: readonly Expr[]): string[] {
  const nameOf = (e: Expr): string | undefined => {
    if (e.k === 'name') return e.id;
    if (e.k === 'index') return nameOf(e.obj);
    if (e.k !== 'attr') return undefined;
    const owner = nameOf(e.obj);
    return owner === undefined ? undefined : `${owner}.${e.name}`;
  };
  return headers.map(nameOf).filter((n): n is string => n !== undefined);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Scans one source file. Never throws on malformed input (what does not parse becomes `other`). */
export function scanModule(text: string, language: CodeLanguage): ModuleSummary {
  return new ModuleScanner(text, language).run();
}
