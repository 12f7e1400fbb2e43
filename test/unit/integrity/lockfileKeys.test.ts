// Lockfile records are keyed by workspace paths: a file or skill folder named like an Object.prototype member
// (__proto__, constructor, toString, ...) must round-trip as an ordinary entry and never match an inherited property.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compareToLock } from '../../../src/core/integrity/compare';
import { buildLockfile, parseLockfile, serializeLockfile, skillTrees } from '../../../src/core/integrity/lockfile';
import type { FileDigest } from '../../../src/core/integrity/types';

const sri = (text: string) => 'sha256-' + createHash('sha256').update(text).digest('base64');
const blob = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
const digest = (text: string): FileDigest => ({ integrity: sri(text), size: Buffer.byteLength(text), gitBlob: blob(text) });

/** Root-level files and skill folders whose names are Object.prototype members. */
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

function protoNamedDigests(): Map<string, FileDigest> {
  const digests = new Map<string, FileDigest>([['AGENTS.md', digest('agents')]]);
  for (const name of PROTO_NAMES) digests.set(name, digest(`file ${name}`));
  digests.set('__proto__-skill/SKILL.md', digest('not a proto key'));
  digests.set('skills/__proto__/SKILL.md', digest('nested'));
  return digests;
}

describe('integrity: lockfile keys named like Object.prototype members', () => {
  it('pins, serializes and parses back files named __proto__, constructor, toString, ... as entries', () => {
    const digests = protoNamedDigests();
    const lock = buildLockfile(digests, new Set(['__proto__-skill', 'skills/__proto__']));
    assert.deepEqual(Object.keys(lock.files).sort(), [...digests.keys()].sort());
    const text = serializeLockfile(lock);
    for (const name of PROTO_NAMES) assert.ok(text.includes(`"${name}": {`), `${name} is written`);
    const parsed = parseLockfile(text, 'agent-immune.lock');
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.finding.detail);
    assert.deepEqual(Object.keys(parsed.lock.files).sort(), [...digests.keys()].sort());
    for (const name of PROTO_NAMES) assert.equal(parsed.lock.files[name].integrity, sri(`file ${name}`), name);
    assert.deepEqual(compareToLock(parsed.lock, digests, { lockfile: 'agent-immune.lock', skillDirs: new Set() }), []);
  });

  it('keeps a skill folder named __proto__ at the root', () => {
    const digests = new Map([['__proto__/SKILL.md', digest('skill')], ['__proto__/run.sh', digest('run')]]);
    const lock = buildLockfile(digests, new Set(['__proto__']));
    assert.deepEqual(Object.keys(lock.skills), ['__proto__']);
    assert.deepEqual(Object.keys(skillTrees([...digests].map(([path, d]) => [path, d.integrity]), new Set(['__proto__']))), ['__proto__']);
    const parsed = parseLockfile(serializeLockfile(lock), 'agent-immune.lock');
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.finding.detail);
    assert.deepEqual(Object.keys(parsed.lock.skills), ['__proto__']);
  });

  it('never treats an inherited property as a pinned entry', () => {
    const lock = buildLockfile(new Map([['AGENTS.md', digest('agents')]]), new Set());
    const parsed = parseLockfile(serializeLockfile(lock), 'agent-immune.lock');
    assert.ok(parsed.ok);
    for (const files of [lock.files, parsed.lock.files]) {
      for (const name of PROTO_NAMES) assert.equal(files[name], undefined, name);
    }
    // A new file named constructor is not pinned, not drift against Object.prototype.constructor.
    const current = new Map([['AGENTS.md', digest('agents')], ['constructor', digest('x')]]);
    assert.deepEqual(compareToLock(parsed.lock, current, { lockfile: 'agent-immune.lock', skillDirs: new Set() }).map((f) => [f.code, f.path]), [['unpinned-skill', 'constructor']]);
  });

  it('does not pollute Object.prototype from a hand-written "__proto__" entry', () => {
    const entry = { gitBlob: blob('x'), integrity: sri('x'), size: 1 };
    const text = `{"lockfileVersion": 1, "files": {"__proto__": ${JSON.stringify(entry)}}, "skills": {}}`;
    const parsed = parseLockfile(text, 'agent-immune.lock');
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.finding.detail);
    assert.deepEqual(Object.keys(parsed.lock.files), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).integrity, undefined);
    assert.equal(Object.getPrototypeOf(parsed.lock.files), null);
  });
});
