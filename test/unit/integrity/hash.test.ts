// File hashing: small files read synchronously in slices and big files streamed give the same SRI and git blob ids.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hashFile, hashFiles, STREAM_THRESHOLD } from '../../../src/node/integrity/hashFile';

describe('integrity: file hashing', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-hash-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('matches sha256 and `git hash-object` for empty, small and streamed files; unreadable files are undefined', async () => {
    const contents = [Buffer.alloc(0), Buffer.from('skill\n'), Buffer.alloc(STREAM_THRESHOLD + 12345, 'ab')];
    const files = contents.map((content, i) => {
      const file = path.join(dir, `f${i}`);
      writeFileSync(file, content);
      return file;
    });
    const digests = await hashFiles([...files, path.join(dir, 'absent')], true, 2);
    contents.forEach((content, i) => {
      assert.equal(digests[i]?.integrity, 'sha256-' + createHash('sha256').update(content).digest('base64'));
      assert.equal(digests[i]?.size, content.length);
      assert.equal(digests[i]?.gitBlob, execFileSync('git', ['hash-object', files[i]], { encoding: 'utf8' }).trim());
    });
    assert.equal(digests[3], undefined);
    assert.deepEqual(await hashFile(files[2], true), digests[2]);
  });
});
