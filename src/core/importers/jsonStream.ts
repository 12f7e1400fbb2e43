// A small streaming JSON splitter: reads a document in text chunks and hands over only the values whose path is
// selected (each span of an OTLP export, each element of a top-level array), so a 200 MB document never sits whole.
import { InputError, jsonErrorText } from '../errors';
import type { JsonPath } from './types';

/** The deepest nesting a document may have (OTLP exports nest about 10 deep); deeper is refused, not walked. */
export const MAX_JSON_DEPTH = 256;

/** True when a parsed JSON value nests deeper than `max` levels (walked without recursion, so no depth overflows it). */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

interface Frame {
  array: boolean;
  /** Current key (object) or index (array). */
  key: string | number;
  /** Object only: the next string is a key. */
  expectKey: boolean;
}

interface Capture {
  depth: number;
  parts: string[];
  line: number;
  path: JsonPath;
}

/** Splits one JSON document into selected values; call `write` per chunk, then `end`. */
export class JsonSplitter {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escape = false;
  private keyParts: string[] | undefined;
  private capture: Capture | undefined;
  private line = 1;
  private sawValue = false;

  constructor(
    private readonly select: (path: JsonPath, isArray: boolean) => boolean,
    private readonly emit: (value: unknown, line: number, path: JsonPath) => void,
    private readonly file?: string,
  ) {}

  /** Feeds the next chunk of text. */
  write(chunk: string): void {
    let captureStart = this.capture ? 0 : -1;
    let keyStart = this.keyParts ? 0 : -1;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      if (this.inString) {
        // Jump to the closing quote: strings are most of the bytes, so they are skipped with indexOf, not char by char.
        const close = this.closingQuote(chunk, i);
        if (close === -1) break;
        i = close;
        this.inString = false;
        if (this.keyParts) {
          const raw = this.keyParts.join('') + chunk.slice(keyStart, i);
          this.stack[this.stack.length - 1].key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
          this.keyParts = undefined;
          keyStart = -1;
        }
        continue;
      }
      const c = chunk.charCodeAt(i);
      switch (c) {
        case 10:
          this.line++;
          break;
        case 34: {
          this.inString = true;
          const top = this.stack[this.stack.length - 1];
          if (!this.capture && top && !top.array && top.expectKey) {
            this.keyParts = [];
            keyStart = i + 1;
          } else this.valueStarts();
          break;
        }
        case 123:
        case 91: {
          this.valueStarts();
          if (!this.capture) {
            const path = this.stack.map((f) => f.key);
            if (this.select(path, c === 91)) {
              this.capture = { depth: this.stack.length, parts: [], line: this.line, path };
              captureStart = i;
            }
          }
          if (this.stack.length >= MAX_JSON_DEPTH) throw this.error(`the JSON document nests deeper than ${MAX_JSON_DEPTH} levels; no trace format does`);
          this.stack.push({ array: c === 91, key: c === 91 ? 0 : '', expectKey: c === 123 });
          break;
        }
        case 125:
        case 93: {
          const frame = this.stack.pop();
          if (!frame || frame.array !== (c === 93)) throw this.error(`unexpected "${String.fromCharCode(c)}"`);
          if (this.capture && this.stack.length === this.capture.depth) {
            const capture = this.capture;
            capture.parts.push(chunk.slice(captureStart, i + 1));
            this.capture = undefined;
            captureStart = -1;
            this.emitCapture(capture);
          }
          break;
        }
        case 44: {
          const top = this.stack[this.stack.length - 1];
          if (top?.array) top.key = (top.key as number) + 1;
          else if (top) top.expectKey = true;
          break;
        }
        case 58: {
          const top = this.stack[this.stack.length - 1];
          if (top && !top.array) top.expectKey = false;
          break;
        }
        default:
          if (c > 32) this.valueStarts();
      }
    }
    if (this.capture) this.capture.parts.push(chunk.slice(captureStart));
    if (this.keyParts) this.keyParts.push(chunk.slice(keyStart));
  }

  /** Checks the document ended cleanly. */
  end(): void {
    if (this.inString || this.stack.length > 0) throw this.error('the JSON document ends early (unclosed string, object or array)');
    if (!this.sawValue) throw new InputError('empty', 'the file is empty', this.file);
  }

  /** Index of the unescaped quote that closes the current string, or -1 (escape state kept) when the chunk ends first. */
  private closingQuote(chunk: string, from: number): number {
    let i = from;
    if (this.escape) {
      this.escape = false;
      i++;
    }
    for (;;) {
      const q = chunk.indexOf('"', i);
      if (q === -1) {
        let run = 0;
        for (let k = chunk.length - 1; k >= i && chunk.charCodeAt(k) === 92; k--) run++;
        this.escape = run % 2 === 1;
        return -1;
      }
      let run = 0;
      for (let k = q - 1; k >= i && chunk.charCodeAt(k) === 92; k--) run++;
      if (run % 2 === 0) return q;
      i = q + 1;
    }
  }

  private valueStarts(): void {
    this.sawValue = true;
  }

  private emitCapture(capture: Capture): void {
    let value: unknown;
    try {
      value = JSON.parse(capture.parts.join(''));
    } catch (error) {
      throw new InputError('invalid-json', `not valid JSON (${jsonErrorText(error)})`, this.file, capture.line);
    }
    this.emit(value, capture.line, capture.path);
  }

  private error(message: string): InputError {
    return new InputError('invalid-json', message, this.file, this.line);
  }
}

/** Splits a document held in memory (tests, small files). */
export function splitJson(text: string, select: (path: JsonPath, isArray: boolean) => boolean, emit: (value: unknown, line: number, path: JsonPath) => void, file?: string): void {
  const splitter = new JsonSplitter(select, emit, file);
  splitter.write(text);
  splitter.end();
}
