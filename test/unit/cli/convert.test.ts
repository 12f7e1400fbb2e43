// `convert` and `analyze` on foreign formats: analyze accepts each format directly, convert writes agent-trace/v1 that
// parses back to the same trace and that analyze judges exactly as it judged the original file.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { parseTraceText } from '../../../src/core/trace/parse';
import { readAnyTrace } from '../../../src/node/readAnyTrace';

const root = path.resolve(__dirname, '../../..');
const fixtures = path.join(root, 'test/fixtures/importers');

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: root, env: {} });
  return { code, stdout, stderr };
}

/** The verdicts of an analysis: each agent's category and scores, and every round's categories. */
function verdicts(json: string): unknown[] {
  const analysis = JSON.parse(json) as { agents: { id: string; category: string; pAtk: number; pInf: number }[]; rounds: { agents: Record<string, { category: string }> }[] };
  return [
    ...analysis.agents.map((a) => [a.id, a.category, a.pAtk, a.pInf]),
    ...analysis.rounds.map((r) => Object.entries(r.agents).map(([id, a]) => `${id}:${a.category}`).join(' ')),
  ];
}

const formats: [string, string][] = [
  ['otlp-genai.json', 'otlp'],
  ['otlp-openinference.json', 'otlp'],
  ['otlp-genai.jsonl', 'otlp'],
  ['ag2-runtime.log', 'autogen'],
  ['autogen-core-events.jsonl', 'autogen'],
  ['langsmith-runs.json', 'langsmith'],
  ['infa-guard.json', 'infa-guard'],
  ['g-safeguard.json', 'infa-guard'],
  ['langsmith-tree.json', 'langsmith'],
  ['agentdojo-run.json', 'agentdojo'],
  ['debate-rows.jsonl', 'debate'],
  ['debate-du.json', 'debate'],
  ['who-and-when.json', 'who-and-when'],
  ['tau-bench.json', 'tau-bench'],
  ['tau2-bench-airline.json', 'tau2'],
  ['any-agent-google-adk.json', 'any-agent'],
  ['mad-debate.json', 'mad'],
];

describe('agent-immune convert / analyze on imported formats', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-convert-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, format] of formats) {
    it(`analyze reads ${name} (${format}) directly, and its --episode 0 conversion round-trips to the same verdicts`, async () => {
      const input = path.join(fixtures, name);
      const direct = await cli('analyze', input, '--json');
      assert.ok(direct.code <= 1, direct.stderr);

      const out = path.join(dir, `${name}.jsonl`);
      const converted = await cli('convert', input, '--episode', '0', '-o', out);
      assert.equal(converted.code, 0, converted.stderr);
      assert.match(converted.stdout, new RegExp(`\\(${format}\\)`));

      const original = await readAnyTrace(input, { episode: 0 });
      const reparsed = parseTraceText(readFileSync(out, 'utf8'));
      assert.deepEqual(reparsed.messages.map(({ line: _line, ...m }) => m), original.messages.map(({ line: _line, ...m }) => m));
      assert.deepEqual(reparsed.agents, original.agents);
      assert.deepEqual(reparsed.edges, original.edges);
      assert.deepEqual(reparsed.labels.map(({ line: _line, ...l }) => l), original.labels.map(({ line: _line, ...l }) => l));
      assert.deepEqual(reparsed.task, original.task);

      const again = await cli('analyze', out, '--json');
      assert.equal(again.code, direct.code, again.stderr);
      assert.deepEqual(verdicts(again.stdout), verdicts(direct.stdout));
    });
  }

  it('writes every run of a multi-run file into a folder, one agent-trace/v1 file each', async () => {
    const out = path.join(dir, 'episodes');
    const { code, stdout } = await cli('convert', path.join(fixtures, 'otlp-genai.json'), '-o', out);
    assert.equal(code, 0);
    assert.match(stdout, /2 traces/);
    assert.deepEqual(readdirSync(out).sort(), ['0-conv-a.jsonl', '1-conv-b.jsonl']);
    assert.equal(parseTraceText(readFileSync(path.join(out, '1-conv-b.jsonl'), 'utf8')).run, 'conv-b');
  });

  it('writes a single run into a folder when -o ends in a slash or names one (it wrote a file called "dir" before)', async () => {
    const trace = path.join(root, 'examples/traces/random-8.jsonl');
    for (const [out, made] of [[path.join(dir, 'one-run/'), false], [path.join(dir, 'existing'), true]] as const) {
      if (made) mkdirSync(out);
      const { code, stdout } = await cli('convert', trace, '-o', out);
      assert.equal(code, 0);
      assert.match(stdout, /1 trace in /);
      assert.equal(readdirSync(out).length, 1);
      assert.match(readdirSync(out)[0], /^0-.*\.jsonl$/);
    }
  });

  it('writes nothing when a line of the last run is refused (runs are written one at a time, after a first pass)', async () => {
    const input = path.join(dir, 'cut.jsonl');
    writeFileSync(input, `${readFileSync(path.join(fixtures, 'debate-rows.jsonl'), 'utf8')}{"broken\n`);
    const out = path.join(dir, 'cut-runs');
    const refused = await cli('convert', input, '-o', out);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /cut\.jsonl:3: not valid JSON/);
    assert.ok(!existsSync(out));
    const lenient = await cli('convert', input, '-o', out, '--lenient');
    assert.equal(lenient.code, 0);
    assert.deepEqual(readdirSync(out).sort(), ['0-question-0.jsonl', '1-question-1.jsonl']);
    // The skipped line is reported on the run it followed, the last.
    assert.match(lenient.stderr, /1-question-1\.jsonl: 3 agents, 9 messages, 9 labels, 1 warnings/);
  });

  it('refuses to write a run through a symbolic link in the -o folder (a run id names it) and writes nothing', async () => {
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const out = path.join(dir, 'linked-runs');
    mkdirSync(out);
    symlinkSync(victim, path.join(out, '1-conv-b.jsonl'));
    const { code, stderr } = await cli('convert', path.join(fixtures, 'otlp-genai.json'), '-o', out);
    assert.equal(code, 2);
    assert.match(stderr, /1-conv-b\.jsonl is a symbolic link/);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    assert.deepEqual(readdirSync(out), ['1-conv-b.jsonl']);
    // One run written to a file the repository committed as a link: refused as well.
    const single = await cli('convert', path.join(fixtures, 'otlp-genai.json'), '--episode', '1', '-o', path.join(out, '1-conv-b.jsonl'));
    assert.equal(single.code, 2);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    // A linked folder on the way, to a file or a folder of runs (was: written outside through it).
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(dir, 'reports'));
    for (const target of ['reports/c.jsonl', 'reports/', 'reports/sub/', path.join(dir, 'reports', 'd.jsonl')]) {
      let stderr = '';
      const argv = ['convert', path.join(fixtures, 'otlp-genai.json'), ...(target.endsWith('.jsonl') ? ['--episode', '1'] : []), '-o', target];
      const code = await runCli(argv, { stdout: () => undefined, stderr: (t) => (stderr += t), cwd: dir, env: {} });
      assert.equal(code, 2, target);
      assert.match(stderr, /reports is a symbolic link; converting would write through it/, target);
    }
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  it('refuses to squeeze several runs into one .jsonl file and names the two ways out', async () => {
    const out = path.join(dir, 'all.jsonl');
    const { code, stderr } = await cli('convert', path.join(fixtures, 'infa-guard.json'), '-o', out);
    assert.equal(code, 2);
    assert.match(stderr, /--episode N/);
    assert.ok(!existsSync(out));
  });

  it('refuses -o naming the input file itself and leaves the recording as it was (exit 2)', async () => {
    const input = path.join(dir, 'run.json');
    copyFileSync(path.join(root, 'examples/agentdojo/banking-injection.json'), input);
    const before = readFileSync(input, 'utf8');
    const { code, stderr } = await cli('convert', input, '-o', input);
    assert.equal(code, 2);
    assert.match(stderr, /is the input file itself/);
    assert.equal(readFileSync(input, 'utf8'), before);
    // Nor in folder mode, where a run's file name can be the input's.
    const runs = path.join(dir, 'runs');
    const first = await cli('convert', path.join(fixtures, 'infa-guard.json'), '-o', runs);
    assert.equal(first.code, 0);
    const written = path.join(runs, readdirSync(runs).sort()[0]);
    copyFileSync(path.join(fixtures, 'infa-guard.json'), written);
    const again = await cli('convert', written, '-o', runs);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /over the input file itself/);
    assert.equal(readFileSync(written, 'utf8'), readFileSync(path.join(fixtures, 'infa-guard.json'), 'utf8'));
  });

  it('writes one run to stdout with -o -', async () => {
    const { code, stdout } = await cli('convert', path.join(fixtures, 'infa-guard.json'), '--episode', '1', '-o', '-');
    assert.equal(code, 0);
    assert.equal(parseTraceText(stdout).run, 'episode-1');
  });

  it('analyze --from overrides detection, and --episode picks the run', async () => {
    const { code, stdout, stderr } = await cli('analyze', path.join(fixtures, 'langsmith-runs.json'), '--from', 'langgraph', '--episode', '1', '--json');
    assert.ok(code <= 1, stderr);
    assert.deepEqual((JSON.parse(stdout) as { agents: { id: string }[] }).agents.map((a) => a.id), ['researcher', 'writer']);
  });

  const usage: [string, string[]][] = [
    ['no -o', ['convert', 'x.json']],
    ['a bad --episode', ['convert', 'x.json', '--episode', '-1', '-o', 'y']],
    ['an unknown --from', ['convert', 'x.json', '--from', 'csv', '-o', 'y']],
  ];
  for (const [name, argv] of usage) {
    it(`exits 2 on ${name}`, async () => {
      assert.equal((await cli(...argv)).code, 2);
    });
  }

  it('exits 2 and names the missing content when OTLP content was not captured', async () => {
    const { code, stderr } = await cli('analyze', path.join(fixtures, 'otlp-no-content.json'));
    assert.equal(code, 2);
    assert.match(stderr, /otlp-no-content\.json: .*no message content/);
  });
});
