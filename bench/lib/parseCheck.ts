// Parse errors of a file by its own language's parser: the TypeScript compiler for TS/JS, CPython's ast for Python
// and notebook code cells, the YAML parser for YAML. Used to show that `harden --write` never breaks a file.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

/** Python source errors (one per file at most), by CPython. */
function pythonErrors(code: string): string[] {
  const run = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: code, encoding: 'utf8' });
  if (run.error) return [`python3 not available: ${run.error.message}`];
  return run.status === 0 ? [] : [run.stderr.trim().split('\n').pop() ?? 'syntax error'];
}

/** The parse errors of a file (empty when it parses, or when its kind has no parser here). */
export function parseErrors(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (/\.[cm]?[jt]sx?$/.test(file)) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) as ts.SourceFile & { parseDiagnostics: ts.Diagnostic[] };
    return source.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  if (file.endsWith('.py')) return pythonErrors(text);
  if (/\.ya?ml$/.test(file)) return parseAllDocuments(text).flatMap((doc) => ('errors' in doc ? doc.errors.map((e) => e.message) : []));
  if (file.endsWith('.ipynb')) {
    const notebook = JSON.parse(text) as { cells: { cell_type: string; source: string[] | string }[] };
    const code = notebook.cells.filter((c) => c.cell_type === 'code').map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source)).join('\n');
    return pythonErrors(code.replace(/^\s*[%!].*$/gm, ''));
  }
  return [];
}
