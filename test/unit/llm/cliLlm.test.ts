// `agent-immune analyze --scorer llm --filter llm` against the loopback server: which parts used the LLM, the fallback
// with one warning and an unchanged exit code when the server is gone, and the key never printed.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { FakeLlmServer } from '../../support/fakeLlmServer';

const KEY = 'sk-agent-immune-cli-0123456789abcdef';
const fixture = path.resolve(__dirname, '../../fixtures/traces/llm-injection.jsonl');

describe('agent-immune analyze with the LLM upgrade', function () {
  this.timeout(60_000);
  let server: FakeLlmServer;
  let cwd: string;
  let trace: string;

  before(async () => {
    cwd = await mkdtemp(path.join(tmpdir(), 'ai-llm-cli-'));
    trace = path.join(cwd, 'run.jsonl');
    await writeFile(trace, await readFile(fixture, 'utf8'));
  });
  after(() => rm(cwd, { recursive: true, force: true }));
  beforeEach(async () => (server = await new FakeLlmServer().start()));
  afterEach(() => server.stop());

  async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env });
    return { code, stdout, stderr };
  }

  it('uses the LLM for scorer and filter and says so, without printing the key', async () => {
    const { code, stdout, stderr } = await cli({ AGENT_IMMUNE_API_KEY: KEY }, 'analyze', trace, '--scorer', 'llm', '--filter', 'llm', '--base-url', server.url, '--model', 'fake-judge', '--json', '--no-llm-cache');
    const analysis = JSON.parse(stdout);
    assert.equal(code, 1);
    assert.equal(analysis.scorer, 'llm:fake-judge');
    assert.equal(analysis.filter, 'llm:fake-judge');
    assert.ok(analysis.llm.calls > 0);
    assert.equal(stderr, '');
    assert.ok(!stdout.includes(KEY) && !stderr.includes(KEY));
    assert.ok(server.requests.every((r) => r.authorization === `Bearer ${KEY}`));
  });

  it('falls back to the embedded default with one warning and the same exit code when the server is stopped', async () => {
    const url = server.url;
    await server.stop();
    const embedded = await cli({}, 'analyze', trace);
    const { code, stdout, stderr } = await cli({ OPENAI_API_KEY: KEY }, 'analyze', trace, '--scorer', 'llm', '--filter', 'llm', '--base-url', url, '--no-llm-cache');
    assert.equal(code, embedded.code);
    assert.match(stdout, /scorer embedded, filter embedded/);
    assert.equal(stdout.match(/^warning: .*LLM endpoint failed/gm)?.length, 1);
    assert.equal(stderr, '');
    assert.ok(!stdout.includes(KEY));
  });

  it('keeps the key out of every output even when the server echoes it in an error', async () => {
    server.behaviour = 'echo-key';
    for (const json of [false, true]) {
      const { stdout, stderr } = await cli({ AGENT_IMMUNE_API_KEY: KEY }, 'analyze', trace, '--scorer', 'llm', '--base-url', server.url, '--no-llm-cache', ...(json ? ['--json'] : []));
      assert.match(stdout + stderr, /refused the API key/);
      assert.ok(!(stdout + stderr).includes(KEY));
      assert.ok(!(stdout + stderr).includes('sk-agent-immune'));
    }
  });

  it('keeps no reply cache for a keyless local endpoint: planted entries could not be told from its own', async () => {
    const calls = async () => JSON.parse((await cli({}, 'analyze', trace, '--scorer', 'llm', '--base-url', server.url, '--model', 'fake-judge', '--json')).stdout).llm;
    const first = await calls();
    const second = await calls();
    assert.ok(first.calls > 0);
    assert.deepEqual([second.calls, second.cacheHits], [first.calls, 0]);
    await assert.rejects(stat(path.join(cwd, '.agent-immune/cache/llm')), { code: 'ENOENT' });
  });

  it('refuses a remote endpoint without a key: one warning, embedded result', async () => {
    const { code, stdout } = await cli({}, 'analyze', trace, '--scorer', 'llm', '--base-url', 'https://llm.example.invalid/v1');
    assert.equal(code, 1);
    assert.match(stdout, /scorer embedded/);
    assert.equal(stdout.match(/^warning: no API key/gm)?.length, 1);
    assert.equal(server.requests.length, 0);
  });

  it('rejects bad LLM flags as usage errors', async () => {
    assert.equal((await cli({}, 'analyze', trace, '--scorer', 'gpt')).code, 2);
    assert.equal((await cli({}, 'analyze', trace, '--model', 'x')).code, 2);
    assert.equal((await cli({}, 'analyze', trace, '--scorer', 'llm', '--llm-max-calls', '-1')).code, 2);
  });
});
