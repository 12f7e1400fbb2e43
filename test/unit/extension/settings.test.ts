// package.json `contributes` and the typed ids agree: the same setting ids (checked by the compiler), defaults of the
// declared type, one severity setting per hardening code with the catalogue's default, every command id typed, and
// every command the palette shows and every setting in the README's tables.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SEVERITIES } from '../../../src/core/findings';
import { HARDEN_CODES, HARDEN_FINDINGS } from '../../../src/core/harden/findings';
import { DEFAULT_HARDEN_CONFIG } from '../../../src/core/harden/config';
import { DEFAULT_INTEGRITY_CONFIG } from '../../../src/core/integrity/scope';
import { ALWAYS_ON_PROMPT_GLOBS, SLASH_COMMAND_GLOBS } from '../../../src/core/promptFiles';
import { SETTINGS_SECTION, severitySetting, type SettingId } from '../../../src/extension/ids';
import manifest from '../../../package.json';

type Properties = typeof manifest.contributes.configuration.properties;
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time: every contributed setting is a typed id and every typed id is contributed. */
const sameIds: Equal<keyof Properties, `${typeof SETTINGS_SECTION}.${SettingId}`> = true;

const properties = manifest.contributes.configuration.properties as Record<string, { type: string | string[]; default: unknown; enum?: string[] }>;
const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);

describe('settings and commands: package.json and the typed ids', () => {
  it('declare the same setting ids', () => {
    assert.equal(sameIds, true);
    assert.ok(Object.keys(properties).every((key) => key.startsWith(`${SETTINGS_SECTION}.`)));
  });

  it('give every setting a default of its declared type (the code reads its defaults from there)', () => {
    for (const [key, { type, default: value }] of Object.entries(properties)) {
      const types = [type].flat();
      assert.ok(types.includes(typeOf(value)) || (typeOf(value) === 'integer' && types.includes('number')), `${key}: default ${JSON.stringify(value)} is not ${types.join(' | ')}`);
    }
  });

  it('offer one severity setting per hardening code, defaulting to the catalogue severity', () => {
    for (const code of HARDEN_CODES) {
      const property = properties[`${SETTINGS_SECTION}.${severitySetting(code)}`];
      assert.ok(property, `no setting for ${code}`);
      assert.deepEqual(property.enum, [...SEVERITIES]);
      assert.equal(property.default, HARDEN_FINDINGS[code].severity);
    }
  });

  it('restrict only contributed settings in untrusted workspaces', () => {
    for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) assert.ok(properties[key], key);
  });

  it('type every contributed command id in CommandId', () => {
    const ids = readFileSync(path.join(__dirname, '../../../src/extension/ids.ts'), 'utf8');
    const commandIds = /export const enum CommandId \{([^}]*)\}/.exec(ids)?.[1] ?? '';
    const typed = new Set([...commandIds.matchAll(/= '(agentImmune\.[A-Za-z]+)'/g)].map((m) => m[1]));
    assert.ok(typed.size > 0, 'CommandId is read from ids.ts');
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual(contributed.filter((id) => !typed.has(id)), []);
    assert.deepEqual([...typed].filter((id) => !contributed.includes(id)), []);
  });

  it('activate on every always-on prompt file that integrity pins and harden reads (one list)', () => {
    assert.deepEqual([...ALWAYS_ON_PROMPT_GLOBS, ...SLASH_COMMAND_GLOBS].filter((glob) => !manifest.activationEvents.includes(`workspaceContains:${glob}`)), []);
    assert.deepEqual(ALWAYS_ON_PROMPT_GLOBS.filter((glob) => !DEFAULT_INTEGRITY_CONFIG.prompts.includes(glob) || !DEFAULT_HARDEN_CONFIG.include.includes(glob)), []);
  });

  it("are all in the README's tables: every command the palette shows, every setting", () => {
    const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
    const rows = readme.split('\n').filter((line) => line.startsWith('| Agent Immune: ')).join('\n');
    const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    const shown = manifest.contributes.commands.filter((c) => !hidden.has(c.command));
    assert.deepEqual(shown.map((c) => c.title).filter((title) => !rows.includes(title)), []);
    assert.deepEqual(Object.keys(properties).filter((key) => !readme.includes(`\`${key}\``)), []);
  });
});
