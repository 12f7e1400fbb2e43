// docs/cli.md and the README's CLI table against the commands themselves: every option a command's --help lists is
// in that command's section of docs/cli.md, every format --from reads is named there, and every command is in both.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { commands } from '../../../src/cli/commands';
import { IMPORT_FORMATS } from '../../../src/core/importers';

const root = path.resolve(__dirname, '../../..');
const cliDoc = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The text of docs/cli.md under the `## \`agent-immune <name> …\`` heading, up to the next `## ` heading. */
function section(name: string): string {
  const start = cliDoc.search(new RegExp(`^## \`agent-immune ${name}\\b`, 'm'));
  assert.ok(start >= 0, `docs/cli.md has no section for ${name}`);
  const next = cliDoc.slice(start + 3).search(/^## /m);
  return next < 0 ? cliDoc.slice(start) : cliDoc.slice(start, start + 3 + next);
}

describe('the CLI reference matches the commands', () => {
  for (const command of commands) {
    it(`docs/cli.md documents every option of ${command.name} --help`, () => {
      const flags = new Set([...command.usage.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]).filter((f) => f !== '--help'));
      const text = section(command.name);
      assert.deepEqual([...flags].filter((flag) => !text.includes(`\`${flag}`)), []);
    });
  }

  it('docs/cli.md names every format analyze --from reads', () => {
    const fromRow = section('analyze').split('\n').find((line) => line.startsWith('| `--from FORMAT`')) ?? '';
    assert.deepEqual(IMPORT_FORMATS.filter((format) => !fromRow.includes(`\`${format}\``)), []);
  });

  it("the README's CLI table has a row for every command", () => {
    assert.deepEqual(commands.map((c) => c.name).filter((name) => !readme.includes(`| \`agent-immune ${name}`)), []);
  });
});
