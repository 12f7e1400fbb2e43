// The importer registry: each format described once, and the --from names, help and "expected ..." text derived from it.
import * as assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors';
import { FOREIGN_FORMATS, formatsHelp, IMPORT_FORMATS, parseFormatName } from '../../../src/core/importers';
import { unknownFormatError } from '../../../src/core/importers/detect';
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

  it('lists every format in the --from help, which the unknown-format message points to in one short line (was: every format and its keys, 1,500 characters)', () => {
    const help = formatsHelp('  ').split('\n').filter((line) => !line.trim().startsWith('detected by '));
    assert.deepEqual(help.map((line) => line.trim().split(/\s+/)[0]), [...IMPORT_FORMATS]);
    for (const [, spec] of FOREIGN_FORMATS) assert.ok(formatsHelp('  ').includes(`detected by ${spec.detect.keys}`), spec.title);
    const unknown = unknownFormatError('run.json', '{"lc": 1}').message;
    assert.ok(unknown.length < 300 && unknown.includes(`none of the ${IMPORT_FORMATS.length} formats read`) && unknown.includes('`--help` lists them'), unknown);
    assert.throws(() => parseFormatName('csv'), (error: unknown) => error instanceof InputError && error.kind === 'unknown-format' && IMPORT_FORMATS.every((name) => error.message.includes(name)));
  });
});
