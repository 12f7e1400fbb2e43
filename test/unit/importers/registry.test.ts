// The importer registry: each format described once, and the --from names, help and "expected ..." text derived from it.
import * as assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors';
import { FOREIGN_FORMATS, formatsHelp, IMPORT_FORMATS, parseFormatName } from '../../../src/core/importers';
import { SUPPORTED_FORMATS_TEXT } from '../../../src/core/importers/detect';
import { NATIVE_FORMAT } from '../../../src/core/importers/registry';

describe('importer registry', () => {
  it('resolves every format name and alias to its format, case-insensitively', () => {
    for (const name of IMPORT_FORMATS) assert.equal(parseFormatName(name.toUpperCase()), name);
    for (const alias of NATIVE_FORMAT.aliases) assert.equal(parseFormatName(alias), 'agent-trace');
    for (const [name, spec] of FOREIGN_FORMATS) for (const alias of spec.aliases) assert.equal(parseFormatName(` ${alias} `), name);
  });

  it('gives no two formats the same name or alias', () => {
    const names = [...IMPORT_FORMATS, ...NATIVE_FORMAT.aliases, ...FOREIGN_FORMATS.flatMap(([, spec]) => spec.aliases)];
    assert.equal(new Set(names).size, names.length);
  });

  it('lists every format in the --from help and in the unknown-format message', () => {
    const help = formatsHelp('  ').split('\n');
    assert.deepEqual(help.map((line) => line.trim().split(/\s+/)[0]), [...IMPORT_FORMATS]);
    for (const [, spec] of FOREIGN_FORMATS) assert.ok(SUPPORTED_FORMATS_TEXT.includes(`${spec.title} (${spec.detect.keys})`), spec.title);
    assert.throws(() => parseFormatName('csv'), (error: unknown) => error instanceof InputError && error.kind === 'unknown-format' && IMPORT_FORMATS.every((name) => error.message.includes(name)));
  });
});
