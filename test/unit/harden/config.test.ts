// The "harden" config section (valid and invalid tables), the file matcher, and that each hardening text is defined
// once in the source tree.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PromptFileMatcher, resolveHardenConfig } from '../../../src/core/harden/config';
import { InputError } from '../../../src/core/errors';
import { DELEGATION_BOUNDARY_LABEL, MIND_VIRUS_IMMUNITY_WARNING } from '../../../src/core/harden/texts';

const src = path.resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.ts$/.test(name) ? [full] : [];
  });
}

describe('harden: config', () => {
  it('merges a valid section over the defaults', () => {
    const config = resolveHardenConfig({ include: ['prompts/**/*.md'], severity: { 'unbounded-delegation': 'information' }, systemPromptNames: '^persona$' });
    assert.deepEqual(config.include, ['prompts/**/*.md']);
    assert.equal(config.severity['unbounded-delegation'], 'information');
    assert.equal(config.severity['missing-immunity-warning'], 'warning');
    assert.equal(config.systemPromptNames, '^persona$');
  });

  const invalid: [string, unknown][] = [
    ['not an object', []],
    ['unknown key', { globs: [] }],
    ['include not a list', { include: '**/*.md' }],
    ['empty glob', { exclude: [''] }],
    ['unknown code', { severity: { 'no-such-code': 'warning' } }],
    ['unknown severity', { severity: { 'missing-immunity-warning': 'fatal' } }],
    ['bad pattern', { messageNames: '(' }],
  ];
  for (const [name, raw] of invalid) {
    it(`rejects ${name} (invalid-config)`, () => {
      assert.throws(() => resolveHardenConfig(raw, 'agent-immune.config.json'), (error: unknown) => error instanceof InputError && error.kind === 'invalid-config');
    });
  }

  const paths: [string, string | undefined][] = [
    ['SKILL.md', 'markdown'],
    ['skills/a/SKILL.md', 'markdown'],
    ['.github/copilot-instructions.md', 'markdown'],
    ['.github/instructions/py.instructions.md', 'markdown'],
    ['x/.cursor/rules/a.mdc', 'markdown'],
    ['.cursorrules', 'markdown'],
    ['agents/CSharpExpert.agent.md', 'markdown'],
    ['.github/workflows/pr-review.md', 'markdown'],
    ['.github/workflows/ci.yml', undefined],
    // Other assistants' rules and agent definitions, read every session (were not read).
    ['.amazonq/rules/memory-bank/product.md', 'markdown'],
    ['.junie/guidelines.md', 'markdown'],
    ['QWEN.md', 'markdown'],
    ['.rules', 'markdown'],
    ['.augment-guidelines', 'markdown'],
    ['.opencode/agent/review.md', 'markdown'],
    ['pkg/AGENTS.override.md', 'markdown'],
    // A command the user runs by name is no system prompt.
    ['.opencode/command/commit.md', undefined],
    ['.windsurf/workflows/deploy.md', undefined],
    // A skill's sub-agent prompts (anthropics/skills' skill-creator/agents/grader.md), not its other Markdown.
    ['skills/skill-creator/agents/grader.md', 'markdown'],
    ['.claude/skills/review/agents/critic.md', 'markdown'],
    ['skills/skill-creator/references/schema.md', undefined],
    ['docs/README.md', undefined],
    ['src/agent.ts', 'typescript'],
    ['src/agent.mjs', 'typescript'],
    ['src/types.d.ts', undefined],
    ['node_modules/x/index.js', undefined],
    ['agents/researcher.py', 'python'],
    ['.venv/lib/site.py', undefined],
  ];
  const matcher = new PromptFileMatcher(resolveHardenConfig(undefined));
  for (const [file, kind] of paths) {
    it(`scans ${file} as ${kind ?? 'nothing'}`, () => assert.equal(matcher.kindOf(file), kind));
  }

  it('defines each hardening text once in the source', () => {
    for (const text of [MIND_VIRUS_IMMUNITY_WARNING, DELEGATION_BOUNDARY_LABEL]) {
      const probe = text.slice(0, 40);
      const holders = sourceFiles(src).filter((file) => readFileSync(file, 'utf8').includes(probe));
      assert.deepEqual(holders.map((f) => path.relative(src, f)), [path.join('core', 'harden', 'texts.ts')]);
    }
  });
});
