// The module graph of src/: no import cycle, type-only imports included (a cycle through a type still ties two
// modules' edits together and hides a missing layer).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The src/ files a file imports (relative specifiers resolved to .ts files; packages are left out). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = path.resolve(path.dirname(file), fileName);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return found ? [found] : [];
  });
}

/** Every import cycle as a list of files (relative to src/), each reported once. */
function importCycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next)).map((f) => path.relative(SRC, f).split(path.sep).join('/'));
        cycles.set([...cycle].sort().join(' '), cycle);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}

describe('architecture', () => {
  it('src/ has no import cycle (type-only imports count)', () => {
    const cycles = importCycles(sourceFiles(SRC));
    assert.deepEqual(cycles.map((cycle) => cycle.join(' -> ')), []);
  });

  it('the cycle check finds a cycle through a type-only import', () => {
    const cycles = importCycles(sourceFiles(path.join(__dirname, 'fixtures/cycle')));
    assert.equal(cycles.length, 1);
    assert.deepEqual(cycles[0].map((f) => path.basename(f)).sort(), ['a.ts', 'b.ts']);
  });
});
