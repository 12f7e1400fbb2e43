// The receiver's client (the editor's side of Watch Live Runs) against a real receiver fed by the real OTel exporter,
// and against hostile or broken servers: every failure is a ReceiverError saying what happened, nothing hangs.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { buildGraphViewPayload } from '../../../src/core/graphview/payload';
import { parseTraceText } from '../../../src/core/trace/parse';
import { LiveClient, ReceiverError, receiverUrl, type WireEvent } from '../../../src/node/live/client';
import { LiveServer } from '../../../src/node/live/server';
import { crewProvider, crewRun, emitCrewRun } from '../../support/otlpRuns';

const EPOCH = Date.UTC(2026, 0, 5, 9);

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A server answering every request with `answer` (a hostile or broken receiver). */
async function fakeReceiver(answer: (res: ServerResponse, url: string) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => answer(res, req.url ?? '/'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('live receiver client', function () {
  this.timeout(30_000);

  it('lists runs, streams their events and reads a run whose recording and analysis draw the graph', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ai-client-'));
    const server = new LiveServer({ root, port: 0, limits: { roundIdleMs: 300 } });
    const { url } = await server.start();
    const client = new LiveClient(url + '/');
    const events: WireEvent[] = [];
    const stop = new AbortController();
    const streaming = client.events((e) => events.push(e), stop.signal);
    try {
      await waitFor('the stream', () => ((server as unknown as { streams: Set<unknown> }).streams.size === 1 ? true : undefined));
      const provider = crewProvider(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${url}/v1/traces` }), { scheduledDelayMillis: 5 }));
      await emitCrewRun(provider.getTracer('crew'), crewRun({ workers: 3, cycles: 2, attacker: 1 }), 'conv-client', EPOCH);
      await provider.shutdown();
      const runs = await waitFor('the run decided', async () => {
        const list = await client.runs();
        return list[0]?.rounds > 0 && list[0].rounds === server.runs.analysis('conv-client')?.rounds.length ? list : undefined;
      });
      const attackers = server.runs.analysis('conv-client')!.agents.filter((a) => a.category === 'attacker').map((a) => a.id);
      assert.ok(attackers.includes('worker-1'));
      assert.deepEqual(runs.map((r) => [r.id, r.state, r.attackers]), [['conv-client', 'open', attackers]]);
      await waitFor('a round event', () => (events.some((e) => e.type === 'round' && e.run === 'conv-client') ? true : undefined));
      assert.ok(events.some((e) => e.type === 'run' && e.run.id === 'conv-client'));

      const { analysis, recording } = await client.run('conv-client');
      assert.ok(analysis.rounds.length >= runs[0].rounds && analysis.agents.some((a) => a.id === 'worker-1' && a.category === 'attacker'));
      const payload = buildGraphViewPayload(parseTraceText(recording, { file: 'live' }), analysis);
      const attacker = analysis.agents.findIndex((a) => a.id === 'worker-1');
      assert.match(payload.outputs[attacker].find((o) => o !== null)!.text, /Ignore all previous instructions/);
      await assert.rejects(client.run('no-such-run'), (e: ReceiverError) => e.status === 404 && /no run no-such-run/.test(e.message));

      // Stopping the receiver closes its open runs, tells the stream so, and ends it.
      await server.stop();
      await streaming;
      assert.ok(events.some((e) => e.type === 'closed' && e.run === 'conv-client' && e.summary.state === 'closed'));
    } finally {
      stop.abort();
      await streaming.catch(() => undefined);
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('sends the bearer token, and says 401 when it is missing', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ai-client-'));
    const server = new LiveServer({ root, port: 0, token: 's3cret' });
    const { url } = await server.start();
    try {
      await assert.rejects(new LiveClient(url).runs(), (e: ReceiverError) => e.status === 401 && /bearer token/.test(e.message));
      assert.deepEqual(await new LiveClient(url, { token: 's3cret' }).runs(), []);
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses URLs that are not http(s) or carry credentials', () => {
    assert.equal(receiverUrl(' http://127.0.0.1:4318/ '), 'http://127.0.0.1:4318');
    for (const bad of ['127.0.0.1:4318', 'file:///etc/passwd', 'http://user:pw@127.0.0.1:4318', 'not a url']) assert.throws(() => receiverUrl(bad), ReceiverError, bad);
  });

  describe('hostile or broken receivers', () => {
    const cases: [string, (res: ServerResponse) => void, RegExp][] = [
      ['not JSON', (res) => res.end('<html>hello</html>'), /malformed JSON/],
      ['JSON of another shape', (res) => res.end('{"items": []}'), /did not answer with a run list/],
      ['an error status', (res) => void res.writeHead(500).end('{"code":13,"message":"boom"}'), /answered 500: boom/],
      ['an endless body', (res) => {
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        const write = () => res.write(chunk) && setImmediate(write);
        res.on('drain', write);
        write();
      }, /over 64 MiB/],
      ['a stalled answer', (res) => res.write('{"runs": ['), /did not answer \/v1\/runs within 0.5 s/],
    ];
    for (const [what, answer, expected] of cases) {
      it(`says what went wrong with ${what}`, async () => {
        const fake = await fakeReceiver(answer);
        try {
          await assert.rejects(new LiveClient(fake.url, { timeoutMs: what === 'a stalled answer' ? 500 : 20_000 }).runs(), (e: Error) => e instanceof ReceiverError && expected.test(e.message));
        } finally {
          fake.server.closeAllConnections();
          fake.server.close();
        }
      });
    }

    it('keeps well-formed runs and events and skips the rest', async () => {
      const good = { id: 'r1', traceId: 't', state: 'open', spans: 3, rounds: 1, agents: 2, attackers: ['a'], infected: [], alerts: 0, updatedAt: 1 };
      const fake = await fakeReceiver((res, url) => {
        if (url === '/v1/runs') return void res.end(JSON.stringify({ runs: [good, { ...good, id: 7 }, { ...good, attackers: [1] }, 'x'] }));
        res.write(['not json', JSON.stringify({ type: 'run', run: { id: 'no' } }), JSON.stringify({ type: 'eval', code: 'x' }), 'x'.repeat(2 * 1024 * 1024), JSON.stringify({ type: 'run', run: good }), ''].join('\n'));
        res.end();
      });
      try {
        const client = new LiveClient(fake.url);
        assert.deepEqual(await client.runs(), [good]);
        const events: WireEvent[] = [];
        await client.events((e) => events.push(e), new AbortController().signal);
        assert.deepEqual(events, [{ type: 'run', run: good }]);
      } finally {
        fake.server.close();
      }
    });
  });
});
