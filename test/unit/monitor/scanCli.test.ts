// `agent-immune scan`: fires on the mind-virus demo, silent on clean files, exit codes 0/1/2, alerts in anomalies.ndjson;
// and analyze's JSON lists the verbatim spread of the demo trace.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import type { Scorer } from '../../../src/core/guard/types';
import { readTraceFile } from '../../../src/node/readTrace';
import type { ScanReport } from '../../../src/cli/commands/scan';

const root = path.resolve(__dirname, '../../..');
const bundledDemo = path.join(root, 'examples/mind-virus');

describe('agent-immune scan', () => {
  let dir: string;
  let demo: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ai-scan-'));
    demo = path.join(dir, 'project');
    cpSync(bundledDemo, demo, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: dir, env: {} });
    return { code, stdout, stderr };
  }
  const log = () => path.join(demo, '.agent-immune/alerts/anomalies.ndjson');

  it('fires on the mind-virus demo (advisory exit 0) and appends every alert to anomalies.ndjson', async () => {
    const { code, stdout } = await cli('scan', demo, '--json');
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as ScanReport;
    assert.equal(report.schema, 'agent-immune/scan/v1');
    const codes = new Set(report.alerts.map((a) => a.code));
    assert.deepEqual([...codes].sort(), ['propagation', 'propagation-request', 'verbatim-spread', 'viral-persona']);
    assert.ok(!report.alerts.some((a) => a.subject.endsWith('reviewer/SKILL.md')), 'the clean skill stays silent');
    const lines = readFileSync(log(), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { schema: string; cooldownKey: string });
    assert.equal(lines.length, report.alerts.length);
    assert.equal(report.logged, lines.length);
    assert.ok(lines.every((l) => l.schema === 'agent-immune/alert/v1' && l.cooldownKey));
  });

  it('a second scan within the cooldown records nothing new but still reports', async () => {
    await cli('scan', demo);
    const before = readFileSync(log(), 'utf8');
    const { code, stdout } = await cli('scan', demo, '--json');
    const report = JSON.parse(stdout) as ScanReport;
    assert.equal(code, 0);
    assert.equal(report.logged, 0);
    assert.equal(report.cooling, report.alerts.length);
    assert.equal(readFileSync(log(), 'utf8'), before);
  });

  it('--fail-on-alert exits 1 when alerts fire and 0 on a clean folder', async () => {
    assert.equal((await cli('scan', demo, '--fail-on-alert', '--no-log')).code, 1);
    const clean = path.join(dir, 'clean');
    mkdirSync(path.join(clean, 'skills/review'), { recursive: true });
    cpSync(path.join(demo, 'agents/reviewer/SKILL.md'), path.join(clean, 'skills/review/SKILL.md'));
    writeFileSync(path.join(clean, 'MEMORY.md'), 'Client prefers British spelling. The build node restarts nightly at a low frequency.\n');
    const { code, stdout } = await cli('scan', clean, '--fail-on-alert');
    assert.equal(code, 0, stdout);
    assert.match(stdout, /2 file\(s\), 0 trace\(s\); 0 alert\(s\)/);
    assert.equal(existsSync(path.join(clean, '.agent-immune')), false);
  });

  it('scans a single persisted file, and honours --glob', async () => {
    const { stdout } = await cli('scan', path.join(demo, 'agents/coder/SKILL.md'), '--json', '--no-log');
    assert.deepEqual((JSON.parse(stdout) as ScanReport).alerts.map((a) => a.code), ['propagation-request']);
    const globbed = JSON.parse((await cli('scan', demo, '--glob', '**/SOUL.md', '--json', '--no-log')).stdout) as ScanReport;
    assert.equal(globbed.files, 1);
  });

  const bad: [string, string[]][] = [
    ['no target', ['scan']],
    ['two targets', ['scan', 'a', 'b']],
    ['missing path', ['scan', 'does-not-exist']],
    ['unknown flag', ['scan', '.', '--loud']],
    ['bad --max-file-mb', ['scan', '.', '--max-file-mb', '0']],
  ];
  for (const [name, argv] of bad) it(`exits 2 on ${name}`, async () => assert.equal((await cli(...argv)).code, 2));

  it('exits 2 on a broken trace given directly, and on an invalid monitor config', async () => {
    writeFileSync(path.join(dir, 'broken.jsonl'), '{"type":"message"\n');
    assert.equal((await cli('scan', 'broken.jsonl')).code, 2);
    writeFileSync(path.join(demo, 'agent-immune.config.json'), JSON.stringify({ monitor: { viralPersonaMarkers: 'many' } }));
    const { code, stderr } = await cli('scan', demo);
    assert.equal(code, 2);
    assert.match(stderr, /monitor\.viralPersonaMarkers/);
  });
});

describe('analyze lists monitor alerts', () => {
  it('reports the verbatim spread of the demo trace along its edges', async () => {
    const flat: Scorer = { name: 'flat', scoreRound: async ({ model }) => model.agents.map(() => ({ pAtk: 0.1, pInf: 0.1 })) };
    const trace = await readTraceFile(path.join(bundledDemo, 'traces/spread.trace.jsonl'));
    const analysis = await analyzeTrace(trace, { scorer: () => flat });
    const spread = analysis.alerts?.find((a) => a.code === 'verbatim-spread');
    assert.ok(spread);
    assert.deepEqual(spread.chain?.map((h) => `${h.agent}@${h.round}`), ['planner@0', 'researcher@1', 'coder@2', 'reviewer@3']);
  });
});
