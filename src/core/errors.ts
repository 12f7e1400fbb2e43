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
