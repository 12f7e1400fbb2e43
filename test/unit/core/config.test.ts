// The project config: defaults are the paper's, overrides are range-checked, unknown keys are errors, not silence.
import * as assert from 'node:assert/strict';
import { configWarnings, DEFAULT_GUARD_CONFIG, resolveConfig } from '../../../src/core/config';
import { globMatcher } from '../../../src/core/globs';
import { InputError } from '../../../src/core/errors';
import { resolveIntegrityConfig } from '../../../src/core/integrity/scope';

describe('project config', () => {
  it('defaults to the INFA-Guard thresholds, but tau 0.1 (measured on real debates, docs/detection.md)', () => {
    const { guard } = resolveConfig(undefined);
    assert.deepEqual(
      [guard.attackerThreshold, guard.infectedThreshold, guard.emaAlpha, guard.distanceThreshold, guard.chainDistanceThreshold, guard.trendThreshold, guard.donorMaxPAtk],
      [0.5, 0.5, 0.3, 2, 3, 0.1, 0.1],
    );
  });

  it('merges overrides over the defaults and keeps feature sections for their owners', () => {
    const config = resolveConfig({ guard: { distanceThreshold: 3 }, integrity: { strict: true } });
    assert.equal(config.guard.distanceThreshold, 3);
    assert.equal(config.guard.emaAlpha, DEFAULT_GUARD_CONFIG.emaAlpha);
    assert.deepEqual(config.sections.integrity, { strict: true });
  });

  it('pulls in missing sources, adopters and target followers and flags lone holders, away movers, consensus leavers, holders of an attacker\'s answer, declared steering and tool results whose order was obeyed, and reads group moves by default, and takes false for the reference rules', () => {
    const switches = (g: typeof DEFAULT_GUARD_CONFIG) =>
      [g.pullInSources, g.pullInAdopters, g.flagLoneHolders, g.flagAwayMovers, g.flagConsensusLeavers, g.flagAttackerAnswerHolders, g.pullInTargetFollowers,
        g.flagDeclaredSteering, g.flagObeyedToolOrders, g.readGroupMoves];
    assert.deepEqual(switches(resolveConfig(undefined).guard), [true, true, true, true, true, true, true, true, true, true]);
    const off = {
      pullInSources: false, pullInAdopters: false, flagLoneHolders: false, flagAwayMovers: false,
      flagConsensusLeavers: false, flagAttackerAnswerHolders: false, pullInTargetFollowers: false, flagDeclaredSteering: false, flagObeyedToolOrders: false, readGroupMoves: false,
    };
    const reference = resolveConfig({ guard: off }).guard;
    assert.deepEqual(switches(reference), [false, false, false, false, false, false, false, false, false, false]);
  });

  const invalid: [string, unknown, string][] = [
    ['not an object', [1], ''],
    ['a threshold out of range', { guard: { attackerThreshold: 1.5 } }, 'guard.attackerThreshold'],
    ['a threshold of the wrong type', { guard: { emaAlpha: '0.3' } }, 'guard.emaAlpha'],
    ['an unknown guard key', { guard: { treshold: 0.5 } }, 'guard.treshold'],
    ['a switch that is not true or false', { guard: { pullInSources: 1 } }, 'guard.pullInSources'],
    ['a switch given as a string', { guard: { pullInAdopters: 'false' } }, 'guard.pullInAdopters'],
    ['a lone-holder switch given as a number', { guard: { flagLoneHolders: 0 } }, 'guard.flagLoneHolders'],
    ['a misspelt section', { gaurd: {} }, 'gaurd'],
    ['answer patterns not strings', { answer: { patterns: [1] } }, 'answer.patterns'],
    ['an invalid answer regex', { answer: { patterns: ['(unclosed'] } }, 'answer.patterns'],
  ];
  for (const [name, raw, field] of invalid) {
    it(`rejects ${name}`, () => {
      assert.throws(() => resolveConfig(raw, 'agent-immune.config.json'), (e: unknown) => e instanceof InputError && e.kind === 'invalid-config' && (field === '' || e.field === field));
    });
  }

  it('warns of each glob that never matches a path from the project root, and of none that may (was: silently pinned nothing)', () => {
    const never = ['/AGENTS.md', '../AGENTS.md', 'docs//AGENTS.md', '/etc/**/SKILL.md'];
    const may = ['AGENTS.md', './AGENTS.md', '**/SKILL.md', 'docs/', '\\*literal-star.md', '\\a/x.md', 'c:/x.md', '.github/*.md', '{a,b}/x.md'];
    for (const glob of never) assert.ok(!globMatcher([glob])(glob.replace(/^\/+|^\.\.\//g, '').replace(/\/\//g, '/')), glob);
    const config = resolveConfig({ integrity: { prompts: [...never, ...may], exclude: ['/vendor/', '../x', './build/', '!keep.md'] }, harden: { include: ['/src/**'] } });
    assert.deepEqual(configWarnings(config), [
      'integrity.prompts: "/AGENTS.md" never matches: it starts with "/"; globs are relative to the project root (write "AGENTS.md")',
      'integrity.prompts: "../AGENTS.md" never matches: it has a ".." folder; only paths inside the project root are matched',
      'integrity.prompts: "docs//AGENTS.md" never matches: it has an empty folder name ("//")',
      'integrity.prompts: "/etc/**/SKILL.md" never matches: it starts with "/"; globs are relative to the project root (write "etc/**/SKILL.md")',
      'integrity.exclude: "../x" never matches: it has a ".." folder; only paths inside the project root are matched',
      'and 2 more glob(s) that never match',
    ]);
  });

  it('says a hostile glob in few and escaped words: 5 warnings then a count, 80 characters of each, no control character', () => {
    const globs = Array.from({ length: 5000 }, (_, i) => `/\u202e${'x'.repeat(200)}${i}.md`);
    const warnings = configWarnings(resolveConfig({ integrity: { prompts: globs } }));
    assert.equal(warnings.length, 6);
    assert.equal(warnings[5], 'and 4995 more glob(s) that never match');
    assert.ok(warnings.every((w) => w.length < 300 && !w.includes('\u202e')), warnings[0]);
  });

  it('refuses a glob longer than picomatch reads (was: "internal error" from every command)', () => {
    assert.throws(
      () => resolveIntegrityConfig({ prompts: ['a'.repeat(70_000)] }, 'agent-immune.config.json'),
      (e: unknown) => e instanceof InputError && e.kind === 'invalid-config' && /is 70000 characters long; at most 4096 are matched/.test(e.message),
    );
  });
});
