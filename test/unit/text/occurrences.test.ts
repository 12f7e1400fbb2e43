// Finding a text inside another in linear time: the same answers as includes and split, and no product of the two
// lengths on the text a hostile trace can hold (a page of "b"s searched for "b…ab…" took V8's includes 1.2 s a megabyte).
import * as assert from 'node:assert/strict';
import { holds, occurrences, replaceEvery } from '../../../src/core/text/occurrences';

describe('occurrences', () => {
  it('answers as includes and split/join do, on texts of few letters (overlaps, borders, repeats)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = (n: number) => Array.from({ length: n }, () => 'ab'[Math.floor(random() * 2)]).join('');
    for (let trial = 0; trial < 2000; trial++) {
      const text = word(Math.floor(random() * 30));
      const pattern = word(1 + Math.floor(random() * 5));
      assert.equal(holds(text, pattern), text.includes(pattern), `${text} / ${pattern}`);
      assert.equal(replaceEvery(text, pattern, '[x]'), text.split(pattern).join('[x]'), `${text} / ${pattern}`);
    }
    assert.deepEqual(occurrences('aaaa', 'aa'), [0, 2], 'non-overlapping, left to right');
    assert.deepEqual(occurrences('abc', ''), []);
  });

  it('searches 4 MB of "b"s for sixteen near-misses without the product of the lengths (was: about 5 s each)', () => {
    const page = 'b'.repeat(4_000_000);
    for (let i = 0; i < 16; i++) {
      const pattern = `${'b'.repeat(i)}a${'b'.repeat(4000)}`;
      assert.equal(holds(page, pattern), false);
      assert.equal(replaceEvery(page, pattern, 'x'), page);
    }
  });
});
