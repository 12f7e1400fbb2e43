// Reading trace files from disk: streaming, the line cap, binary and huge inputs each have a defined outcome.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { InputError } from '../../../src/core/errors';
import { readTraceFile } from '../../../src/node/readTrace';

describe('readTraceFile', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-read-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, data: string | Buffer) => {
    const file = path.join(dir, name);
    writeFileSync(file, data);
    return file;
  };
  const kindOf = async (file: string, options = {}) => {
    try {
      await readTraceFile(file, options);
    } catch (error) {
      assert.ok(error instanceof InputError);
      return { kind: error.kind, line: error.line, file: error.file };
    }
    assert.fail('expected rejection');
  };

  it('rejects an empty file', async () => {
    assert.equal((await kindOf(write('empty.jsonl', ''))).kind, 'empty');
  });

  it('rejects a binary file that is not UTF-8, naming the line', async () => {
    const file = write('bin.jsonl', Buffer.concat([Buffer.from('{"type":"message","round":0,"from":"a","content":"x"}\n'), Buffer.from([0xff, 0xfe, 0x00, 0x81])]));
    assert.deepEqual(await kindOf(file), { kind: 'binary', line: 2, file });
  });

  it('accepts a 10 MB message and rejects a 50 MB line over a 32 MiB cap without reading it whole', async function () {
    this.timeout(120000);
    const big = 'x'.repeat(10 * 1024 * 1024);
    const ok = write('ten.jsonl', JSON.stringify({ type: 'message', round: 0, from: 'a', content: big }) + '\n');
    assert.equal((await readTraceFile(ok)).messages[0].content.length, big.length);
    const huge = write('fifty.jsonl', '{"type":"message","round":0,"from":"a","content":"ok"}\n' + JSON.stringify({ type: 'message', round: 0, from: 'b', content: 'y'.repeat(50 * 1024 * 1024) }));
    assert.deepEqual(await kindOf(huge, { maxLineBytes: 32 * 1024 * 1024 }), { kind: 'line-too-long', line: 2, file: huge });
  });

  it('names a fractional line cap as given (a 0.0001 MiB cap read "over 0 MiB")', async () => {
    const file = write('long.jsonl', JSON.stringify({ type: 'message', round: 0, from: 'a', content: 'z'.repeat(400) }) + '\n');
    await assert.rejects(readTraceFile(file, { maxLineBytes: 0.0001 * 1024 * 1024 }), /line is over 0\.0001 MiB; split the content or raise --max-line-mb/);
  });

  it('streams 10^6 lines', async function () {
    this.timeout(180000);
    const file = path.join(dir, 'million.jsonl');
    const out = createWriteStream(file);
    for (let i = 0; i < 1_000_000; i++) {
      if (!out.write(`{"type":"message","round":${i % 4},"from":"a${i % 50}","content":"m${i}"}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const trace = await readTraceFile(file);
    assert.equal(trace.messages.length, 1_000_000);
    assert.equal(trace.messages[999_999].line, 1_000_000);
  });
});
