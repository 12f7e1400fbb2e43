// Streams a file as lines without holding it whole; a line over the byte cap is rejected early.
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { InputError } from '../core/errors';

/** Default cap on one line: 64 MiB (a 10 MB message fits; a runaway line does not). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Yields [text, 1-based line number] for each line of a UTF-8 file (read from `handle` when given, already opened
 * safely; `file` then only names it); throws InputError on oversize lines, and on bytes that are not UTF-8 unless
 * `lenient` (--lenient: a log with a damaged byte is read with it replaced by U+FFFD). */
export async function* readLines(file: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES, handle?: FileHandle, lenient = false): AsyncGenerator<[string, number]> {
  const decoder = new TextDecoder('utf-8', { fatal: !lenient });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  const decode = (chunks: Buffer[]): string => {
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    try {
      const text = decoder.decode(buffer);
      return text.endsWith('\r') ? text.slice(0, -1) : text;
    } catch {
      throw new InputError('binary', 'not UTF-8 text; expected JSON Lines', file, line);
    }
  };
  const stream = handle ? handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false, start: 0 }) : createReadStream(file, { highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      pendingBytes += end - start;
      if (pendingBytes > maxLineBytes) {
        throw new InputError('line-too-long', `line is over ${Number((maxLineBytes / 1048576).toPrecision(3))} MiB; split the content or raise --max-line-mb`, file, line);
      }
      if (end > start) pending.push(chunk.subarray(start, end));
      if (newline === -1) break;
      yield [decode(pending), line];
      pending = [];
      pendingBytes = 0;
      line++;
      start = newline + 1;
    }
  }
  if (pendingBytes > 0) yield [decode(pending), line];
}
