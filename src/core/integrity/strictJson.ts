// A strict JSON reader for the lockfile and the audit trail: rejects duplicate keys (JSON.parse keeps the last one
// silently), tells a truncated file from one that is not JSON, with the line of the problem, and refuses nesting deeper
// than MAX_JSON_DEPTH. It never recurses, so no input can overflow the stack.

/** The deepest nesting of objects and arrays accepted (a lockfile needs 3, an audit record 2). */
export const MAX_JSON_DEPTH = 64;

/** Why strict parsing failed, and where. */
export interface StrictJsonError {
  reason: 'truncated' | 'not-json' | 'duplicate-key' | 'too-deep';
  detail: string;
  line: number;
}

/** Parses JSON text; returns the value or the first error (never throws). */
export function parseStrictJson(text: string): { ok: true; value: unknown } | { ok: false; error: StrictJsonError } {
  const reader = new Reader(text);
  try {
    reader.space();
    const value = reader.document();
    reader.space();
    if (reader.pos < text.length) reader.fail('not-json', 'unexpected text after the JSON value');
    return { ok: true, value };
  } catch (error) {
    if (error instanceof JsonFailure) return { ok: false, error: error.info };
    throw error;
  }
}

class JsonFailure extends Error {
  constructor(readonly info: StrictJsonError) {
    super(info.detail);
  }
}

/** An object or array being filled; `key` is the object key whose value comes next. */
type Frame = { kind: 'object'; value: Record<string, unknown>; key: string } | { kind: 'array'; value: unknown[] };

class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(reason: StrictJsonError['reason'], detail: string): never {
    let line = 1;
    for (let i = this.text.indexOf('\n'); i !== -1 && i < this.pos; i = this.text.indexOf('\n', i + 1)) line++;
    throw new JsonFailure({ reason, detail, line });
  }

  private peek(): string {
    if (this.pos >= this.text.length) this.fail('truncated', 'unexpected end of file');
    return this.text[this.pos];
  }

  space(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
  }

  private expect(char: string): void {
    if (this.peek() !== char) this.fail('not-json', `expected "${char}"`);
    this.pos++;
  }

  /** One JSON value with everything nested in it, read with an explicit stack of open containers. */
  document(): unknown {
    const stack: Frame[] = [];
    for (;;) {
      this.space();
      let value: unknown;
      const char = this.peek();
      if (char === '{' || char === '[') {
        if (stack.length >= MAX_JSON_DEPTH) this.fail('too-deep', `nested deeper than ${MAX_JSON_DEPTH} levels`);
        this.pos++;
        this.space();
        if (char === '{') {
          const object = Object.create(null) as Record<string, unknown>;
          if (this.peek() !== '}') {
            stack.push({ kind: 'object', value: object, key: this.key(object) });
            continue;
          }
          this.pos++;
          value = object;
        } else {
          if (this.peek() !== ']') {
            stack.push({ kind: 'array', value: [] });
            continue;
          }
          this.pos++;
          value = [];
        }
      } else {
        value = this.scalar(char);
      }
      // Hand the finished value to the containers it closes, innermost first.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (!frame) return value;
        if (frame.kind === 'object') frame.value[frame.key] = value;
        else frame.value.push(value);
        this.space();
        const next = this.peek();
        this.pos++;
        if (next === ',') {
          if (frame.kind === 'object') {
            this.space();
            frame.key = this.key(frame.value);
          }
          break;
        }
        if (next !== (frame.kind === 'object' ? '}' : ']')) this.fail('not-json', frame.kind === 'object' ? 'expected "," or "}"' : 'expected "," or "]"');
        stack.pop();
        value = frame.value;
      }
    }
  }

  /** An object key and its colon; a key the object already has is refused. */
  private key(object: Record<string, unknown>): string {
    if (this.peek() !== '"') this.fail('not-json', 'expected a string key');
    const key = this.string();
    if (Object.prototype.hasOwnProperty.call(object, key)) this.fail('duplicate-key', `duplicate key "${key}"`);
    this.space();
    this.expect(':');
    return key;
  }

  private scalar(char: string): unknown {
    if (char === '"') return this.string();
    if (char === '-' || (char >= '0' && char <= '9')) return this.number();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
      if (word.startsWith(this.text.slice(this.pos))) this.fail('truncated', 'unexpected end of file');
    }
    return this.fail('not-json', `unexpected character "${char}"`);
  }

  private string(): string {
    const start = this.pos;
    this.expect('"');
    // Fast path: no escapes before the closing quote (every lockfile key and hash).
    const end = this.text.indexOf('"', this.pos);
    if (end !== -1) {
      const raw = this.text.slice(this.pos, end);
      if (!raw.includes('\\') && !/[\u0000-\u001f]/.test(raw)) {
        this.pos = end + 1;
        return raw;
      }
    }
    for (;;) {
      const char = this.peek();
      if (char === '"') break;
      if (char < ' ') this.fail('not-json', 'control character in a string');
      this.pos += char === '\\' ? 2 : 1;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('not-json', 'invalid string escape');
    }
  }

  private number(): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!match) this.fail(this.pos + 1 >= this.text.length ? 'truncated' : 'not-json', 'invalid number');
    this.pos += match[0].length;
    return Number(match[0]);
  }
}
