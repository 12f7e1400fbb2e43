// The finding catalogues: every code is documented where its diagnostics link, blocking integrity codes reach the
// audit trail, severities map to SARIF levels, and summaries count exactly the findings they list.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { docsUrl, sarifLevel, type FindingSpec } from '../../../src/core/findings';
import { TRACE_FINDINGS } from '../../../src/core/guard/findings';
import { defaultHardenSeverities, HARDEN_FINDINGS, hardenSarifRules } from '../../../src/core/harden/findings';
import { findingEvent, INTEGRITY_FINDINGS, integritySarifRules } from '../../../src/core/integrity/findings';
import { integrityStatusBar, verifySkillsSummary, verifyText } from '../../../src/core/integrity/messages';
import type { IntegrityFinding } from '../../../src/core/integrity/types';
import { MONITOR_FINDINGS } from '../../../src/core/monitor/findings';

const ROOT = path.join(__dirname, '../../..');
const CATALOGUES: [string, Record<string, FindingSpec<never>>][] = [
  ['integrity', INTEGRITY_FINDINGS],
  ['harden', HARDEN_FINDINGS],
  ['monitor', MONITOR_FINDINGS],
  ['trace', TRACE_FINDINGS],
];

const sri = (c: string) => `sha256-${c.repeat(43)}=`;
const DRIFT: IntegrityFinding[] = [
  { code: 'drift', path: 'a/SKILL.md', expected: sri('A'), actual: sri('B') },
  { code: 'drift', path: 'b/SKILL.md', expected: sri('C'), actual: sri('D') },
  { code: 'unpinned-skill', path: 'c/SKILL.md', actual: sri('E'), skill: 'c' },
];

describe('finding catalogues', () => {
  for (const [family, catalogue] of CATALOGUES) {
    it(`${family}: every code has its anchor on the docs page its diagnostics link to`, () => {
      for (const [code, spec] of Object.entries(catalogue)) {
        const page = readFileSync(path.join(ROOT, 'docs', `${spec.docs}.md`), 'utf8');
        assert.ok(page.includes(`<a id="${code}"></a>`), `docs/${spec.docs}.md lacks <a id="${code}"></a>`);
        assert.ok(docsUrl(spec.docs, code).endsWith(`/docs/${spec.docs}.md#${code}`));
        assert.ok(spec.description.endsWith('.'), code);
      }
    });
  }

  it('no code is used by two families (diagnostics share one source and are told apart by code)', () => {
    const codes = CATALOGUES.flatMap(([, catalogue]) => Object.keys(catalogue));
    assert.equal(new Set(codes).size, codes.length);
  });

  it('integrity: every code that says a pinned file may have changed blocks under strict and reaches the audit trail', () => {
    const mayHaveChanged = ['drift', 'skill-file-added', 'unpinned-skill', 'missing', 'renamed', 'corrupt-lockfile', 'lockfile-missing', 'symlink-outside-root', 'unpinnable'] as const;
    for (const code of mayHaveChanged) assert.equal(INTEGRITY_FINDINGS[code].blocking, true, code);
    assert.deepEqual(DRIFT.map((f) => findingEvent(f, 'warn')).map((e) => [e.event, e.path, e.old, e.new, e.detail]), [
      ['drift', 'a/SKILL.md', sri('A'), sri('B'), undefined],
      ['drift', 'b/SKILL.md', sri('C'), sri('D'), undefined],
      ['unpinned-skill', 'c/SKILL.md', undefined, sri('E'), 'skill c'],
    ]);
  });

  it('SARIF levels: blocking integrity codes are errors under strict; harden follows its settings', () => {
    const level = (rules: { id: string; level: string }[], id: string) => rules.find((r) => r.id === id)?.level;
    assert.deepEqual(['drift', 'unpinned-skill', 'corrupt-lockfile'].map((id) => level(integritySarifRules(false), id)), ['warning', 'warning', 'error']);
    assert.deepEqual(['drift', 'skill-file-added', 'unpinned-skill', 'symlink-outside-root'].map((id) => level(integritySarifRules(true), id)), ['error', 'error', 'error', 'error']);
    const harden = hardenSarifRules({ ...defaultHardenSeverities(), 'missing-immunity-warning': 'hint', 'unbounded-delegation': 'error' });
    assert.deepEqual([level(harden, 'missing-immunity-warning'), level(harden, 'unbounded-delegation')], ['note', 'error']);
    assert.deepEqual((['error', 'warning', 'information', 'hint'] as const).map(sarifLevel), ['error', 'warning', 'note', 'note']);
  });
});

/** A lockfile's entries for `n` files no finding names. */
const pinnedFiles = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`other/${i}.md`, { gitBlob: '0'.repeat(40) }]));

describe('integrity summaries count what they list', () => {
  it('verify: says how to see what changed in a drifted file, with its pinned git blob (was: two hashes only)', () => {
    const blob = 'ab'.repeat(20);
    const text = verifyText({ status: 'drift', lockfile: 'agent-immune.lock', findings: DRIFT }, { 'a/SKILL.md': { gitBlob: blob }, 'b/SKILL.md': { gitBlob: '0'.repeat(40) } }, false, true);
    assert.match(text, new RegExp(`\\nSee what changed, in the project root \\(git holds the pinned content[^\\n]*\\n  git show ${blob} \\| diff -u - -- a/SKILL\\.md\\n`));
    const command = (file: string) => verifyText({ status: 'drift', lockfile: 'l', findings: [{ code: 'drift', path: file, expected: sri('A'), actual: sri('B') }] }, { [file]: { gitBlob: blob } }, false, true).split('\n')[3];
    assert.equal(command('-N/SKILL.md'), `  git show ${blob} | diff -u - -- -N/SKILL.md`, 'a path that reads as an option stays a file after --');
    assert.equal(command('=x/SKILL.md'), `  git show ${blob} | diff -u - -- '=x/SKILL.md'`, 'zsh would expand a leading =');
    assert.equal(command("it's $(id)/SKILL.md"), `  git show ${blob} | diff -u - -- 'it'\\''s $(id)/SKILL.md'`);
  });

  it('verify: the head line counts every finding line below it, per code', () => {
    const [head, ...lines] = verifyText({ status: 'drift', lockfile: 'agent-immune.lock', findings: DRIFT }, pinnedFiles(3), false, true).trimEnd().split('\n');
    assert.equal(head, 'Drift: 3 finding(s) against agent-immune.lock (2 drift, 1 unpinned-skill).');
    assert.equal(lines.length, 3);
    assert.equal(lines.filter((l) => l.startsWith('drift ')).length, 2);
  });

  it('verify: a moved skill folder reads as one renamed line counting its files, a lone renamed file as its own', () => {
    const moved = ['SKILL.md', 'ref.md', 'scripts/a.py'].map((file): IntegrityFinding => ({ code: 'renamed', path: `skills/beta/${file}`, from: `skills/alpha/${file}`, integrity: 'sha256-x' }));
    const lone: IntegrityFinding = { code: 'renamed', path: 'docs/new-name.md', from: 'docs/old-name.md', integrity: 'sha256-y' };
    const [head, ...lines] = verifyText({ status: 'drift', lockfile: 'l', findings: [...moved, lone] }, pinnedFiles(4), false, true).trimEnd().split('\n');
    assert.equal(head, 'Drift: 4 finding(s) against l (4 renamed).');
    assert.deepEqual(lines, [
      'renamed              skills/beta/ holds the 3 missing pinned files of skills/alpha/ with their pinned content (folder renamed or moved?).',
      'renamed              docs/new-name.md has the content of the missing pinned file docs/old-name.md (renamed or moved?).',
    ]);
  });

  it('verify: "Clean" only ever stands alone; a missing lockfile the project adopted is counted like any finding', () => {
    assert.equal(verifyText({ status: 'clean', lockfile: 'agent-immune.lock', findings: [] }, pinnedFiles(4), false, true), 'Clean: 4 pinned files match agent-immune.lock.\n');
    assert.equal(verifyText({ status: 'clean', lockfile: 'agent-immune.lock', findings: [] }, pinnedFiles(1), false, true), 'Clean: 1 pinned file matches agent-immune.lock.\n', 'was: 1 pinned files match');
    assert.equal(verifyText({ status: 'no-lockfile', lockfile: 'agent-immune.lock', findings: [] }, pinnedFiles(0), false, true), 'No lockfile (agent-immune.lock): nothing to verify. Run "agent-immune lock" to pin skill files.\n');
    assert.match(verifyText({ status: 'no-lockfile', lockfile: 'pins/other.lock', findings: [] }, pinnedFiles(0), false, true), /Run "agent-immune lock --lockfile pins\/other\.lock"/);
    const missing: IntegrityFinding[] = [{ code: 'lockfile-missing', path: 'agent-immune.lock', adopted: 'git' }];
    const text = verifyText({ status: 'no-lockfile', lockfile: 'agent-immune.lock', findings: missing }, pinnedFiles(0), true, true).trimEnd().split('\n');
    assert.deepEqual(text.map((l) => l.split(' ')[0]), ['No', 'lockfile-missing', 'Blocked']);
    assert.equal(text[0], 'No lockfile: 1 finding(s) against agent-immune.lock (1 lockfile-missing).');
  });

  it('verify: a strict block says it was recorded only when it was (--no-audit records nothing), and how to go on (was: "Blocked (strict mode)." alone)', () => {
    const last = (recorded: boolean) => verifyText({ status: 'drift', lockfile: 'l', findings: DRIFT }, pinnedFiles(3), true, recorded).trimEnd().split('\n').pop();
    assert.equal(last(true), 'Blocked (strict mode); recorded in .agent-immune/audit.ndjson: review the changes; "agent-immune lock", with the --root and --lockfile given here, approves them, or undo them.');
    assert.equal(last(false), 'Blocked (strict mode): review the changes; "agent-immune lock", with the --root and --lockfile given here, approves them, or undo them.');
    const linked = verifyText({ status: 'drift', lockfile: 'l', findings: [...DRIFT, { code: 'symlink-outside-root', path: 'a/x' }] }, pinnedFiles(3), true, false);
    assert.equal(linked.trimEnd().split('\n').pop(), 'Blocked (strict mode).', 'lock refuses a link out of the root: no advice to run it');
  });

  it('status bar and Verify Skills count the blocking findings and the files they are in', () => {
    const bar = integrityStatusBar([{ status: 'drift', lockfile: 'l', strict: false, findings: DRIFT }]);
    assert.equal(bar.text, '$(warning) Skills: 3 drifted');
    assert.match(bar.tooltip, /3 blocking finding\(s\) \(2 drift, 1 unpinned-skill\) in 3 file\(s\)/);
    assert.equal(integrityStatusBar([{ status: 'clean', lockfile: 'l', strict: true, findings: [] }]).text, '$(shield) Skills: clean');
    assert.equal(integrityStatusBar([{ status: 'no-lockfile', lockfile: 'l', strict: false, findings: [{ code: 'lockfile-missing', path: 'l', adopted: 'config' }] }]).text, '$(warning) Skills: lockfile missing');
    assert.equal(integrityStatusBar([{ status: 'drift', lockfile: 'l', strict: true, findings: DRIFT }]).text, '$(error) Skills: strict block (3)');
    assert.match(verifySkillsSummary([{ status: 'drift', lockfile: 'l', findings: DRIFT }]).text, /^3 skill integrity finding\(s\) \(2 drift, 1 unpinned-skill\): a\/SKILL\.md changed/);
    assert.equal(verifySkillsSummary([{ status: 'clean', lockfile: 'l', findings: [] }]).text, 'skills clean.');
  });
});
