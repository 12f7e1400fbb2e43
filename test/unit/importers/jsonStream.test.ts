// The streaming JSON splitter: hands over exactly the selected values, whatever the chunk boundaries, and rejects broken documents.
import * as assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors';
import { JsonSplitter, splitJson } from '../../../src/core/importers/jsonStream';
import type { JsonPath } from '../../../src/core/importers/types';

const spans = (path: JsonPath) => path.length === 6 && path[0] === 'resourceSpans' && path[4] === 'spans';

const doc = JSON.stringify(
  {
    'resource"Spans': 'a decoy key with an escaped quote',
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [{ spanId: '1', name: 'a {[' }, { spanId: '2', name: 'b \\"}' }] }] },
      { scopeSpans: [{ spans: [] }, { spans: [{ spanId: '3', nested: { list: [1, [2, { x: 'y' }]] } }] }] },
    ],
  },
  null,
  1,
);

function collect(text: string, select: (p: JsonPath, isArray: boolean) => boolean, chunk = text.length) {
  const out: { value: unknown; line: number; path: JsonPath }[] = [];
  const splitter = new JsonSplitter(select, (value, line, path) => out.push({ value, line, path }));
  for (let i = 0; i < text.length; i += chunk) splitter.write(text.slice(i, i + chunk));
  splitter.end();
  return out;
}

describe('JsonSplitter', () => {
  it('emits each selected span with its path and starting line', () => {
    const out = collect(doc, spans);
    assert.deepEqual(
      out.map((o) => (o.value as { spanId: string }).spanId),
      ['1', '2', '3'],
    );
    assert.deepEqual(out[2].path, ['resourceSpans', 1, 'scopeSpans', 1, 'spans', 0]);
    // The span's "{" sits on the line before its "spanId" line: 1-based, that is the 0-based index of the spanId line.
    assert.equal(out[0].line, doc.split('\n').findIndex((l) => l.includes('"spanId": "1"')));
  });

  it('gives the same result for every chunk size, including splits inside keys, strings and escapes', () => {
    const whole = collect(doc, spans).map((o) => o.value);
    for (const size of [1, 2, 3, 7, 13, 64]) assert.deepEqual(collect(doc, spans, size).map((o) => o.value), whole, `chunk ${size}`);
  });

  it('selects top-level array elements and never the root when asked for elements only', () => {
    const values: unknown[] = [];
    splitJson('[{"a":1},{"b":[2]}, {"c":"]"}]', (p) => p.length === 1, (v) => values.push(v));
    assert.deepEqual(values, [{ a: 1 }, { b: [2] }, { c: ']' }]);
  });

  it('can capture a root object whole', () => {
    const values: unknown[] = [];
    splitJson('{"runs":[{"id":"x"}]}', (p, isArray) => p.length === 0 && !isArray, (v) => values.push(v));
    assert.deepEqual(values, [{ runs: [{ id: 'x' }] }]);
  });

  const bad: [string, string, InputError['kind']][] = [
    ['truncated document', '[{"a":1},{"b":', 'invalid-json'],
    ['mismatched bracket', '[{"a":1]', 'invalid-json'],
    ['invalid JSON inside a selected value', '[{"a":tru}]', 'invalid-json'],
    ['empty text', '  \n ', 'empty'],
  ];
  for (const [name, text, kind] of bad) {
    it(`rejects ${name} with kind ${kind}`, () => {
      assert.throws(
        () => splitJson(text, (p) => p.length === 1, () => undefined),
        (error: unknown) => error instanceof InputError && error.kind === kind,
      );
    });
  }
});
