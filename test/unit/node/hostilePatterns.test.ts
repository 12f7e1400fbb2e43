// A hostile repository cannot make Agent Immune hang with patterns: its .gitignore, its config's globs and regular
// expressions are matched in bounded time, and the ones that would take minutes are refused with a clear error.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cli, write } from '../../support/cli';
import { globTooComplex } from '../../../src/core/globs';
import { regexTooSlow } from '../../../src/core/regexSafety';
import { DEFAULT_ANSWER_CONFIG } from '../../../src/core/config';
import { DEFAULT_HARDEN_CONFIG } from '../../../src/core/harden/config';
import { DEFAULT_INTEGRITY_CONFIG } from '../../../src/core/integrity/scope';
import { resolveMonitorConfig } from '../../../src/core/monitor/config';


describe('hostile repository: patterns are matched in bounded time', function () {
  // Each of these ran for minutes before; the suite's timeout is the test.
  this.timeout(20_000);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ai-patterns-'));
    mkdirSync(path.join(root, '.git'));
    write(root, '.claude/skills/review/SKILL.md', 'Review code.\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('accepts every default glob', () => {
    const monitor = resolveMonitorConfig(undefined);
    const defaults = [
      ...DEFAULT_INTEGRITY_CONFIG.skills, ...DEFAULT_INTEGRITY_CONFIG.prompts, ...DEFAULT_HARDEN_CONFIG.include, ...DEFAULT_HARDEN_CONFIG.exclude,
      ...monitor.globs, ...monitor.traceGlobs, ...monitor.ignore,
    ];
    for (const glob of defaults) {
      assert.equal(globTooComplex(glob), undefined, glob);
    }
    assert.match(globTooComplex(`${'*a'.repeat(25)}z`) ?? '', /25 "\*" wildcards/);
    assert.match(globTooComplex(`${'**/'.repeat(10)}z`) ?? '', /10 "\*\*" segments/);
    assert.match(globTooComplex('{a,aa}'.repeat(40)) ?? '', /40 brace groups/);
  });

  it('lock and verify do not hang on a .gitignore line built to backtrack (it is not honoured)', async () => {
    write(root, 'a'.repeat(60), 'x\n');
    write(root, `${'a/'.repeat(40)}f`, 'x\n');
    write(root, '.gitignore', `${'*a'.repeat(25)}z\n${'**/'.repeat(10)}z\nbuild/\n`);
    write(root, 'build/AGENTS.md', 'ignored\n');
    const lock = await cli(root, 'lock', '--no-audit', '--json');
    assert.equal(lock.code, 0, lock.stderr);
    assert.ok(!lock.stdout.includes('build/AGENTS.md'), 'the other lines of the .gitignore are still honoured');
    assert.equal((await cli(root, 'verify', '--no-audit', '--strict')).code, 0);
  });

  for (const [section, command] of [
    ['{"integrity":{"prompts":["GLOB"]}}', ['lock', '--no-audit']],
    ['{"harden":{"include":["GLOB"]}}', ['harden', '--check', '.']],
    ['{"monitor":{"globs":["GLOB"]}}', ['scan', '--no-log', '.']],
  ] as const) {
    it(`refuses a glob built to backtrack in ${section.slice(2, section.indexOf('"', 2))} (exit 2, naming it) instead of running for minutes`, async () => {
      write(root, 'a'.repeat(60), 'x\n');
      write(root, 'agent-immune.config.json', section.replace('GLOB', `${'*a'.repeat(25)}z`));
      const r = await cli(root, ...command);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /is refused: it has 25 "\*" wildcards besides "\*\*"; at most 3 are matched in bounded time/);
    });
  }

  it('accepts the default regular expressions and refuses the ones that backtrack exponentially', () => {
    for (const pattern of [...DEFAULT_ANSWER_CONFIG.patterns, DEFAULT_HARDEN_CONFIG.systemPromptNames, '(?:abc)+', '[(]+', '(ab{2})+', 'a{2,}', '(\\w{1,20})\\s*=\\s*(\\d+)']) {
      assert.equal(regexTooSlow(pattern), undefined, pattern);
    }
    // Exponential: a repeated group that can match one text in several ways, also through a nested group.
    for (const pattern of ['^(a+)+$', '(a|aa)*', '(a?){30}', '(\\w+\\s?)*$', '(?:x(?:y+))+', '(?:(?:a|a)b)+$', '^((a|a)b)*$']) assert.match(regexTooSlow(pattern) ?? '', /exponential/, pattern);
    // Polynomial of degree 2 and more: open-ended repetitions of anything but whitespace in a row.
    for (const pattern of ['\\w*\\w*\\w*\\w*\\w*!', '.*y.*z', '(\\w+)\\s*=\\s*(\\d+)']) assert.match(regexTooSlow(pattern) ?? '', /open-ended parts in a row/, pattern);
  });

  it('reads an answer tag followed by thousands of blanks in bounded time with the default patterns (was 3.8 s per 2,000)', async () => {
    write(root, 't.jsonl', [
      JSON.stringify({ type: 'header', schema: 'agent-trace/v1', agents: [{ id: 'a' }, { id: 'b' }] }),
      ...[0, 1, 2].flatMap((round) => ['a', 'b'].map((from) => JSON.stringify({ type: 'message', round, from, to: from === 'a' ? 'b' : 'a', content: `<ANSWER>:${' \t'.repeat(1_900)}<` }))),
    ].join('\n') + '\n');
    const r = await cli(root, 'analyze', 't.jsonl');
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
  });

  it('refuses a config regular expression built to backtrack (answer.patterns, harden.systemPromptNames) instead of hanging', async () => {
    write(root, 't.jsonl', [
      JSON.stringify({ type: 'header', schema: 'agent-trace/v1', agents: [{ id: 'a' }, { id: 'b' }] }),
      ...[0, 1].flatMap((round) => ['a', 'b'].map((from) => JSON.stringify({ type: 'message', round, from, to: from === 'a' ? 'b' : 'a', content: `${'a'.repeat(40)}!` }))),
    ].join('\n') + '\n');
    write(root, 'agent-immune.config.json', JSON.stringify({ answer: { patterns: ['^(a+)+$'] } }));
    const analyze = await cli(root, 'analyze', 't.jsonl');
    assert.equal(analyze.code, 2, analyze.stdout + analyze.stderr);
    assert.match(analyze.stderr, /answer\.patterns: "\^\(a\+\)\+\$" is refused: .* exponential time/);
    write(root, 'agent-immune.config.json', JSON.stringify({ harden: { systemPromptNames: '^(a+)+$' } }));
    write(root, 'agent.py', `${'a'.repeat(40)}_ = "You are a helpful assistant."\n`);
    const harden = await cli(root, 'harden', '--check', '.');
    assert.equal(harden.code, 2, harden.stdout + harden.stderr);
    assert.match(harden.stderr, /harden\.systemPromptNames: .* is refused/);
  });
});
