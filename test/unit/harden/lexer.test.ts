// The tokenizer and expression parser on hostile input: nesting deep enough to overflow any recursive reader gives
// tokens, not a RangeError, in time linear in the input; and nested literals keep their exact structure.
import * as assert from 'node:assert/strict';
import { analyzeProject } from '../../../src/core/harden/analyze';
import { resolveHardenConfig } from '../../../src/core/harden/config';
import { tokenize } from '../../../src/core/harden/lexer';
import { scanModule } from '../../../src/core/harden/module';

const config = resolveHardenConfig(undefined);

describe('harden lexer', () => {
  for (const [name, text, language] of [
    ['`${ x 2,000 in TypeScript', 'const x = ' + '`${'.repeat(2000), 'typescript'],
    ['f"{ x 2,000 in Python', 'x = ' + 'f"{'.repeat(2000), 'python'],
    ['f"""{ x 20,000 in Python', 'x = ' + 'f"""{'.repeat(20000), 'python'],
    ['( x 100,000 in TypeScript', 'f' + '('.repeat(100000), 'typescript'],
    ['[ x 100,000 in Python', 'x = ' + '['.repeat(100000), 'python'],
  ] as const) {
    it(`reads ${name} without overflowing the stack`, () => {
      assert.doesNotThrow(() => tokenize(text, language));
      assert.doesNotThrow(() => scanModule(text, language));
      const [analysis] = analyzeProject([{ path: language === 'python' ? 'deep.py' : 'deep.ts', kind: language, text }], config);
      assert.equal(analysis.error, undefined);
    });
  }

  it('keeps nested template literals and f-string fields exact', () => {
    const ts = tokenize('const s = `a ${b + `c ${d}`} e`;', 'typescript');
    const outer = ts.find((t) => t.type === 'string');
    assert.ok(outer?.type === 'string');
    assert.equal(outer.literal.holes.length, 1);
    const inner = outer.literal.holes[0].tokens.find((t) => t.type === 'string');
    assert.ok(inner?.type === 'string' && inner.literal.holes.length === 1);

    const source = 'x = f"a {b!r:>{w}} {c}"';
    const py = tokenize(source, 'python').find((t) => t.type === 'string');
    assert.ok(py?.type === 'string');
    assert.deepEqual(py.literal.holes.map((h) => source.slice(h.exprStart, h.exprEnd)), ['b', 'c']);
  });

  it('ends an unterminated single-line f-string at its line, so the next line still parses', () => {
    const source = 'a = f"{oops\nSYSTEM_PROMPT = "You are a planner. Plan the steps."\n';
    const [analysis] = analyzeProject([{ path: 'a.py', kind: 'python', text: source }], config);
    assert.deepEqual(analysis.prompts.map((p) => p.anchor), ['SYSTEM_PROMPT']);
  });
});
