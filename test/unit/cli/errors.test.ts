// Every CLI failure is one line on stderr that names the file or the option at fault and says what to do, exit 2;
// --version, -V and version print the version from package.json, and --help lists them.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { fileErrorText } from '../../../src/core/errors';
import { version } from '../../../package.json';

async function cli(cwd: string, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

describe('CLI errors', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ai-cli-errors-'));
    mkdirSync(path.join(root, 'traces'));
    writeFileSync(path.join(root, 'traces', 'run.jsonl'), '{"type":"message","round":0,"from":"a","content":"hi"}\n');
    writeFileSync(path.join(root, 'README.md'), '# a file\n');
    writeFileSync(path.join(root, 'traces', 'empty.jsonl'), '');
    writeFileSync(path.join(root, 'traces', 'none.json'), '[ ]\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  // [what, argv, the one line expected on stderr]
  const cases: [string, string[], RegExp][] = [
    ['a path that does not exist (was a raw ENOENT lstat)', ['harden', 'missing.md'], /^agent-immune harden: missing\.md: no such file or folder; check the path$/],
    ['a folder given as the trace (was EISDIR ... read, naming nothing)', ['analyze', 'traces'], /^agent-immune analyze: traces is a folder, not a file: give one trace file in it, or run "agent-immune scan traces"/],
    ['a trace that does not exist', ['analyze', 'missing.jsonl'], /^agent-immune analyze: missing\.jsonl: no such file; check the path$/],
    ['an empty trace, named as given (was its absolute path)', ['analyze', 'traces/empty.jsonl'], /^agent-immune analyze: traces\/empty\.jsonl: the file is empty; expected a trace$/],
    ['a trace holding an empty list (was a 700-character "cannot tell the format")', ['analyze', 'traces/none.json'], /^agent-immune analyze: traces\/none\.json:1: the file holds an empty list; expected a trace$/],
    ['a file given as --root (was README.md/agent-immune.config.json: ENOTDIR)', ['lock', '--root', 'README.md'], /^agent-immune lock: --root README\.md is a file, not a folder: give the workspace folder/],
    ['a --root that does not exist', ['verify', '--root', 'nowhere'], /^agent-immune verify: --root nowhere: no such folder; check the path$/],
    ['serve given a file as --root (was "cannot read config: …/agent-immune.config.json: a part of the path is a file")', ['serve', '--root', 'README.md', '--port', '0'], /^agent-immune serve: --root README\.md is a file, not a folder: give the workspace folder the alert log and closed runs go into/],
    ['a --config that does not exist', ['analyze', 'traces/run.jsonl', '--config', 'nowhere.json'], /^agent-immune analyze: --config nowhere\.json: no such file; check the path$/],
    ['an output named after a folder', ['analyze', 'traces/run.jsonl', '--html', 'traces'], /^agent-immune analyze: --html traces is a folder: give a file name to write$/],
    ['an output under a file', ['verify', '--sarif', 'README.md/out.sarif'], /^agent-immune verify: --sarif README\.md\/out\.sarif: README\.md is a file, not a folder/],
    ['a mistyped option gets the closest one', ['verify', '--jsn'], /^agent-immune verify: unknown option --jsn; did you mean --json\? Run "agent-immune verify --help" for usage\.$/],
    ['a transposed option too', ['analyze', 'traces/run.jsonl', '--josn'], /^agent-immune analyze: unknown option --josn; did you mean --json\?/],
    ['an unknown option with nothing close', ['verify', '-x'], /^agent-immune verify: unknown option -x\. Run "agent-immune verify --help" for usage\.$/],
    ['an option without its value', ['scan', '--glob'], /^agent-immune scan: --glob needs a value\. Run/],
    ['a short option without its value (was "-o, needs a value")', ['convert', 'run.jsonl', '-o'], /^agent-immune convert: -o\/--out needs a value\. Run/],
    ['a short option whose value starts with a dash (was "-o=-VALUE", which sets "=-VALUE")', ['convert', 'run.jsonl', '-o', '-x'], /^agent-immune convert: -o needs a value; one that starts with "-" is written -o-VALUE\. Run/],
    ['an empty glob (was an internal error)', ['scan', '.', '--glob', ''], /^agent-immune scan: --glob needs a glob, not an empty string\. Run/],
    ['a flag given a value', ['verify', '--json=3'], /^agent-immune verify: --json takes no value\. Run/],
    ['an empty output file name (was silently no report)', ['analyze', 'traces/run.jsonl', '--html', ''], /^agent-immune analyze: --html needs a file name\. Run/],
    ['an empty --sarif', ['verify', '--sarif', ''], /^agent-immune verify: --sarif needs a file name\. Run/],
    ['serve on an address this machine does not have (was "is another receiver running?")', ['serve', '--host', '192.0.2.1', '--port', '0', '--allow-remote', '--token', 't'.repeat(32)], /^agent-immune serve: cannot listen on 192\.0\.2\.1:0 \(EADDRNOTAVAIL\); no network interface of this machine has that address; check --host$/],
    ['an option that takes one value, given twice (was: the last one kept silently)', ['convert', 'traces/run.jsonl', '-o', 'a.jsonl', '--out', 'b.jsonl'], /^agent-immune convert: --out is given twice: give it once\. Run/],
    ['an --llm-timeout no timer can wait (was an endpoint failure warning)', ['analyze', 'traces/run.jsonl', '--scorer', 'llm', '--llm-timeout', '1e10'], /^agent-immune analyze: --llm-timeout must be between 0\.1 and 86400 seconds\. Run/],
    ['a value that starts with a dash', ['analyze', 'run.jsonl', '--episode', '-x'], /^agent-immune analyze: --episode needs a value; one that starts with "-" is written --episode=-VALUE\. Run/],
    ['a negative number as a value (was "written --episode=-VALUE", which was then refused)', ['analyze', 'run.jsonl', '--episode', '-1'], /^agent-immune analyze: --episode must be an integer >= 0\. Run/],
    ['a negative number after a short option', ['convert', 'traces/run.jsonl', '-o', '-1', '--episode', '-2'], /^agent-immune convert: --episode must be an integer >= 0\. Run/],
    ['a negative number after a flag is still an argument', ['verify', '--json', '-1'], /^agent-immune verify: unknown option -1/],
    ['serve on a bracketed IPv6 address (was a raw getaddrinfo error)', ['serve', '--host', '[::1]', '--port', '0'], /^agent-immune serve: cannot listen on \[::1\]:0 \(ENOTFOUND\); that host name is unknown; check --host \(an IPv6 address goes without brackets: --host ::1\)$/],
    ['a negative recordings budget', ['serve', '--max-recordings-mb=-5', '--port', '0'], /^agent-immune serve: --max-recordings-mb must be a number >= 0/],
    ['an empty port, as an unset variable gives (was: a free port, silently)', ['serve', '--port', ''], /^agent-immune serve: --port must be a number >= 0/],
    ['a port in hexadecimal (was: 0x10 listened on 16)', ['serve', '--port', '0x10'], /^agent-immune serve: --port must be a number >= 0/],
    ['an empty recordings budget (was: 0 MiB, nothing written)', ['serve', '--max-recordings-mb', '', '--port', '0'], /^agent-immune serve: --max-recordings-mb must be a number >= 0/],
    ['an alert log budget that is not a number', ['serve', '--max-alert-log-mb=lots', '--port', '0'], /^agent-immune serve: --max-alert-log-mb must be a number >= 0/],
    ['an option where its value should be', ['serve', '--token', '--port', '0'], /^agent-immune serve: --token needs a value; one that starts/],
    ['a mistyped command gets the closest one (no usage dump)', ['anlyze', 'x'], /^agent-immune: unknown command "anlyze"; did you mean "analyze"\? Run "agent-immune --help" for the commands\.$/],
    ['a mistyped subcommand', ['audit', 'verfy'], /^agent-immune audit: unknown subcommand "verfy"; did you mean "verify"\? Run "agent-immune audit --help" for usage\.$/],
    ['an option where the subcommand goes', ['audit', '--root', '.'], /^agent-immune audit: expected the subcommand "verify" or "key" first \(agent-immune audit verify --root DIR\)\. Run/],
    ['help for a mistyped command', ['help', 'anlyze'], /^agent-immune: unknown command "anlyze"; did you mean "analyze"\?/],
    ['a mistyped top-level option', ['--verison'], /^agent-immune: unknown option --verison; did you mean --version\? Run "agent-immune --help" for the commands\.$/],
    ['a command option given before the command', ['--json', 'verify'], /^agent-immune: unknown option --json: a command's options go after it \(agent-immune <command> --json\)\./],
  ];
  for (const [what, argv, expected] of cases) {
    it(what, async () => {
      const { code, stdout, stderr } = await cli(root, ...argv);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, `one line, got:\n${stderr}`);
      assert.match(stderr.trimEnd(), expected);
    });
  }

  it('a bad key in any section of the project config fails every command that reads it (was: only the feature it belongs to)', async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'ai-config-sections-'));
    try {
      writeFileSync(path.join(project, 'agent-immune.config.json'), JSON.stringify({ harden: { include: 5 }, monitor: { bogus: 1 } }));
      for (const argv of [['verify'], ['lock'], ['scan', '.'], ['harden', '--check']]) {
        const r = await cli(project, ...argv);
        assert.equal(r.code, 2, argv.join(' '));
        assert.match(r.stderr, /agent-immune\.config\.json: harden\.include must be an array/, argv.join(' '));
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('verify and lock take a --root reached through a symlink (macOS /var): its config is looked for under the real path', async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'ai-linked-root-'));
    try {
      mkdirSync(path.join(project, 'real/skills/review'), { recursive: true });
      writeFileSync(path.join(project, 'real/skills/review/SKILL.md'), 'Review the code.\n');
      writeFileSync(path.join(project, 'real/agent-immune.config.json'), JSON.stringify({ monitor: { cooldownSeconds: 60 } }));
      symlinkSync(path.join(project, 'real'), path.join(project, 'link'));
      assert.equal((await cli(project, 'lock', '--root', 'link')).code, 0);
      assert.equal((await cli(project, 'verify', '--root', 'link', '--strict')).code, 0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('no command at all: the usage on stderr, nothing on stdout, exit 2 (help asked for goes to stdout, exit 0)', async () => {
    const bare = await cli(root);
    assert.deepEqual([bare.code, bare.stdout], [2, '']);
    assert.match(bare.stderr, /^Usage: agent-immune/m);
    const help = await cli(root, '--help');
    assert.deepEqual([help.code, help.stderr], [0, '']);
    assert.equal(help.stdout, bare.stderr);
  });

  it('words a file-system error the commands did not foresee by its path and what to do', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/x/audit.ndjson'"), { code: 'EACCES', syscall: 'open', path: '/x/audit.ndjson' });
    assert.equal(fileErrorText(error, 'audit.ndjson'), 'audit.ndjson: permission denied (EACCES); check its permissions');
  });

  it('prints the package version for --version, -V and version, and lists them in --help', async () => {
    for (const flag of ['--version', '-V', 'version']) assert.deepEqual(await cli(root, flag), { code: 0, stdout: `${version}\n`, stderr: '' });
    const help = (await cli(root, '--help')).stdout;
    assert.match(help, /-V, --version\s+print the version/);
    assert.match(help, /-h, --help\s+show this help/);
  });

  it('"help <command>" prints that command\'s usage', async () => {
    const { code, stdout } = await cli(root, 'help', 'lock');
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: agent-immune lock/);
  });
});

describe('CLI errors from the built binary (dist/cli.js in a real process)', function () {
  this.timeout(60_000);
  const repo = path.join(__dirname, '../../..');
  const run = (...argv: string[]) => spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), ...argv], { cwd: repo, encoding: 'utf8', env: { PATH: process.env.PATH } });

  // The cases issue #17 names, on this repository's own files.
  const cases: [string, string[], RegExp][] = [
    ['a missing path (was ENOENT ... lstat)', ['harden', 'no-such-prompt.md'], /^agent-immune harden: no-such-prompt\.md: no such file or folder; check the path$/],
    ['analyze on a folder (was EISDIR: illegal operation on a directory, read)', ['analyze', 'examples/traces'], /^agent-immune analyze: examples\/traces is a folder, not a file/],
    ['lock --root on a file (was README.md/agent-immune.config.json)', ['lock', '--root', 'README.md'], /^agent-immune lock: --root README\.md is a file, not a folder/],
    ['an unknown command', ['verfy'], /^agent-immune: unknown command "verfy"; did you mean "verify"\?/],
    ['an unknown flag (was parseArgs text with an unbalanced quote)', ['verify', '--strcit'], /^agent-immune verify: unknown option --strcit; did you mean --strict\?/],
  ];
  for (const [what, argv, expected] of cases) {
    it(what, () => {
      const { status, stdout, stderr } = run(...argv);
      assert.equal(status, 2);
      assert.equal(stdout, '');
      assert.equal(stderr.split('\n').filter(Boolean).length, 1, `one line, got:\n${stderr}`);
      assert.doesNotMatch(stderr, /\n\s+at |node:internal|Error:/);
      assert.match(stderr.trimEnd(), expected);
    });
  }

  it('a trace piped in as /dev/stdin is refused in one line that says to save it to a file (was: "ESPIPE: invalid seek, read")', function () {
    if (!existsSync('/dev/stdin')) this.skip();
    const input = readFileSync(path.join(repo, 'examples/traces/random-8.jsonl'));
    const { status, stderr } = spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), 'analyze', '/dev/stdin'], { cwd: repo, encoding: 'utf8', input });
    assert.equal(status, 2);
    assert.equal(stderr, 'agent-immune analyze: /dev/stdin is a pipe or device, not a file; it is read more than once: save the input to a file and give that\n');
  });

  it('a warning that cannot be written changes no exit code (was: exit 2 with stdout written whole)', function () {
    if (!existsSync('/dev/full')) this.skip();
    const project = mkdtempSync(path.join(tmpdir(), 'ai-stderr-full-'));
    try {
      writeFileSync(path.join(project, 'agent-immune.config.json'), JSON.stringify({ integrity: { prompts: ['/AGENTS.md'] } }));
      const full = openSync('/dev/full', 'w');
      try {
        const { status, stdout } = spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), 'verify', '--no-audit', '--root', project], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', full] });
        assert.deepEqual([status, stdout.startsWith('No lockfile')], [0, true]);
      } finally {
        closeSync(full);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('output that cannot be written (a full disk) is one line on stderr and exit 2 (was: a stack trace and exit 1)', function () {
    if (!existsSync('/dev/full')) this.skip();
    for (const argv of [['analyze', 'examples/traces/random-8.jsonl', '--all'], ['convert', 'examples/traces/random-8.jsonl', '-o', '-']]) {
      const full = openSync('/dev/full', 'w');
      try {
        const { status, stderr } = spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), ...argv], { cwd: repo, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
        assert.equal(status, 2, argv.join(' '));
        assert.equal(stderr, 'agent-immune: cannot write the output: no space left on the device (ENOSPC); free some space and retry\n');
      } finally {
        closeSync(full);
      }
    }
  });

  it('--version, -V and version print package.json\'s version', () => {
    for (const flag of ['--version', '-V', 'version']) assert.deepEqual([run(flag).status, run(flag).stdout], [0, `${version}\n`], flag);
  });
});
