// Named error classes with a stable kind, so callers and tests branch on kind, never on message text.
import { inline } from './text/printable';

/** Kinds of bad input the core reports. */
export type InputErrorKind =
  | 'empty'
  | 'binary'
  | 'invalid-json'
  | 'invalid-field'
  | 'missing-field'
  | 'line-too-long'
  | 'unknown-agent'
  | 'unknown-format'
  | 'invalid-config'
  | 'no-content';

/** Bad input: names where (file:line), which field, and what was expected. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    readonly kind: InputErrorKind,
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly field?: string,
  ) {
    super(message);
  }

  /** "file:line: message" for one-line CLI output (control characters and line breaks escaped: input may be hostile). */
  override toString(): string {
    const where = [this.file, this.line].filter((part) => part !== undefined && part !== '').join(':');
    return inline(where ? `${where}: ${this.message}` : this.message);
  }
}

/** The one-line text of anything thrown: "file:line: message" for an InputError, the message of an Error, else the value. */
export function errorMessage(error: unknown): string {
  if (error instanceof InputError) return error.toString();
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * What JSON.parse objected to, without the input text it quotes ("Unexpected token 'a', "…" is not valid JSON"):
 * the input may be hostile and megabytes long. Keeps the position when V8 gives one.
 */
export function jsonErrorText(error: unknown): string {
  const message = String((error as Error)?.message ?? error);
  const quoted = /^(Unexpected token '.{1,4}'), .* is not valid JSON$/s.exec(message);
  return (quoted ? quoted[1] : message.replace(/\s+/g, ' ')).slice(0, 120);
}
