// agent-trace/v1 parser: the valid/invalid table, lenient mode and the defined outcomes for odd input.
import * as assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors';
import { parseTraceText, serializeTrace } from '../../../src/core/trace/parse';

const header = { type: 'header', schema: 'agent-trace/v1', run: 'r1', task: { question: 'q', answer: 'B' }, agents: [{ id: 'a0', role: 'Solver' }, { id: 'a1' }], edges: [['a0', 'a1']] };
const msg = (round: number, from: string, content = 'text', extra: object = {}) => ({ type: 'message', round, from, content, ...extra });
const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');

function errorOf(text: string): InputError {
  try {
    parseTraceText(text, { file: 't.jsonl' });
  } catch (error) {
    assert.ok(error instanceof InputError, `expected InputError, got ${error}`);
    return error;
  }
  assert.fail('expected the trace to be rejected');
}

describe('agent-trace/v1 parser', () => {
  it('reads header, messages and labels', () => {
    const trace = parseTraceText(jsonl(header, msg(0, 'a0'), msg(0, 'a1'), msg(1, 'a1', 'x', { to: ['a0'] }), { type: 'label', round: 1, agent: 'a1', category: 'infected' }));
    assert.equal(trace.run, 'r1');
    assert.deepEqual(trace.task, { question: 'q', answer: 'B' });
    assert.deepEqual(trace.agents.map((a) => a.id), ['a0', 'a1']);
    assert.deepEqual(trace.edges, [['a0', 'a1']]);
    assert.equal(trace.topology, 'header');
    assert.equal(trace.messages.length, 3);
    assert.deepEqual(trace.messages[2].to, ['a0']);
    assert.equal(trace.messages[2].line, 4);
    assert.deepEqual(trace.labels.map((l) => [l.agent, l.category]), [['a1', 'infected']]);
  });

  it('infers the topology from message recipients when there is no header', () => {
    const trace = parseTraceText(jsonl(msg(0, 'x', 'hi', { to: ['y', 'z'] }), msg(0, 'y', 'hi', { to: 'x' })));
    assert.equal(trace.topology, 'messages');
    assert.deepEqual(trace.edges, [['x', 'y'], ['x', 'z'], ['y', 'x']]);
    assert.deepEqual(trace.agents.map((a) => a.id), ['x', 'y', 'z']);
  });

  it('skips unknown types with a warning and keeps unknown fields out of the way', () => {
    const trace = parseTraceText(jsonl(msg(0, 'a', 't', { extra: 1 }), { type: 'span', x: 1 }));
    assert.equal(trace.messages.length, 1);
    assert.deepEqual(trace.warnings.map((w) => [w.code, w.line]), [['unknown-type', 2]]);
  });

  it('ignores blank lines and CRLF line ends', () => {
    const trace = parseTraceText(jsonl(msg(0, 'a')) + '\r\n\r\n' + jsonl(msg(1, 'a')) + '\r\n');
    assert.equal(trace.messages.length, 2);
  });

  it('warns about a round gap, once per stretch of silent rounds', () => {
    const trace = parseTraceText(jsonl(msg(0, 'a'), msg(2, 'a'), msg(50, 'a')));
    assert.deepEqual(trace.warnings.map((w) => w.message), ['no message in round 1; agents keep their previous output for it', 'no message in rounds 3-49; agents keep their previous output for it']);
  });

  it('accepts a run at its extent limits: round 9999 reached without long silences, 100 silent rounds in a row', () => {
    const steps = Array.from({ length: 100 }, (_, i) => msg(i * 101, 'a'));
    assert.equal(parseTraceText(jsonl(...steps, msg(9_999, 'a'))).messages.length, 101);
  });

  // Hostile extents (issue 16 item 3): a 3-line trace asking for 100,000 rounds took over a minute and gigabytes.
  const many = Array.from({ length: 1_001 }, (_, i) => ({ id: `a${i}` }));
  const extents: [string, string, number][] = [
    ['round 100000 in a 3-line trace', jsonl(header, msg(0, 'a0'), msg(100_000, 'a1')), 3],
    ['round 1e308 (an integer to JavaScript)', jsonl(header, msg(0, 'a0'), msg(1e308, 'a1')), 3],
    ['a label at round 2^31', jsonl(header, msg(0, 'a0'), { type: 'label', round: 2 ** 31, agent: 'a0', category: 'benign' }), 3],
    ['101 rounds in a row without a message', jsonl(msg(0, 'a'), msg(5, 'a'), msg(107, 'a')), 3],
    ['1,001 agents x 100 rounds', jsonl({ ...header, agents: many, edges: [] }, ...Array.from({ length: 100 }, (_, r) => msg(r, 'a0'))), 101],
  ];
  for (const [name, text, line] of extents) {
    it(`refuses ${name}, naming the line`, () => {
      const error = errorOf(text);
      assert.deepEqual([error.kind, error.line, error.field], ['invalid-field', line, 'round']);
    });
  }

  const invalid: [string, string, InputError['kind'], number | undefined, string | undefined][] = [
    ['empty file', '', 'empty', undefined, undefined],
    ['only blank lines', '\n \n', 'empty', undefined, undefined],
    ['header only', jsonl(header), 'no-content', undefined, undefined],
    ['not JSON', jsonl(msg(0, 'a'), '{"type": "message",'), 'invalid-json', 2, undefined],
    ['a JSON array line', jsonl('[1,2]'), 'invalid-field', 1, undefined],
    ['NUL byte', '\u0000\u0001garbage', 'binary', 1, undefined],
    ['missing type', jsonl({ round: 0, from: 'a', content: 'x' }), 'missing-field', 1, 'type'],
    ['missing round', jsonl({ type: 'message', from: 'a', content: 'x' }), 'missing-field', 1, 'round'],
    ['negative round', jsonl(msg(-1, 'a')), 'invalid-field', 1, 'round'],
    ['fractional round', jsonl(msg(1.5, 'a')), 'invalid-field', 1, 'round'],
    ['string round', jsonl({ ...msg(0, 'a'), round: '0' }), 'invalid-field', 1, 'round'],
    ['missing from', jsonl({ type: 'message', round: 0, content: 'x' }), 'missing-field', 1, 'from'],
    ['empty from', jsonl(msg(0, '')), 'invalid-field', 1, 'from'],
    ['missing content', jsonl({ type: 'message', round: 0, from: 'a' }), 'missing-field', 1, 'content'],
    ['content not a string', jsonl({ ...msg(0, 'a'), content: { text: 'x' } }), 'invalid-field', 1, 'content'],
    ['to not ids', jsonl(msg(0, 'a', 'x', { to: [1.5] })), 'invalid-field', 1, 'to[0]'],
    ['bad label category', jsonl(msg(0, 'a'), { type: 'label', round: 0, agent: 'a', category: 'evil' }), 'invalid-field', 2, 'category'],
    ['label for unknown agent', jsonl(msg(0, 'a'), { type: 'label', round: 0, agent: 'ghost', category: 'attacker' }), 'unknown-agent', 2, 'agent'],
    ['wrong schema', jsonl({ ...header, schema: 'agent-trace/v9' }, msg(0, 'a0')), 'invalid-field', 1, 'schema'],
    ['second header', jsonl(header, header, msg(0, 'a0')), 'invalid-field', 2, 'type'],
    ['header after messages', jsonl(msg(0, 'a0'), header), 'invalid-field', 2, 'type'],
    ['edge not a pair', jsonl({ ...header, edges: [['a0']] }, msg(0, 'a0')), 'invalid-field', 1, 'edges[0]'],
    ['edge to an undeclared agent', jsonl({ ...header, edges: [['a0', 'zz']] }, msg(0, 'a0')), 'unknown-agent', 1, 'edges'],
    ['agent declared twice', jsonl({ ...header, agents: [{ id: 'a0' }, { id: 'a0' }] }, msg(0, 'a0')), 'invalid-field', 1, 'agents[1].id'],
  ];
  for (const [name, text, kind, line, field] of invalid) {
    it(`rejects ${name} (${kind})`, () => {
      const error = errorOf(text);
      assert.equal(error.kind, kind);
      assert.equal(error.line, line);
      if (field !== undefined) assert.equal(error.field, field);
      assert.equal(error.file, 't.jsonl');
    });
  }

  it('in lenient mode skips invalid lines with a warning per line', () => {
    const trace = parseTraceText(jsonl(msg(0, 'a'), 'not json', msg(-3, 'a'), { type: 'label', round: 0, agent: 'ghost', category: 'attacker' }), { lenient: true });
    assert.equal(trace.messages.length, 1);
    assert.deepEqual(trace.warnings.map((w) => [w.code, w.line]), [['skipped-line', 2], ['skipped-line', 3], ['unknown-agent-label', 4]]);
  });

  it('lenient mode still refuses binary input', () => {
    assert.throws(() => parseTraceText('\u0000abc', { lenient: true }), (e: unknown) => e instanceof InputError && e.kind === 'binary');
  });

  it('round-trips through serializeTrace', () => {
    const original = parseTraceText(jsonl(header, msg(0, 'a0', 'hello "world"'), msg(1, 'a1', 'x', { to: ['a0'], ts: '2026-01-01T00:00:00Z' }), { type: 'label', round: 0, agent: 'a0', category: 'attacker' }));
    const again = parseTraceText(serializeTrace(original));
    const withoutLines = (t: typeof original) => ({ ...t, messages: t.messages.map(({ line: _l, ...m }) => m), labels: t.labels.map(({ line: _l, ...l }) => l) });
    assert.deepEqual(withoutLines(again), withoutLines(original));
  });
});
