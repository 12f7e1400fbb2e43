// Where harden looks and what it says about it, each case run from another directory than the one scanned: a folder
// outside the current directory, `..` from a subfolder, an ancestor named like an excluded folder, a named file of
// an unsupported kind, the suggested next command, the scanned root's config and lockfile; and fail-closed
// reporting of what could not be read (too large, NUL bytes, unreadable folders, hostile nesting).
import * as assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { MIND_VIRUS_IMMUNITY_WARNING as MIND_WARNING } from '../../../src/core/harden/texts';
import { auditWriter } from '../../../src/node/integrity/auditLog';
import { lockWorkspace } from '../../../src/node/integrity/lock';
import { verifyWorkspace } from '../../../src/node/integrity/verify';

const sinks = path.resolve(__dirname, '../../fixtures/harden/sinks');

async function cli(cwd: string, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

interface Report {
  files: number;
  prompts: number;
  findings: { path: string; code: string }[];
  skipped: { path: string; reason: string }[];
  changed: string[];
  pinned: { repinned: string[] };
}

async function json(cwd: string, ...argv: string[]): Promise<{ code: number; report: Report }> {
  const run = await cli(cwd, 'harden', ...argv, '--json');
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

describe('harden paths', function () {
  this.timeout(60_000);
  let base: string;
  let elsewhere: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'ai-harden-paths-'));
    elsewhere = path.join(base, 'elsewhere');
    mkdirSync(elsewhere);
  });
  afterEach(() => {
    chmodSync(base, 0o755);
    rmSync(base, { recursive: true, force: true });
  });

  /** A CrewAI-style project (agents.yaml, tasks.yaml, crew.py) at `dir`. */
  function crewProject(dir: string): void {
    cpSync(path.join(sinks, 'crewai'), dir, { recursive: true });
  }

  it('a folder outside the current directory: its prompts, with paths as typed from here', async () => {
    const project = path.join(base, 'crew');
    crewProject(project);
    const { code, report } = await json(elsewhere, '../crew');
    assert.equal(code, 1);
    assert.ok(report.findings.some((f) => f.path === '../crew/config/agents.yaml'), report.findings.map((f) => f.path).join());
    assert.ok(report.findings.some((f) => f.path === '../crew/crew.py'));
  });

  it('`harden ..` from a subfolder keeps the Markdown prompt files', async () => {
    writeFileSync(path.join(base, 'AGENTS.md'), 'You are the repository agent.\n');
    mkdirSync(path.join(base, 'sub'));
    const { report } = await json(path.join(base, 'sub'), '..');
    assert.ok(report.findings.some((f) => f.path === '../AGENTS.md'), report.findings.map((f) => f.path).join());
  });

  for (const ancestor of ['build', 'dist', 'out', 'venv']) {
    it(`an ancestor folder named ${ancestor} hides nothing below it, also inside a repository`, async () => {
      const project = path.join(base, ancestor, 'app');
      crewProject(project);
      // With a .git above, the project root is the repository: the named folder is still walked.
      mkdirSync(path.join(base, '.git'));
      const { code, report } = await json(elsewhere, project);
      assert.equal(code, 1);
      assert.ok(report.findings.length >= 3, JSON.stringify(report));
    });
  }

  it('a named file of a kind harden does not read is an error, not a pass; a named agents.yaml is read', async () => {
    writeFileSync(path.join(base, 'notes.txt'), 'You are a planner.\n');
    const unsupported = await cli(elsewhere, 'harden', '../notes.txt');
    assert.equal(unsupported.code, 2);
    assert.match(unsupported.stderr, /notes\.txt is not a file harden reads/);
    crewProject(path.join(base, 'crew'));
    const { code, report } = await json(elsewhere, '../crew/config/agents.yaml');
    assert.equal(code, 1);
    assert.deepEqual([...new Set(report.findings.map((f) => f.path))], ['../crew/config/agents.yaml']);
  });

  it('the suggested next command repeats the paths as typed', async () => {
    crewProject(path.join(base, 'my crew'));
    const { stdout } = await cli(elsewhere, 'harden', '../my crew/config', '../my crew/crew.py');
    assert.match(stdout, /Run "agent-immune harden '\.\.\/my crew\/config' '\.\.\/my crew\/crew\.py' --write" to fix them\./);
  });

  it("uses the scanned root's config, and --repin the scanned root's lockfile", async () => {
    const project = path.join(base, 'crew');
    crewProject(project);
    writeFileSync(path.join(project, 'agent-immune.config.json'), JSON.stringify({ harden: { exclude: ['**/crew.py'] } }));
    writeFileSync(path.join(project, 'AGENTS.md'), 'You are the crew lead.\n');
    const { report } = await json(elsewhere, '../crew');
    assert.ok(!report.findings.some((f) => f.path.endsWith('crew.py')), 'the root config excludes crew.py');
    await lockWorkspace(project, auditWriter('test'));
    const { report: written } = await json(elsewhere, '../crew', '--write', '--repin');
    assert.deepEqual(written.pinned.repinned, ['../crew/AGENTS.md']);
    assert.equal((await verifyWorkspace(project)).report.status, 'clean');
    assert.match(readFileSync(path.join(project, '.agent-immune/audit.ndjson'), 'utf8'), /"repin"/);
  });

  it('crewAI- and ADK-style projects: --check lists their prompts and exits 1', async () => {
    crewProject(path.join(base, 'crew'));
    cpSync(path.join(sinks, 'adk_config'), path.join(base, 'adk'), { recursive: true });
    cpSync(path.join(sinks, 'adk.py'), path.join(base, 'adk', 'agent.py'));
    for (const [dir, expected] of [['crew', 3], ['adk', 6]] as const) {
      const run = await cli(elsewhere, 'harden', `../${dir}`, '--check');
      assert.equal(run.code, 1, run.stdout);
      assert.ok((run.stdout.match(/missing-immunity-warning/g) ?? []).length >= expected, run.stdout);
      assert.doesNotMatch(run.stdout, /Hardened:/);
    }
  });
});

describe('harden fail-closed reporting', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ai-harden-closed-'));
    writeFileSync(path.join(dir, 'AGENTS.md'), `You are the agent.\n`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says how many files it read and, with no prompt found, never says hardened', async () => {
    rmSync(path.join(dir, 'AGENTS.md'));
    writeFileSync(path.join(dir, 'util.py'), 'def add(a, b):\n    return a + b\n');
    const run = await cli(dir, 'harden');
    assert.equal(run.code, 0);
    assert.match(run.stdout, /No prompts found in 1 file\(s\) read\./);
  });

  it('a prompt file over 4 MiB and one with a NUL byte are reported as not read (exit 1), not called hardened', async () => {
    writeFileSync(path.join(dir, 'AGENTS.md'), `You are the agent.\n\n${MIND_WARNING}\n`);
    mkdirSync(path.join(dir, 'prompts'));
    writeFileSync(path.join(dir, 'prompts/big.md'), 'x'.repeat(4 * 1024 * 1024 + 1));
    writeFileSync(path.join(dir, 'prompts/binary.md'), 'You are\u0000 a planner.');
    const run = await cli(dir, 'harden');
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /prompts\/big\.md {2}not read {2}larger than 4 MiB/);
    assert.match(run.stdout, /prompts\/binary\.md {2}not read {2}contains a NUL byte/);
    assert.match(run.stdout, /Not checked: 2 file\(s\) or folder\(s\) that could not be read/);
  });

  it('an unreadable folder is reported and does not stop the rest of the tree', async function () {
    if (process.getuid?.() === 0) this.skip(); // root reads a folder whatever its mode
    mkdirSync(path.join(dir, 'locked'));
    writeFileSync(path.join(dir, 'locked/SKILL.md'), 'Secret.\n');
    chmodSync(path.join(dir, 'locked'), 0);
    try {
      const { code, report } = await json(dir);
      assert.equal(code, 1);
      assert.deepEqual(report.skipped.map((s) => [s.path, s.reason]), [['locked', 'permission denied']]);
      assert.ok(report.findings.some((f) => f.path === 'AGENTS.md'));
    } finally {
      chmodSync(path.join(dir, 'locked'), 0o755);
    }
  });

  it('nested template literals and f-strings 2,000 deep neither crash nor stop the other files', async () => {
    writeFileSync(path.join(dir, 'deep.ts'), 'const x = ' + '`${'.repeat(2000));
    writeFileSync(path.join(dir, 'deep.py'), 'x = ' + 'f"{'.repeat(2000));
    const run = await cli(dir, 'harden');
    assert.equal(run.stderr, '');
    assert.equal(run.code, 1);
    assert.match(run.stdout, /AGENTS\.md:1:1 {2}warning {2}missing-immunity-warning/);
    assert.match(run.stdout, /3 file\(s\) read/);
  });
});
