// The live receiver end to end over loopback: a crew run's spans sent by the real OTel JS SDK exporters (OTLP/HTTP JSON
// and protobuf) must give, round by round, the verdicts `analyze` gives on the recorded file; hostile or broken
// requests (malformed, wrong type, oversized, slow) are refused as OTLP says and lose nothing already received.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { eventLine } from '../../../src/cli/commands/serve';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import type { Analysis } from '../../../src/core/guard/types';
import type { LiveEvent } from '../../../src/core/live/runs';
import { LiveServer } from '../../../src/node/live/server';
import { readAnyTrace } from '../../../src/node/readAnyTrace';
import { crewProvider, crewRun, emitCrewRun, hubRun, recordCrewRun, toolUseRun, type ToolUseRun } from '../../support/otlpRuns';

const EPOCH = Date.UTC(2026, 0, 5, 9);
const RUN = crewRun({ workers: 5, cycles: 3, attacker: 1 });

/** What a user reads as the verdicts: categories and scores per round, sources, paths, plan and alerts (not line numbers). */
function verdicts(analysis: Analysis) {
  return {
    agents: analysis.agents,
    rounds: analysis.rounds.map((r) => r.agents),
    sources: analysis.sources,
    infectionPaths: analysis.infectionPaths,
    remediation: analysis.remediation,
    alerts: (analysis.alerts ?? []).map(({ evidence: { line: _line, ...evidence }, ...rest }) => ({ ...rest, evidence })),
  };
}

interface Answer {
  status: number;
  type: string | undefined;
  body: Buffer;
}

/** One HTTP request to the receiver. */
function send(url: string, method: string, headers: Record<string, string | number>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Talks HTTP to the receiver over a raw socket (requests `fetch` will not send: stalled, pipelined, malformed): `talk`
 * writes, and everything answered until the connection closes is returned; `enough` ends it from this side.
 */
function exchange(port: number | string, talk: (socket: Socket) => void, enough: (answer: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => talk(socket));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
      if (enough(answer)) socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
  });
}

/** The status lines of the answers a raw exchange got. */
const statusLines = (answer: string) => answer.split('\r\n').filter((line) => line.startsWith('HTTP/'));

async function waitFor<T>(what: string, check: () => T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('agent-immune serve (live OTLP receiver)', function () {
  this.timeout(60_000);
  let root: string;
  let recorded: Analysis;

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ai-live-'));
    const file = path.join(root, 'recorded.otlp.json');
    writeFileSync(file, await recordCrewRun(RUN, 'conv-moons', EPOCH));
    recorded = await analyzeTrace(await readAnyTrace(file));
    assert.ok(recorded.rounds.length > 10 && recorded.agents.some((a) => a.category === 'attacker'), 'the recorded run has rounds and an attacker to find');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const [encoding, Exporter] of [['JSON', JsonExporter], ['protobuf', ProtoExporter]] as const) {
    it(`reads, round by round, the verdicts analyze gives on the recorded file (${encoding} exporter)`, async () => {
      const server = new LiveServer({ root, port: 0, limits: { roundIdleMs: 60_000 } });
      const { url } = await server.start();
      const rounds: Extract<LiveEvent, { type: 'round' }>[] = [];
      server.runs.subscribe((e) => void (e.type === 'round' && rounds.push(e)));
      const raised: Extract<LiveEvent, { type: 'alert' }>[] = [];
      server.runs.subscribe((e) => void (e.type === 'alert' && raised.push(e)));
      const provider = crewProvider(new BatchSpanProcessor(new Exporter({ url: `${url}/v1/traces` }), { maxExportBatchSize: 4, scheduledDelayMillis: 5 }));
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-moons', EPOCH);
      await provider.forceFlush();
      const live = await waitFor('the last round', () => {
        const a = server.runs.analysis('conv-moons');
        return a && a.rounds.length === recorded.rounds.length ? a : undefined;
      });
      assert.deepEqual(verdicts(live), verdicts(recorded));
      // Round by round: each round was announced with the categories analyze gives that round, in order.
      const last = new Map(rounds.map((e) => [e.round, e]));
      assert.deepEqual([...last.keys()].sort((a, b) => a - b), recorded.rounds.map((r) => r.round));
      for (const r of recorded.rounds) {
        const attackers = Object.entries(r.agents).filter(([, v]) => v.category === 'attacker').map(([id]) => id);
        assert.deepEqual(last.get(r.round)!.attackers, attackers, `attackers of round ${r.round}`);
      }
      assert.ok(rounds.length >= recorded.rounds.length);
      const listed = JSON.parse((await send(`${url}/v1/runs`, 'GET', {})).body.toString()) as { runs: { id: string; attackers: string[] }[] };
      assert.deepEqual(listed.runs.map((r) => [r.id, r.attackers]), [['conv-moons', recorded.agents.filter((a) => a.category === 'attacker').map((a) => a.id)]]);
      const got = await send(`${url}/v1/runs/conv-moons`, 'GET', {});
      assert.equal((JSON.parse(got.body.toString()) as Analysis).schema, 'agent-immune/analysis/v1');
      // The run's analysis names the lines of its recording, as analyze on the recording does (was: the numbers of the
      // requests that brought the spans); an alert raised while the run goes on names none, since later spans may move
      // outputs down the recording.
      const recording = path.join(root, `live-${encoding}.jsonl`);
      writeFileSync(recording, (await send(`${url}/v1/runs/conv-moons/trace`, 'GET', {})).body);
      const lines = (a: Analysis) => (a.alerts ?? []).map((alert) => [alert.code, alert.subject, alert.evidence.round, alert.evidence.line]);
      assert.ok(lines(live).length > 0 && lines(live).every(([, , , line]) => line !== undefined), 'the run raises alerts with lines');
      assert.deepEqual(lines(live), lines(await analyzeTrace(await readAnyTrace(recording))));
      assert.ok(raised.length > 0 && raised.every((e) => e.alert.evidence.line === undefined), JSON.stringify(raised.map((e) => e.alert.evidence)));
      await provider.shutdown();
      await server.stop();
    });
  }

  it('shows the attackers and then the infected agents of a star run round by round, as analyze does on the recording', async () => {
    const star = hubRun(readFileSync(path.join(__dirname, '../../../examples/traces/star-8.jsonl'), 'utf8'));
    const file = path.join(root, 'star.otlp.json');
    writeFileSync(file, await recordCrewRun(star, 'star-8', EPOCH));
    const expected = await analyzeTrace(await readAnyTrace(file));
    const server = new LiveServer({ root, port: 0, limits: { roundIdleMs: 60_000 } });
    const { url } = await server.start();
    const rounds = new Map<number, Extract<LiveEvent, { type: 'round' }>>();
    server.runs.subscribe((e) => void (e.type === 'round' && rounds.set(e.round, e)));
    const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` }), { maxExportBatchSize: 4, scheduledDelayMillis: 5 }));
    await emitCrewRun(provider.getTracer('crew'), star, 'star-8', EPOCH);
    await provider.shutdown();
    const live = await waitFor('the last round', () => {
      const a = server.runs.analysis('star-8');
      return a && a.rounds.length === expected.rounds.length ? a : undefined;
    });
    assert.deepEqual(verdicts(live), verdicts(expected));
    // The recorded run's verdict: a0 and a1 attack, a2, a4 and a7 are infected from the hub's second round on.
    const flagged = (k: number) => [rounds.get(k)!.attackers, rounds.get(k)!.infected];
    assert.deepEqual(flagged(0), [['a1'], []]);
    assert.deepEqual(flagged(expected.rounds.length - 1), [['a0', 'a1'], ['a2', 'a4', 'a7']]);
    const firstInfected = [...rounds.keys()].sort((a, b) => a - b).find((k) => rounds.get(k)!.infected.length > 0)!;
    assert.ok(firstInfected > 0 && rounds.get(firstInfected)!.changed.some((c) => c.category === 'infected' && c.was === 'benign'), 'an agent turns from benign to infected as rounds arrive');
    await server.stop();
  });

  it("names a poisoned tool result as the source while the agent's execute_tool spans arrive, as analyze does on the recording (was: tools dropped, nothing flagged)", async () => {
    const run = toolUseRun(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/importers/agentdojo-run.json'), 'utf8')) as ToolUseRun);
    const file = path.join(root, 'tool-use.otlp.json');
    writeFileSync(file, await recordCrewRun(run, 'bill', EPOCH));
    const expected = await analyzeTrace(await readAnyTrace(file));
    assert.deepEqual(expected.sources, ['tool:read_file'], 'the recording names the poisoned tool');
    const server = new LiveServer({ root, port: 0, limits: { roundIdleMs: 60_000 } });
    const { url } = await server.start();
    const attackers = new Set<string>();
    server.runs.subscribe((e) => void (e.type === 'round' && e.attackers.forEach((a) => attackers.add(a))));
    const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` }), { maxExportBatchSize: 2, scheduledDelayMillis: 5 }));
    await emitCrewRun(provider.getTracer('agent'), run, 'bill', EPOCH);
    await provider.shutdown();
    const live = await waitFor('the last round', () => {
      const a = server.runs.analysis('bill');
      return a && a.rounds.length === expected.rounds.length ? a : undefined;
    });
    assert.deepEqual(verdicts(live), verdicts(expected));
    assert.deepEqual([...attackers], ['tool:read_file']);
    await server.stop();
  });

  it('logs a run whose id holds a line break on one line (was: a conversation id forged a second log line)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    try {
      const logs: string[] = [];
      const server = new LiveServer({ root: out, port: 0, log: (_level, message) => logs.push(message) });
      const { url } = await server.start();
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv\nagent-immune serve: listening on http://127.0.0.1:9/ (FORGED)', EPOCH);
      await provider.shutdown();
      await waitFor('the run', () => (server.runs.list().length > 0 ? true : undefined));
      await server.stop();
      const closed = logs.filter((line) => line.includes(' closed, written to '));
      assert.equal(closed.length, 1, logs.join(' | '));
      assert.ok(logs.every((line) => !line.includes('\n')), logs.join(' | '));
      assert.match(closed[0], /conv\\u000aagent-immune serve/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  /** Two crew runs sent to a receiver with `budget`, then stopped: the log lines and the workspace they left. */
  async function twoRunsWith(budget: { maxStoredBytes?: number; maxAlertLogBytes?: number }, check: (logs: string[], out: string) => void): Promise<void> {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    try {
      const logs: string[] = [];
      const server = new LiveServer({ root: out, port: 0, ...budget, log: (level, message) => logs.push(`${level} ${message}`) });
      const { url } = await server.start();
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-a', EPOCH);
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-b', EPOCH);
      await provider.shutdown();
      await waitFor('both runs', () => (server.runs.list().length === 2 ? true : undefined));
      await server.stop();
      check(logs, out);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }

  it('counts the recordings and alert appends still queued behind their events, which stop waits for (was: "writing 0 open trace(s)", then minutes of writing)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    const server = new LiveServer({ root: out, port: 0 });
    try {
      const { url } = await server.start();
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
      for (const conversation of ['conv-a', 'conv-b', 'conv-c']) await emitCrewRun(provider.getTracer('crew'), RUN, conversation, EPOCH);
      await provider.shutdown();
      await waitFor('the runs', () => (server.runs.list().length === 3 ? true : undefined));
      // Closing the three open runs queues their recordings behind the closed events; stop waits for them.
      await server.runs.closeAll();
      assert.ok(server.pendingWrites() >= 1, `${server.pendingWrites()} queued`);
      await server.stop();
      assert.equal(server.pendingWrites(), 0);
      assert.deepEqual(readdirSync(path.join(out, '.agent-immune/live')).sort(), ['conv-a.jsonl', 'conv-b.jsonl', 'conv-c.jsonl']);
    } finally {
      await server.stop();
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('stops writing closed runs past the recordings budget, says so once, and keeps the alerts (was: senders could fill the disk)', () =>
    twoRunsWith({ maxStoredBytes: 1 }, (logs, out) => {
      assert.deepEqual(readdirSync(path.join(out, '.agent-immune')).sort(), ['alerts']);
      assert.equal(logs.filter((line) => /^error live: \.agent-immune\/live holds 0 MiB, its budget is 0 MiB: closed runs are no longer written/.test(line)).length, 1, logs.join(' | '));
      assert.deepEqual(logs.filter((line) => line.includes('not written')).sort(), ['warn live: run conv-a closed, not written: .agent-immune/live is full', 'warn live: run conv-b closed, not written: .agent-immune/live is full']);
      assert.ok(readFileSync(path.join(out, '.agent-immune/alerts/anomalies.ndjson'), 'utf8').includes('live:conv-a'));
    }));

  it('cuts a run id of thousands of characters to 80 in its log line (was: echoed whole in every line)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    const logs: string[] = [];
    const server = new LiveServer({ root: out, port: 0, log: (_level, message) => logs.push(message) });
    try {
      await server.start();
      type Writer = { writeRun(id: string, records: { record: Record<string, unknown> }[]): Promise<void> };
      await (server as unknown as Writer).writeRun('c'.repeat(5000), [{ record: { type: 'message', content: 'x' } }]);
      const line = logs.find((l) => l.includes(' closed, written to '))!;
      assert.ok(line.startsWith(`live: run ${'c'.repeat(80)} closed, written to `) && line.length < 400, line.slice(0, 200));
    } finally {
      await server.stop();
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('says once that recordings are over budget although smaller runs still fit between, and reuses a freed first name (was: an error line per refusal; a.2 after a.jsonl was moved away)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    const logs: string[] = [];
    const server = new LiveServer({ root: out, port: 0, maxStoredBytes: 1000, log: (level, message) => logs.push(`${level} ${message}`) });
    try {
      await server.start();
      type Writer = { writeRun(id: string, records: { record: Record<string, unknown> }[]): Promise<void> };
      const write = (id: string, bytes: number) => (server as unknown as Writer).writeRun(id, [{ record: { type: 'message', content: 'x'.repeat(bytes) } }]);
      for (const [id, bytes] of [['a', 300], ['b', 800], ['c', 100], ['d', 800], ['e', 100]] as const) await write(id, bytes);
      const live = path.join(out, '.agent-immune/live');
      assert.deepEqual(readdirSync(live).sort(), ['a.jsonl', 'c.jsonl', 'e.jsonl']);
      assert.equal(logs.filter((line) => line.startsWith('error ')).length, 1, logs.join(' | '));
      await write('c', 10);
      rmSync(path.join(live, 'c.jsonl'));
      await write('c', 10);
      assert.deepEqual(readdirSync(live).sort(), ['a.jsonl', 'c.2.jsonl', 'c.jsonl', 'e.jsonl']);
    } finally {
      await server.stop();
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('a link planted in the recordings folder neither hides a run (was: a dangling one made the write fail) nor leads the budget outside the root', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'ai-live-elsewhere-'));
    const logs: string[] = [];
    const server = new LiveServer({ root: out, port: 0, maxStoredBytes: 1000, log: (level, message) => logs.push(`${level} ${message}`) });
    try {
      await server.start();
      type Writer = { writeRun(id: string, records: { record: Record<string, unknown> }[]): Promise<void> };
      const write = (id: string) => (server as unknown as Writer).writeRun(id, [{ record: { type: 'message', content: 'x' } }]);
      const live = path.join(out, '.agent-immune/live');
      mkdirSync(live, { recursive: true });
      symlinkSync('/nowhere/x', path.join(live, 'planted.jsonl'));
      await write('planted');
      await write('CON');
      assert.deepEqual(readdirSync(live).sort(), ['planted.2.jsonl', 'planted.jsonl', 'run_CON.jsonl'], 'a Windows device name gets a prefix');
      // The recordings folder itself replaced by a link to a full folder outside: refused as a link, not measured.
      rmSync(live, { recursive: true });
      writeFileSync(path.join(elsewhere, 'big.bin'), Buffer.alloc(5000));
      symlinkSync(elsewhere, live);
      await assert.rejects(write('after'), /\.agent-immune\/live: it is a symbolic link/);
      assert.ok(!logs.some((line) => /holds .* MiB/.test(line)), logs.join(' | '));
      assert.deepEqual(readdirSync(elsewhere), ['big.bin']);
    } finally {
      await server.stop();
      rmSync(out, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('counts what another receiver wrote to the same folder against the budget, measured again each minute (was: serve and the editor each filled 1 GiB)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    const servers = [new LiveServer({ root: out, port: 0, maxStoredBytes: 1000 }), new LiveServer({ root: out, port: 0, maxStoredBytes: 1000 })];
    const realNow = Date.now;
    try {
      await Promise.all(servers.map((s) => s.start()));
      type Writer = { writeRun(id: string, records: { record: Record<string, unknown> }[]): Promise<void> };
      const write = (server: LiveServer, id: string, bytes: number) => (server as unknown as Writer).writeRun(id, [{ record: { type: 'message', content: 'x'.repeat(bytes) } }]);
      await write(servers[0], 'a', 300);
      await write(servers[1], 'b', 300);
      Date.now = () => realNow() + 61_000;
      await write(servers[0], 'c', 400);
      assert.deepEqual(readdirSync(path.join(out, '.agent-immune/live')).sort(), ['a.jsonl', 'b.jsonl'], 'c would take the folder past 1000 bytes');
    } finally {
      Date.now = realNow;
      await Promise.all(servers.map((s) => s.stop()));
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('stops appending live alerts past the alert log budget and says so once (was: a sender could grow the log without bound)', () =>
    twoRunsWith({ maxAlertLogBytes: 1 }, (logs, out) => {
      assert.ok(!readdirSync(path.join(out, '.agent-immune')).includes('alerts'), 'nothing appended');
      assert.equal(logs.filter((line) => line.startsWith('error live: .agent-immune/alerts/anomalies.ndjson is over its 0 MiB budget')).length, 1, logs.join(' | '));
      assert.deepEqual(readdirSync(path.join(out, '.agent-immune/live')).sort(), ['conv-a.jsonl', 'conv-b.jsonl'], 'recordings are still written');
    }));

  it('writes a closed run as agent-trace/v1 that analyze reads to the same verdicts, and appends its alerts to the alert log', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
    try {
      const server = new LiveServer({ root: out, port: 0 });
      const { url } = await server.start();
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-moons', EPOCH);
      await provider.shutdown();
      await waitFor('the run', () => (server.runs.analysis('conv-moons')?.rounds.length === recorded.rounds.length ? true : undefined));
      await server.stop();
      const written = readdirSync(path.join(out, '.agent-immune/live'));
      assert.deepEqual(written, ['conv-moons.jsonl']);
      const replay = await analyzeTrace(await readAnyTrace(path.join(out, '.agent-immune/live', written[0])));
      assert.deepEqual(verdicts(replay), verdicts(recorded));
      const log = readFileSync(path.join(out, '.agent-immune/alerts/anomalies.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string; code: string });
      assert.ok(log.length >= 1 && log.every((r) => r.source === 'live:conv-moons'));
      assert.deepEqual([...new Set(log.map((r) => r.code))].sort(), [...new Set((recorded.alerts ?? []).map((a) => a.code))].sort());
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('hostile and broken requests', () => {
    let server: LiveServer;
    let url: string;
    const stored = () => JSON.stringify(server.runs.analysis('conv-moons'));
    let before: string;
    let logs: string[];

    beforeEach(async () => {
      logs = [];
      server = new LiveServer({ root, port: 0, maxBodyBytes: 256 * 1024, requestTimeoutMs: 1500, maxStreamBacklogBytes: 16 * 1024, log: (_level, message) => logs.push(message) });
      url = (await server.start()).url;
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
      await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-moons', EPOCH);
      await provider.shutdown();
      before = await waitFor('the run', () => (server.runs.analysis('conv-moons')?.rounds.length === recorded.rounds.length ? stored() : undefined));
    });
    afterEach(async () => {
      assert.equal(stored(), before, 'what was received before is intact');
      await server.stop();
    });

    const post = (type: string, body: Buffer | string, extra: Record<string, string> = {}) => send(`${url}/v1/traces`, 'POST', { 'Content-Type': type, ...extra }, body);

    it('answers 400 with a google.rpc.Status to malformed JSON, protobuf and shapes', async () => {
      for (const [type, body] of [
        ['application/json', '{"resourceSpans": ['],
        ['application/json', '[1, 2]'],
        ['application/json', '{"resourceSpans": 7}'],
        ['application/json', '{"resourceSpans":[{"scopeSpans":[{"spans":{"a":1}}]}]}'],
        ['application/json', '{"resourceSpans":[{"scopeSpans":[{"spans":"abc"}]}]}'],
        ['application/json', '{"resourceSpans":[{"scopeSpans":"x"}]}'],
        ['application/x-protobuf', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01])],
        ['application/json', gzipSync('{}').subarray(0, 8)],
      ] as const) {
        const answer = await post(type, body, typeof body !== 'string' && type === 'application/json' ? { 'Content-Encoding': 'gzip' } : {});
        assert.equal(answer.status, 400, `${type}: ${String(body).slice(0, 20)}`);
        if (type === 'application/json') assert.equal((JSON.parse(answer.body.toString()) as { code: number }).code, 3);
      }
    });

    it('answers 400 to attributes nested deeper than 256 levels (was a 500 from a stack overflow)', async () => {
      const levels = 3000;
      const value = `${'{"kvlistValue":{"values":[{"key":"k","value":'.repeat(levels)}{"stringValue":"x"}${'}]}}'.repeat(levels)}`;
      const span = `{"traceId":"${'ab'.repeat(16)}","spanId":"${'cd'.repeat(8)}","name":"deep","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"deep","value":${value}}]}`;
      const answer = await post('application/json', `{"resourceSpans":[{"scopeSpans":[{"spans":[${span}]}]}]}`);
      assert.equal(answer.status, 400);
      assert.match((JSON.parse(answer.body.toString()) as { message: string }).message, /nests deeper than 256 levels/);
    });

    it('keeps the readable spans of a request and reports the rest as partial success', async () => {
      const spans = [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'other', startTimeUnixNano: '1', endTimeUnixNano: '2' }, { name: 'no ids' }];
      const answer = await post('application/json', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body.toString()), { partialSuccess: { rejectedSpans: '1', errorMessage: 'span without traceId/spanId' } });
      assert.equal(server.counters().rejected, 1);
    });

    it('answers 400 to a request target that is not a URL, and to a run id that is not valid percent-encoding (one crashed the receiver)', async () => {
      const port = new URL(url).port;
      const answer = await exchange(port, (socket) => socket.write('GET http://[ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
      assert.match(answer, /^HTTP\/1\.1 400/);
      assert.equal((await send(`${url}/v1/runs/%E0%A4%A`, 'GET', {})).status, 400);
      assert.equal((await send(`${url}/v1/runs`, 'GET', {})).status, 200, 'the receiver is still serving');
    });

    it('answers 415 to a content type OTLP does not define, and to an unknown content encoding', async () => {
      assert.equal((await post('text/plain', '{}')).status, 415);
      assert.equal((await send(`${url}/v1/traces`, 'POST', {}, '{}')).status, 415);
      assert.equal((await post('application/json', '{}', { 'Content-Encoding': 'br' })).status, 415);
    });

    it('answers 413 to an oversized body, declared, streamed or inflated from gzip', async () => {
      const big = Buffer.alloc(300 * 1024, 0x20);
      assert.equal((await post('application/json', big)).status, 413);
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => resolve(res.statusCode!));
        req.on('error', reject);
        for (let i = 0; i < 30; i++) req.write(Buffer.alloc(16 * 1024, 0x20));
        req.end();
      });
      assert.equal(chunked, 413);
      assert.equal((await post('application/json', gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)), { 'Content-Encoding': 'gzip' })).status, 413);
    });

    it('closes a client that stalls mid-body and keeps serving the others meanwhile', async () => {
      const port = new URL(url).port;
      const closed = exchange(port, (socket) => socket.write(`POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resourceSpans":`));
      assert.equal((await send(`${url}/v1/runs`, 'GET', {})).status, 200, 'others are served while it stalls');
      assert.match(await closed, /^HTTP\/1\.1 408/);
    });

    it('logs a request that did not arrive in time as a 408, once, its headers slow too (was: "the client aborted the request" (400))', async () => {
      const logs: string[] = [];
      const quick = new LiveServer({ root, port: 0, requestTimeoutMs: 1_000, log: (level, message) => logs.push(`${level} ${message}`) });
      const { port } = await quick.start();
      const closed = exchange(port, (socket) => {
        socket.write('POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        setTimeout(() => socket.write('Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resourceSpans":'), 700);
      });
      assert.match(await closed, /^HTTP\/1\.1 408/);
      await waitFor('the refusal logged', () => (logs.length > 0 ? true : undefined));
      await quick.stop();
      assert.deepEqual(logs.filter((l) => l.includes('refused')), ['warn live: refused a request (408): the request did not arrive in full within 1 s']);
    });

    it('logs a request still in its headers at the timeout as a 408, and a malformed one as a 400, alone or behind a complete request; not a connection that sent nothing (was: answered by Node, never logged)', async () => {
      const logs: string[] = [];
      const quick = new LiveServer({ root, port: 0, requestTimeoutMs: 1_000, log: (level, message) => logs.push(`${level} ${message}`) });
      const { port } = await quick.start();
      const body = JSON.stringify({ resourceSpans: [] });
      const stalled = exchange(port, (socket) => socket.write('POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      const malformed = exchange(port, (socket) => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      const behind = exchange(port, (socket) => socket.write(`POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}GARBAGE\r\n\r\n`));
      const silent = exchange(port, () => undefined);
      assert.match(await stalled, /^HTTP\/1\.1 408 Request Timeout/);
      assert.match(await malformed, /^HTTP\/1\.1 400 Bad Request/);
      // Node answers the garbage before the request ahead of it is answered, and closes the connection.
      assert.equal(statusLines(await behind).at(-1), 'HTTP/1.1 400 Bad Request');
      await silent;
      await quick.stop();
      assert.deepEqual(logs.filter((l) => l.includes('refused')).sort(), [
        'warn live: refused a request (400): a malformed HTTP request (HPE_INVALID_METHOD)',
        'warn live: refused a request (400): a malformed HTTP request (HPE_INVALID_METHOD)',
        'warn live: refused a request (408): the request headers did not arrive in full within 1 s',
      ]);
    });

    it('logs a broken pipelined request as what it is, not as a timeout (re-review: the answer to the one before it read as a 408)', async () => {
      const logs: string[] = [];
      const pipelined = new LiveServer({ root, port: 0, log: (level, message) => logs.push(`${level} ${message}`) });
      const { port } = await pipelined.start();
      const spans = Array.from({ length: 2000 }, (_, i) => ({ traceId: 'a'.repeat(32), spanId: i.toString(16).padStart(16, '0'), name: 'x', startTimeUnixNano: '1', endTimeUnixNano: '2' }));
      const post = (body: string) => `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const broken = post('{"resourceSpans": [');
      const answers = await exchange(
        port,
        (socket) => {
          socket.write(post(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] })) + broken.slice(0, -5));
          setTimeout(() => socket.write(broken.slice(-5)), 200);
        },
        (answer) => statusLines(answer).length === 2,
      );
      await pipelined.stop();
      assert.deepEqual(statusLines(answers), ['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
      const refused = logs.filter((l) => l.includes('refused'));
      assert.equal(refused.length, 1, refused.join(' | '));
      assert.match(refused[0], /^warn live: refused a request \(400\): the body is not valid JSON/);
    });

    it('gathers no listeners on a keep-alive connection refused again and again (third review: one per 415)', async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.name);
      process.on('warning', onWarning);
      const refusing = new LiveServer({ root, port: 0 });
      const { port } = await refusing.start();
      try {
        const post = 'POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}';
        const answers = await exchange(port, (socket) => socket.write(post.repeat(30)), (answer) => statusLines(answer).length === 30);
        assert.deepEqual(new Set(statusLines(answers)), new Set(['HTTP/1.1 415 Unsupported Media Type']));
        assert.equal(statusLines(answers).length, 30);
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(warnings.filter((w) => w === 'MaxListenersExceededWarning'), []);
      } finally {
        process.off('warning', onWarning);
        await refusing.stop();
      }
    });

    it('stops while a client stalls mid-body (was: Ctrl-C never returned, since closing stops the request timeouts)', async () => {
      const slow = new LiveServer({ root, port: 0, requestTimeoutMs: 600_000 });
      const { port } = await slow.start();
      const socket = connect(port, '127.0.0.1', () => socket.write(`POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resourceSpans":`));
      const cut = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await waitFor('the stalled request', () => (slow.counters().requests > 0 || socket.bytesWritten > 0 ? true : undefined));
      await slow.stop();
      await cut;
    });

    it('receives and writes the spans of a request that ends while it stops (was: answered 200, then dropped)', async () => {
      const out = mkdtempSync(path.join(tmpdir(), 'ai-live-out-'));
      const stopping = new LiveServer({ root: out, port: 0 });
      try {
        const { port } = await stopping.start();
        const body = Buffer.from(await recordCrewRun(RUN, 'late-run', EPOCH));
        const head = `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
        const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, 100)])));
        let answer = '';
        socket.on('data', (d) => (answer += d.toString()));
        await waitFor('the request', () => (stopping.counters().requests > 0 ? true : undefined));
        const stopped = stopping.stop();
        setTimeout(() => socket.end(body.subarray(100)), 500);
        await stopped;
        assert.match(answer, /^HTTP\/1\.1 200/);
        assert.deepEqual(readdirSync(path.join(out, '.agent-immune/live')), ['late-run.jsonl']);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });

    it('serves at most 16 event-stream readers at once, refusing the next with 503 (was: 300 stalled readers held 2.9 GB)', async () => {
      const port = new URL(url).port;
      const open = (): Promise<{ socket: ReturnType<typeof connect>; head: string }> =>
        new Promise((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
          socket.once('data', (d) => resolve({ socket, head: d.toString() }));
        });
      const readers = [];
      for (let i = 0; i < 16; i++) readers.push(await open());
      assert.ok(readers.every((r) => /^HTTP\/1\.1 200/.test(r.head)));
      const refused = await open();
      assert.match(refused.head, /^HTTP\/1\.1 503/);
      for (const r of [...readers, refused]) r.socket.destroy();
      await waitFor('the readers gone', () => ((server as unknown as { streams: Set<unknown> }).streams.size === 0 ? true : undefined));
      const again = await open();
      assert.match(again.head, /^HTTP\/1\.1 200/, 'a place freed is served');
      again.socket.destroy();
    });

    it('disconnects an event-stream reader that falls behind instead of holding spans back', async () => {
      const port = new URL(url).port;
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
      socket.pause(); // never reads
      await waitFor('the stream', () => ((server as unknown as { streams: Set<unknown> }).streams.size === 1 ? true : undefined));
      const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` }), { maxExportBatchSize: 64 }));
      // Enough event bytes to outrun the reader's socket buffers: long run ids ride on every event.
      for (let i = 0; i < 40; i++) {
        await emitCrewRun(provider.getTracer('crew'), crewRun({ workers: 12, cycles: 3, attacker: 1 }), `other-${i}-${'x'.repeat(2000)}`, EPOCH);
        await provider.forceFlush();
      }
      await provider.shutdown();
      await waitFor('the slow reader to be dropped', () => (logs.some((l) => l.includes('fell too far behind')) ? true : undefined));
      socket.destroy();
      await waitFor('the other runs', () => (server.runs.list().length === 41 ? true : undefined));
    });

    it('streams round and alert events as NDJSON, or as SSE when asked', async () => {
      for (const accept of ['application/x-ndjson', 'text/event-stream']) {
        const text = await new Promise<string>((resolve, reject) => {
          const req = request(`${url}/v1/events`, { headers: { Accept: accept } }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => {
              body += d.toString();
              if (body.includes('"type":"round"')) {
                req.destroy();
                resolve(body);
              }
            });
          });
          req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
          req.end();
          setTimeout(() => {
            const provider = crewProvider(new BatchSpanProcessor(new JsonExporter({ url: `${url}/v1/traces` })));
            void emitCrewRun(provider.getTracer('crew'), RUN, `stream-${accept}`, EPOCH).then(() => provider.shutdown());
          }, 50);
        });
        if (accept === 'text/event-stream') assert.match(text, /^event: (run|round)\ndata: \{/m);
        else assert.ok(text.split('\n').filter(Boolean).every((line) => typeof (JSON.parse(line) as LiveEvent).type === 'string'));
      }
    });

    it('refuses requests naming a foreign Host (DNS rebinding) and unknown endpoints', async () => {
      assert.equal((await send(`${url}/v1/runs`, 'GET', { Host: 'attacker.example:4318' })).status, 403);
      assert.equal((await send(`${url}/v1/nope`, 'GET', {})).status, 404);
      assert.equal((await send(`${url}/v1/traces`, 'GET', {})).status, 405);
      assert.equal((await send(`${url}/v1/runs/unknown`, 'GET', {})).status, 404);
    });
  });

  it('prints a run id or agent name of thousands of characters cut to 80 (was: each line filled the screen)', () => {
    const id = 'r'.repeat(5000);
    const line = eventLine({ type: 'round', run: id, round: 2, attackers: ['a'.repeat(3000)], infected: [], changed: [], restarted: false });
    assert.match(line, /^run r{79}… round 2: a{79}… ATTACKER\n$/);
  });

  it('needs the bearer token when one is set, and refuses a non-loopback bind without --allow-remote and a token', async () => {
    assert.throws(() => new LiveServer({ root, host: '0.0.0.0' }), /allow-remote/);
    assert.throws(() => new LiveServer({ root, host: '0.0.0.0', allowRemote: true }), /token/);
    const server = new LiveServer({ root, port: 0, token: 's3cret' });
    const { url } = await server.start();
    assert.equal((await send(`${url}/v1/runs`, 'GET', {})).status, 401);
    assert.equal((await send(`${url}/v1/runs`, 'GET', { Authorization: 'Bearer s3cret' })).status, 200);
    assert.equal((await send(`${url}/v1/runs`, 'GET', { Authorization: 'bearer s3cret' })).status, 200, 'the scheme is case-insensitive (was 401)');
    const protobuf = await send(`${url}/v1/traces`, 'POST', { 'Content-Type': 'application/x-protobuf' }, Buffer.alloc(0));
    assert.deepEqual([protobuf.status, protobuf.type], [401, 'application/x-protobuf'], 'a refused protobuf export is answered in protobuf (was JSON)');
    for (const wrong of ['Bearer s3cre', 'Bearer s3cret2', 'Basic s3cret', 's3cret']) assert.equal((await send(`${url}/v1/runs`, 'GET', { Authorization: wrong })).status, 401, wrong);
    const provider = crewProvider(new BatchSpanProcessor(new ProtoExporter({ url: `${url}/v1/traces`, headers: { Authorization: 'Bearer s3cret' } })));
    await emitCrewRun(provider.getTracer('crew'), RUN, 'conv-moons', EPOCH);
    await provider.shutdown();
    await waitFor('the run', () => (server.runs.analysis('conv-moons') ? true : undefined));
    await server.stop();
  });
});
