// `agent-immune serve` as a process: whatever stops it (a closed terminal, a closed output pipe), the runs it received
// are written before it exits. Spawns the built CLI (dist/cli.js) and sends a crew run's spans from the real OTel SDK.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { crewRun, recordCrewRun } from '../../support/otlpRuns';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

/** Starts serve on a free port in `root`; resolves with the process, its URL and its stderr so far. */
function startServe(root: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stderr!.on('data', () => {
      const url = /listening on (http:\/\/\S+) /.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ child, url, stderr: () => stderr });
    });
  });
}

/** POSTs an OTLP JSON body; resolves with the status. */
function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A port no one listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('agent-immune serve, the process', function () {
  this.timeout(60_000);
  let root: string;
  let body: string;

  before(async function () {
    if (!existsSync(CLI)) this.skip(); // built by `npm test` before the unit tests
    body = await recordCrewRun(crewRun({ workers: 3, cycles: 2, attacker: 1 }), 'kept-run', Date.UTC(2026, 0, 5, 9));
  });
  beforeEach(() => (root = mkdtempSync(path.join(tmpdir(), 'ai-serve-process-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const recordings = () => (existsSync(path.join(root, '.agent-immune', 'live')) ? readdirSync(path.join(root, '.agent-immune', 'live')) : []);

  it('a closed terminal (SIGHUP) stops it as Ctrl+C does, writing the open run (was: killed, the run lost)', async () => {
    const { child, url } = await startServe(root);
    assert.equal(await post(url, body), 200);
    const exit = exited(child);
    child.kill('SIGHUP');
    assert.equal(await exit, 0);
    assert.deepEqual(recordings(), ['kept-run.jsonl']);
  });

  it('both outputs into one closed pipe (serve 2>&1 | head -1) stop it the same way (was: killed by its own notice on the closed pipe)', async () => {
    const port = await freePort();
    const pipeline = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" serve --port ${port} --json --root "${root}" 2>&1 | head -1 >/dev/null`], { stdio: 'ignore' });
    const done = exited(pipeline);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !(await post(url, body).then(() => true, () => false)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await done;
    for (let i = 0; i < 50 && recordings().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(recordings(), ['kept-run.jsonl']);
  });

  it('a closed output pipe (serve --json | head -1) stops it with one line, writing the open run (was: exit 0 at once, nothing written)', async () => {
    const { child, url, stderr } = await startServe(root);
    child.stdout!.destroy();
    const exit = exited(child);
    assert.equal(await post(url, body), 200);
    assert.equal(await exit, 0);
    assert.match(stderr(), /standard output was closed; stopping/);
    assert.deepEqual(recordings(), ['kept-run.jsonl']);
  });
});
