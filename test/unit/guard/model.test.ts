// The run model a trace becomes: several outputs of one agent in one round are joined (a copy ignored), each kind said
// once with how often it recurred.
import * as assert from 'node:assert/strict';
import { buildRunModel } from '../../../src/core/guard/model';
import { parseTraceText } from '../../../src/core/trace/parse';

/** A two-agent trace where a and b send `perRound` messages each in each of `rounds` rounds (`copy`: the same text each time). */
function chatty(rounds: number, perRound: number, copy: boolean): string {
  const lines = [JSON.stringify({ type: 'header', agents: [{ id: 'a' }, { id: 'b' }], edges: [['a', 'b'], ['b', 'a']] })];
  for (let round = 0; round < rounds; round++) {
    for (const [from, to] of [['a', 'b'], ['b', 'a']]) {
      for (let k = 0; k < perRound; k++) lines.push(JSON.stringify({ type: 'message', round, from, to: [to], content: copy ? `${from} says hello` : `${from} part ${k}` }));
    }
  }
  return lines.join('\n');
}

describe('run model', () => {
  it('joins several outputs of one round and warns once, with a count (was: one warning per message, 900,000 for a long run)', () => {
    const model = buildRunModel(parseTraceText(chatty(100, 10, false)));
    assert.equal(model.outputs[0][3], Array.from({ length: 10 }, (_, k) => `a part ${k}`).join('\n\n'));
    assert.deepEqual(model.warnings.map((w) => [w.code, w.line, w.message]), [['duplicate-output', 3, 'a sent more than one output in round 0; they are joined as one (and 1799 more such output(s) in this run)']]);
  });

  it('ignores a repeated copy and says so once, at its first line', () => {
    const model = buildRunModel(parseTraceText(chatty(2, 3, true)));
    assert.equal(model.outputs[1][1], 'b says hello');
    assert.deepEqual(model.warnings.map((w) => [w.line, w.message]), [[3, "a repeats its round-0 output; the copy is ignored (and 7 more such output(s) in this run)"]]);
  });

  it('says a single duplicate as it is, with no count', () => {
    const lines = [{ type: 'message', round: 0, from: 'a', to: ['b'], content: 'one' }, { type: 'message', round: 0, from: 'a', to: ['b'], content: 'two' }, { type: 'message', round: 0, from: 'b', to: ['a'], content: 'three' }];
    const model = buildRunModel(parseTraceText(lines.map((l) => JSON.stringify(l)).join('\n')));
    assert.deepEqual(model.warnings.map((w) => [w.line, w.message]), [[2, 'a sent more than one output in round 0; they are joined as one']]);
  });
});
