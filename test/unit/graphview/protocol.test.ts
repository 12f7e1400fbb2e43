// The host <-> page protocol: each side accepts exactly the typed union and nothing else.
import * as assert from 'node:assert/strict';
import { parseHostMessage, parsePageMessage, isGraphViewPayload } from '../../../src/webview/protocol';
import { decodePngDataUrl, handlePageMessage, type PageMessageHandlers } from '../../../src/extension/analyze/pageMessages';
import { smallPayload } from './fixture';

const PNG = 'data:image/png;base64,' + Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

describe('page -> host messages', () => {
  const valid: unknown[] = [{ type: 'ready' }, { type: 'openLine', line: 3 }, { type: 'savePng', dataUrl: PNG }, { type: 'saveHtml' }, { type: 'reanalyse' }];
  const invalid: unknown[] = [
    null, 'ready', [], {}, { type: 'nope' }, { type: 'openLine', line: 0 }, { type: 'openLine', line: 1.5 }, { type: 'openLine', line: '3' },
    { type: 'savePng', dataUrl: 'data:text/html;base64,PHNjcmlwdD4=' }, { type: 'savePng', dataUrl: 'javascript:alert(1)' }, { type: 'savePng' },
  ];
  for (const message of valid) it(`accepts ${JSON.stringify(message).slice(0, 60)}`, () => assert.ok(parsePageMessage(message)));
  for (const message of invalid) it(`rejects ${JSON.stringify(message)}`, () => assert.equal(parsePageMessage(message), undefined));

  it('dispatches each accepted message to its handler and nothing for rejected ones', async () => {
    const calls: string[] = [];
    const handlers: PageMessageHandlers = {
      ready: () => void calls.push('ready'),
      openLine: (line) => void calls.push(`line ${line}`),
      savePng: (png) => void calls.push(`png ${png.length}`),
      saveHtml: () => void calls.push('html'),
      reanalyse: () => void calls.push('reanalyse'),
    };
    for (const message of valid) assert.ok(await handlePageMessage(message, handlers, 10));
    for (const message of invalid) assert.equal(await handlePageMessage(message, handlers, 10), undefined);
    assert.equal(await handlePageMessage({ type: 'openLine', line: 11 }, handlers, 10), undefined, 'beyond the last line');
    assert.equal(await handlePageMessage({ type: 'savePng', dataUrl: 'data:image/png;base64,AAAAAAAAAAAAAAAA' }, handlers), undefined, 'not a PNG');
    assert.deepEqual(calls, ['ready', 'line 3', 'png 12', 'html', 'reanalyse']);
  });

  it('decodes only bytes that carry the PNG signature', () => {
    assert.equal(decodePngDataUrl(PNG)?.[1], 0x50);
    assert.equal(decodePngDataUrl('data:image/png;base64,R0lGODlh'), undefined);
  });
});

describe('host -> page messages', () => {
  it('accepts a full analysis payload and status lines', async () => {
    const payload = await smallPayload();
    assert.equal(parseHostMessage({ type: 'analysis', generation: 1, payload })?.type, 'analysis');
    const alert = { signal: 'verbatimSpread', code: 'verbatim-spread', subject: 'a1', evidence: {}, markers: [], cooldownKey: 'k', chain: [{ agent: 'a1', round: 0 }] };
    assert.ok(isGraphViewPayload({ ...payload, analysis: { ...payload.analysis, alerts: [alert] } }));
    assert.deepEqual(parseHostMessage({ type: 'status', state: 'error', message: 'x' }), { type: 'status', state: 'error', message: 'x' });
  });

  it('rejects malformed payloads', async () => {
    const payload = await smallPayload();
    const broken: [string, (p: typeof payload) => unknown][] = [
      ['wrong schema', (p) => ({ ...p, schema: 'x' })],
      ['positions short', (p) => ({ ...p, positions: p.positions.slice(1) })],
      ['NaN position', (p) => ({ ...p, positions: p.positions.map(() => Number.NaN) })],
      ['outputs misaligned', (p) => ({ ...p, outputs: p.outputs.slice(1) })],
      ['bad category', (p) => ({ ...p, analysis: { ...p.analysis, agents: p.analysis.agents.map((a) => ({ ...a, category: 'evil' })) } })],
      ['bad span', (p) => ({ ...p, outputs: p.outputs.map((row) => row.map((o) => (o ? { ...o, removed: [{ start: 5, end: 1, reason: 'llm' }] } : o))) })],
      ['edge not a pair', (p) => ({ ...p, analysis: { ...p.analysis, edges: [['a']] } })],
      ['alert without subject', (p) => ({ ...p, analysis: { ...p.analysis, alerts: [{ signal: 'viralPersona', markers: [] }] } })],
    ];
    for (const [name, mutate] of broken) assert.equal(isGraphViewPayload(mutate(payload)), false, name);
    assert.equal(parseHostMessage({ type: 'analysis', generation: 'x', payload }), undefined);
    assert.equal(parseHostMessage({ type: 'status', state: 'boom' }), undefined);
    assert.equal(parseHostMessage({ type: 'eval', code: '1' }), undefined);
  });
});
