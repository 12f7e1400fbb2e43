// The files of one project as prompt discovery sees them: each code file scanned on first use, imports resolved to
// other files of the same project (Python packages and relative modules, TypeScript relative imports), and an
// index of calls by callee name so a parameter can be traced to the arguments its callers pass.
import { escapeRegExp } from '../regexSafety';
import type { CodeLanguage } from './lexer';
import { scanModule, walk, type ModuleSummary, type Scope } from './module';
import type { Expr } from './syntax';

/** A code file of the project: its language and the source discovery reads (a notebook's cells joined). */
export interface CodeSource {
  path: string;
  language: CodeLanguage;
  text: string;
}

/** A call found in the project, with where it is evaluated. */
export interface CallSite {
  file: string;
  scope: number;
  call: Extract<Expr, { k: 'call' }>;
}

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The folder part of a POSIX path ('' at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}

/** Joins POSIX path segments, resolving `.` and `..` (never above the root: the result then is undefined). */
export function joinPath(base: string, relative: string): string | undefined {
  const parts = base === '' ? [] : base.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** Scanned modules kept between analyses (the editor re-analyses on every change): reused while the text is the same. */
export type ModuleCache = Map<string, { text: string; summary: ModuleSummary }>;

/** The code files of a project and what is derived from them on demand. */
export class ProjectModel {
  private readonly sources = new Map<string, CodeSource>();
  private readonly summaries = new Map<string, ModuleSummary>();
  private readonly importers = new Map<string, Set<string>>();
  private words?: Map<string, string[]>;
  /** Python files by module path (`pkg/prompts` for pkg/prompts.py and pkg/prompts/__init__.py). */
  private readonly pythonModules = new Map<string, string[]>();
  /** Imports resolved so far, by importing file and specifier. */
  private readonly resolved = new Map<string, string | undefined>();
  private readonly callIndex = new Map<string, CallSite[]>();
  /** Each file's calls by the callee's last name, built once per file (a file of 6,000 functions was walked 6,000 times). */
  private readonly fileCalls = new Map<string, Map<string, CallSite[]>>();

  constructor(
    sources: Iterable<CodeSource>,
    private readonly cache?: ModuleCache,
  ) {
    for (const source of sources) {
      this.sources.set(source.path, source);
      if (source.language === 'python' && /\.pyi?$/.test(source.path)) {
        const module = source.path.replace(/\.pyi?$/, '').replace(/\/__init__$/, '');
        const parts = module.split('/');
        // Every suffix, so `import pkg.prompts` finds src/pkg/prompts.py.
        for (let i = 0; i < parts.length; i++) push(this.pythonModules, parts.slice(i).join('/'), source.path);
      }
    }
  }

  /** Paths of every code file. */
  paths(): string[] {
    return [...this.sources.keys()];
  }

  has(path: string): boolean {
    return this.sources.has(path);
  }

  source(path: string): CodeSource | undefined {
    return this.sources.get(path);
  }

  /** The scanned module of a file (scanned once, on first use). */
  module(path: string): ModuleSummary | undefined {
    let summary = this.summaries.get(path);
    if (!summary) {
      const source = this.sources.get(path);
      if (!source) return undefined;
      const cached = this.cache?.get(path);
      summary = cached && cached.text === source.text && cached.summary.language === source.language ? cached.summary : scanModule(source.text, source.language);
      this.cache?.set(path, { text: source.text, summary });
      this.summaries.set(path, summary);
    }
    return summary;
  }

  /** Files that import `file` (so their sinks and calls may reach its literals and functions). */
  importersOf(file: string): Set<string> {
    let set = this.importers.get(file);
    if (set) return set;
    set = new Set();
    this.importers.set(file, set);
    // An importer names the module: its file name, or its package folder for an __init__ / index file.
    const parts = file.replace(/\.[^./]+$/, '').split('/');
    const stem = /^(?:__init__|index)$/.test(parts[parts.length - 1]) && parts.length > 1 ? parts[parts.length - 2] : parts[parts.length - 1];
    // A file is parsed only when a line of it could import the stem (a name such as `utils` is in thousands of files).
    const escaped = escapeRegExp(stem);
    const mayImport = new RegExp(`^[ \\t]*(?:from|import|export)\\b[^\\n]*\\b${escaped}\\b|\\b(?:from|require|import)\\s*\\(?\\s*["'][^"'\\n]*\\b${escaped}\\b|import\\s*[(\\\\]`, 'm');
    for (const path of this.filesContaining(stem)) {
      if (path === file || !mayImport.test(this.sources.get(path)!.text)) continue;
      const module = this.module(path)!;
      const specs = [...module.starExports, ...[...module.exports.values()].flatMap((e) => (e.module ? [e.module] : []))];
      if (specs.some((spec) => this.resolveModule(path, spec) === file) || [...module.imports.values()].some((b) => this.bindingTargets(path, b).includes(file))) set.add(path);
    }
    return set;
  }

  /** The project files `file` imports. */
  importsOf(file: string): Set<string> {
    const module = this.module(file);
    const out = new Set<string>();
    if (!module) return out;
    for (const binding of module.imports.values()) for (const target of this.bindingTargets(file, binding)) out.add(target);
    return out;
  }

  /** The project files an import binding of `file` names: the module, and in Python the submodule `from pkg import name` may mean. */
  private bindingTargets(file: string, binding: { module: string; name?: string }): string[] {
    const targets = [this.resolveModule(file, binding.module)];
    if (binding.name && this.sources.get(file)?.language === 'python') targets.push(this.resolveModule(file, /^\.+$/.test(binding.module) ? binding.module + binding.name : `${binding.module}.${binding.name}`));
    return targets.filter((t): t is string => t !== undefined);
  }

  /**
   * `files` with the files whose sinks can reach their literals: the files importing them (through up to `depth`
   * re-exporting modules) and the files they import (a factory defined elsewhere that receives their prompt).
   */
  neighbourhood(files: Iterable<string>, depth = 3): Set<string> {
    const out = new Set(files);
    for (const step of [(f: string) => this.importersOf(f), (f: string) => this.importsOf(f)]) {
      let frontier = [...out];
      for (let level = 0; level < depth && frontier.length > 0; level++) {
        const next: string[] = [];
        for (const file of frontier) {
          for (const other of step(file)) {
            if (out.has(other)) continue;
            out.add(other);
            next.push(other);
          }
        }
        frontier = next;
      }
    }
    return out;
  }

  /** The file an import names, from the file that imports it (undefined for packages outside the project). */
  resolveModule(from: string, spec: string): string | undefined {
    const key = `${from}\0${spec}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const source = this.sources.get(from);
    const found = !source ? undefined : source.language === 'python' ? this.resolvePython(from, spec) : this.resolveScript(from, spec);
    this.resolved.set(key, found);
    return found;
  }

  private resolvePython(from: string, spec: string): string | undefined {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
    if (dots > 0) {
      let base: string | undefined = dirOf(from);
      for (let i = 1; i < dots && base !== undefined; i++) base = joinPath(base, '..');
      if (base === undefined) return undefined;
      const target = rest ? joinPath(base, rest) : base;
      if (target === undefined) return undefined;
      for (const candidate of [`${target}.py`, `${target}/__init__.py`, `${target}.pyi`]) if (this.sources.has(candidate)) return candidate;
      return undefined;
    }
    const candidates = this.pythonModules.get(rest);
    if (!candidates || candidates.length === 0) return undefined;
    // The candidate sharing the longest folder prefix with the importing file (the shorter path on a tie), in one pass:
    // a name such as `utils` has hundreds of candidates in a monorepo.
    const a = from.split('/');
    let best = candidates[0];
    let bestShared = -1;
    for (const candidate of candidates) {
      const b = candidate.split('/');
      let n = 0;
      while (n < a.length && n < b.length && a[n] === b[n]) n++;
      if (n > bestShared || (n === bestShared && candidate.length < best.length)) [best, bestShared] = [candidate, n];
    }
    return best;
  }

  private resolveScript(from: string, spec: string): string | undefined {
    if (!spec.startsWith('.')) return undefined;
    const target = joinPath(dirOf(from), spec);
    if (target === undefined) return undefined;
    const stem = target.replace(/\.(?:[cm]?js|jsx)$/, '');
    const candidates = [target, ...TS_EXTENSIONS.map((ext) => stem + ext), ...TS_EXTENSIONS.map((ext) => `${target}/index${ext}`)];
    return candidates.find((candidate) => this.sources.has(candidate));
  }

  /** The files each identifier-like word appears in (built once, on first use, with one pass over the texts). */
  wordIndex(): Map<string, string[]> {
    if (!this.words) {
      const index = new Map<string, string[]>();
      for (const [path, source] of this.sources) {
        const seen = new Set<string>();
        for (const match of source.text.matchAll(/[A-Za-z_$][\w$]*/g)) {
          const word = match[0];
          if (seen.has(word)) continue;
          seen.add(word);
          const list = index.get(word);
          if (list) list.push(path);
          else index.set(word, [path]);
        }
      }
      this.words = index;
    }
    return this.words;
  }

  /** Paths of the files with an identifier matching `pattern` (tested once per distinct identifier). */
  filesWithWordMatching(pattern: RegExp): Set<string> {
    const out = new Set<string>();
    for (const [word, files] of this.wordIndex()) if (pattern.test(word)) for (const file of files) out.add(file);
    return out;
  }

  /** Paths of the files that contain the identifier `word` (a cheap filter before scanning). */
  filesContaining(word: string): string[] {
    return this.wordIndex().get(word) ?? [];
  }

  /** Every call in the project whose callee's last name is `name` (only files mentioning the name are scanned). */
  callsNamed(name: string): CallSite[] {
    let sites = this.callIndex.get(name);
    if (!sites) {
      sites = [...this.filesContaining(name)].flatMap((path) => this.callsIn(path).get(name) ?? []);
      this.callIndex.set(name, sites);
    }
    return sites;
  }

  /** The calls of one file by the callee's last name. */
  private callsIn(path: string): Map<string, CallSite[]> {
    let calls = this.fileCalls.get(path);
    if (!calls) {
      const found = new Map<string, CallSite[]>();
      for (const root of this.module(path)!.roots) {
        walk(root.expr, (e) => {
          const callee = e.k === 'call' ? lastName(e.callee) : undefined;
          if (e.k !== 'call' || callee === undefined) return;
          const site = { file: path, scope: root.scope, call: e };
          const list = found.get(callee);
          if (list) list.push(site);
          else found.set(callee, [site]);
        });
      }
      this.fileCalls.set(path, found);
      calls = found;
    }
    return calls;
  }

  /** The scope object of a file. */
  scope(path: string, id: number): Scope | undefined {
    return this.module(path)?.scopes[id];
  }
}

/** The last name of a callee (`create` of `client.messages.create`, `Agent` of `new Agent`). */
export function lastName(callee: Expr): string | undefined {
  if (callee.k === 'name') return callee.id;
  if (callee.k === 'attr') return callee.name;
  // A generic class subscripted with its type parameter: `Agent[Context](...)`.
  if (callee.k === 'index') return lastName(callee.obj);
  return undefined;
}

/** The first name of a callee (`client` of `client.messages.create`, `ChatAgent` of `ChatAgent`). */
export function rootName(callee: Expr): string | undefined {
  if (callee.k === 'name') return callee.id;
  if (callee.k === 'attr' || callee.k === 'index') return rootName(callee.obj);
  return undefined;
}

/** The dotted text of a callee's receiver chain (`client.messages` of `client.messages.create`; `()` for a call). */
export function chainText(e: Expr): string {
  const parts: string[] = [];
  let node: Expr | undefined = e;
  for (let guard = 0; node && guard < 64; guard++) {
    if (node.k === 'name') {
      parts.push(node.id);
      break;
    }
    if (node.k === 'attr') {
      parts.push(node.name);
      node = node.obj;
    } else if (node.k === 'call') {
      parts.push('()');
      node = node.callee;
    } else if (node.k === 'index') {
      parts.push('[]');
      node = node.obj;
    } else break;
  }
  return parts.reverse().join('.');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
