// File hashing: small files read synchronously in slices and big files streamed give the same SRI and git blob ids;
// what cannot be hashed (a FIFO, a folder, an unreadable file) says why, without waiting; a gone file is undefined.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { HASH_ATTEMPTS, hashFile, hashFiles, isDigest, pinnableHashes, STREAM_THRESHOLD } from '../../../src/node/integrity/hashFile';

describe('integrity: file hashing', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-hash-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('matches sha256 and `git hash-object` for empty, small and streamed files; a gone file is undefined', async () => {
    const contents = [Buffer.alloc(0), Buffer.from('skill\n'), Buffer.alloc(STREAM_THRESHOLD + 12345, 'ab')];
    const files = contents.map((content, i) => {
      const file = path.join(dir, `f${i}`);
      writeFileSync(file, content);
      return file;
    });
    const digests = await hashFiles([...files, path.join(dir, 'absent')], [], 2);
    contents.forEach((content, i) => {
      const d = digests[i];
      assert.ok(isDigest(d));
      assert.equal(d.integrity, 'sha256-' + createHash('sha256').update(content).digest('base64'));
      assert.equal(d.size, content.length);
      assert.equal(d.gitBlob, execFileSync('git', ['hash-object', files[i]], { encoding: 'utf8' }).trim());
    });
    assert.equal(digests[3], undefined);
    assert.deepEqual(await hashFile(files[2]), digests[2]);
    assert.deepEqual(await hashFile(files[1]), digests[1]);
  });

  it('a FIFO and a folder are reported as not regular files, at once', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(path.join(dir, 'folder'));
    const outcomes = await hashFiles([fifo, path.join(dir, 'folder')]);
    assert.deepEqual(outcomes.map((o) => (o && !isDigest(o) ? o.reason : undefined)), ['not-a-file', 'not-a-file']);
    assert.equal(outcomes[0] && !isDigest(outcomes[0]) && outcomes[0].detail, 'it is a named pipe (FIFO), not a regular file');
    assert.deepEqual(await hashFile(fifo), outcomes[0]);
  });

  it('a file it may not read is reported as unreadable (as root: hashed by a child running as nobody)', async function () {
    if (process.platform === 'win32') this.skip();
    const locked = path.join(dir, 'locked');
    writeFileSync(locked, 'secret');
    chmodSync(locked, 0o000);
    let outcome = (await hashFiles([locked]))[0];
    if (process.getuid?.() === 0) {
      chmodSync(dir, 0o755);
      const script = `require('./src/node/integrity/hashFile').hashFiles([process.argv[1]]).then((o) => console.log(JSON.stringify(o)))`;
      const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script, locked], { uid: 65534, gid: 65534, cwd: path.join(__dirname, '../../..'), encoding: 'utf8' });
      // A checkout nobody cannot read (a private home folder) cannot run the child: nothing to learn here then.
      if (child.status !== 0) this.skip();
      outcome = JSON.parse(child.stdout)[0];
    }
    assert.deepEqual(outcome, { reason: 'unreadable', detail: 'permission denied' });
  });
});

describe('integrity: a file that changes while it is read', () => {
  it('is read again, then reported as changing rather than hashed from a torn read', async function () {
    // /proc files report size 0 and read as text: every read disagrees with the stat around it.
    if (process.platform !== 'linux') this.skip();
    const [small] = await hashFiles(['/proc/self/stat']);
    assert.deepEqual(small, { reason: 'changing', detail: `its content changed while it was read, ${HASH_ATTEMPTS} times in a row` });
    assert.deepEqual(await hashFile('/proc/self/stat'), small);
  });

  it('a pin may hold a prompt\'s hash with its other line endings, never a script\'s (#!) nor a file past 1 MiB, as verify reads them', async () => {
    const crlf = Buffer.from('# Skill\r\nBe careful.\r\n');
    assert.equal(pinnableHashes(crlf, 'SKILL.md').length, 2);
    assert.equal(pinnableHashes(Buffer.from('#!/usr/bin/env python3\r\nprint(1)\r\n'), 'tool.py').length, 1);
    assert.equal(pinnableHashes(crlf, 'run.sh').length, 1);
    const big = Buffer.from('x\r\n'.repeat(STREAM_THRESHOLD / 3 + 1));
    assert.equal(pinnableHashes(big, 'AGENTS.md').length, 1, 'verify streams a file past 1 MiB and never hashes its other endings');
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-hash-big-'));
    try {
      writeFileSync(path.join(dir, 'BIG.md'), big);
      const lf = (await hashFile(path.join(dir, 'BIG.md'), 'sha256-pinned-with-lf'))!;
      assert.ok(isDigest(lf) && lf.otherLineEndings === undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
