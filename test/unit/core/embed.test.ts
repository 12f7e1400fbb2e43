// The one-pass embedding of ASCII text gives exactly what tokenising, stemming and hashing word by word gives, so the
// guard's fitted weights read the same vectors whichever path a text takes.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { simulate } from '../../../src/core/sim/simulate';
import { embedLower, embedWords } from '../../../src/core/text/embed';
import { hash32, lowerWords, wordHashes, wordSpans } from '../../../src/core/text/tokens';

const ROOT = path.join(__dirname, '..', '..', '..');
const REAL_AGENTDOJO = path.join(ROOT, '..', 'shared', 'data', 'real', 'agentdojo');

/** Word by word: lowerWords, stem, hash (the reference embedLower must equal). */
function wordByWord(lower: string): { embedding: Float32Array; wordHashes: Uint32Array } {
  const tokens = lowerWords(lower);
  return { embedding: embedWords(tokens), wordHashes: Uint32Array.from(tokens, hash32) };
}

/** Outputs of the simulator, the repository's traces and corpora, and a sample of the real runs beside it (when there). */
function corpus(): string[] {
  const texts = simulate({ seed: 3, topology: 'random', agents: 12, attackers: 3, rounds: 4, family: 'injection', split: 'heldout', filler: 4 }).trace().messages.map((m) => m.content);
  const virus = path.join(ROOT, 'bench', 'data', 'mind-virus');
  for (const file of readdirSync(virus).filter((f) => f.endsWith('.txt'))) texts.push(...readFileSync(path.join(virus, file), 'utf8').split(/\n\s*\n/));
  for (const file of readdirSync(path.join(ROOT, 'test', 'fixtures', 'traces'))) texts.push(...readFileSync(path.join(ROOT, 'test', 'fixtures', 'traces', file), 'utf8').split('\n'));
  if (existsSync(REAL_AGENTDOJO)) {
    for (const file of readdirSync(REAL_AGENTDOJO).filter((f) => f.endsWith('.jsonl')).slice(0, 2)) texts.push(...readFileSync(path.join(REAL_AGENTDOJO, file), 'utf8').split('\n').slice(0, 200));
  }
  return texts;
}

const edges = [
  '',
  '   ',
  "don't won't it's o'clock",
  'well-known e-mail snake_case_value __dunder__ -leading trailing- a--b',
  'ations ances ences things running happily walked walkers stations ingly edly lies yes bus is was',
  'Resonating RESONATES resonance UPPER Mixed',
  '123 4.5 6,789 US133000000121212121212 user@example.invalid https://example.invalid/a_b-c.txt',
  'tab\tseparated\nnew lines\r\nand ;punctuation!? (brackets) [x] {y} <z>',
];

describe('embedLower', () => {
  it('equals the word-by-word embedding and word hashes on ASCII text', () => {
    const texts = [...edges, ...corpus()].filter((t) => /^[\x00-\x7f]*$/.test(t));
    // Without ../shared (a user's clone) the repository's own texts are compared: 139 of them.
    const expected = existsSync(REAL_AGENTDOJO) ? 300 : 100;
    assert.ok(texts.length > expected, `only ${texts.length} ASCII texts`);
    for (const text of texts) {
      const lower = text.toLowerCase();
      assert.deepEqual(embedLower(lower), wordByWord(lower), text.slice(0, 120));
    }
  });

  it('reads non-ASCII text by its Unicode words (an accented word is one word, not split at its accent)', () => {
    const lower = 'les résumés étaient prêts — naïve café 東京 emoji 🙂 ok';
    assert.deepEqual(Array.from(embedLower(lower).wordHashes), ['les', 'résumés', 'étaient', 'prêts', 'naïve', 'café', '東京', 'emoji', 'ok'].map(hash32));
    assert.deepEqual(embedLower(lower), wordByWord(lower));
  });

  it('keeps each result its own: embedding thousands of texts later leaves the first results as they were', () => {
    const texts = corpus().map((t) => t.toLowerCase());
    const kept = texts.map((lower) => embedLower(lower));
    for (let round = 0; round < 3; round++) for (const lower of texts) embedLower(lower + ' more words after it');
    texts.forEach((lower, t) => assert.deepEqual(kept[t], wordByWord(lower), lower.slice(0, 120)));
  });
});

describe('wordHashes', () => {
  it("gives each word's hash as wordSpans lower-cases it, without a span per word (scan of a 50 MB output: 1.1 GB -> 0.33 GB)", () => {
    for (const text of ['', 'İstanbul DON\'T re-run step 3.5 — ΣΊΣΥΦΟΣ', 'a'.repeat(300) + ' b'.repeat(700), simulate({ seed: 3, topology: 'chain', agents: 3, attackers: 1, rounds: 2, family: 'injection', split: 'train' }).trace().messages[0].content]) {
      assert.deepEqual([...wordHashes(text)], wordSpans(text).map((span) => hash32(span.word)));
    }
  });
});
