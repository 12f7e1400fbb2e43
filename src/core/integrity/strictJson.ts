// A strict JSON reader for the lockfile: rejects duplicate keys (JSON.parse keeps the last one silently) and tells
// a truncated file from one that is not JSON, with the line of the problem.

/** Why strict parsing failed, and where. */
export interface StrictJsonError {
  reason: 'truncated' | 'not-json' | 'duplicate-key';
  detail: string;
  line: number;
}

/** Parses JSON text; returns the value or the first error (never throws). */
export function parseStrictJson(text: string): { ok: true; value: unknown } | { ok: false; error: StrictJsonError } {
  const reader = new Reader(text);
  try {
    reader.space();
    const value = reader.value();
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

class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(reason: StrictJsonError['reason'], detail: string): never {
    const line = this.text.slice(0, this.pos).split('\n').length;
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

  value(): unknown {
    const char = this.peek();
    if (char === '{') return this.object();
    if (char === '[') return this.array();
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

  private object(): Record<string, unknown> {
    this.expect('{');
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    this.space();
    if (this.peek() === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.peek() !== '"') this.fail('not-json', 'expected a string key');
      const key = this.string();
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail('duplicate-key', `duplicate key "${key}"`);
      this.space();
      this.expect(':');
      this.space();
      out[key] = this.value();
      this.space();
      const next = this.peek();
      this.pos++;
      if (next === '}') return out;
      if (next !== ',') this.fail('not-json', 'expected "," or "}"');
    }
  }

  private array(): unknown[] {
    this.expect('[');
    const out: unknown[] = [];
    this.space();
    if (this.peek() === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      out.push(this.value());
      this.space();
      const next = this.peek();
      this.pos++;
      if (next === ']') return out;
      if (next !== ',') this.fail('not-json', 'expected "," or "]"');
    }
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
