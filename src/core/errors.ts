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
  | 'no-content'
  | 'bad-path';

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

  /**
   * "file:line: message" for one-line CLI output (control characters and line breaks escaped: input may be hostile);
   * `shown` writes the file as the user would type it.
   */
  override toString(shown: (file: string) => string = (file) => file): string {
    const where = [this.file && shown(this.file), this.line].filter((part) => part !== undefined && part !== '').join(':');
    return inline(where ? `${where}: ${this.message}` : this.message);
  }
}

/** What a file-system error code means for the user, and what to do about it. */
const FILE_PROBLEMS: Record<string, [what: string, todo: string]> = {
  ENOENT: ['no such file or folder', 'check the path'],
  ENOTDIR: ['a part of the path is a file, not a folder', 'check the path'],
  EISDIR: ['a folder where a file was expected', 'give a file'],
  EEXIST: ['already exists where a folder is needed', 'remove or rename it'],
  EACCES: ['permission denied', 'check its permissions'],
  EPERM: ['operation not permitted', 'check its permissions'],
  EROFS: ['the file system is read-only', 'write somewhere else'],
  ENOSPC: ['no space left on the device', 'free some space and retry'],
  EMFILE: ['too many open files', 'close some programs and retry'],
  ENAMETOOLONG: ['the path is too long', 'choose a shorter one'],
  ELOOP: ['too many symbolic links in the path', 'check the links'],
  EBUSY: ['the file is busy', 'retry when it is free'],
};

/** A Node file-system error (ENOENT, EACCES...): its code and, when known, the path it concerns. */
interface FileError {
  code: string;
  path?: string;
  message: string;
}

/** True for an error thrown by a file-system call. */
export function isFileError(error: unknown): error is FileError {
  const fields = error as Partial<FileError> & { syscall?: unknown };
  return error instanceof Error && typeof fields.code === 'string' && /^E[A-Z]+$/.test(fields.code) && typeof fields.syscall === 'string';
}

/** One line for a file-system error: "<path>: <what went wrong> (<CODE>); <what to do>", `shown` replacing the raw path. */
export function fileErrorText(error: FileError, shown = error.path): string {
  const known = FILE_PROBLEMS[error.code];
  const problem = known ? `${known[0]} (${error.code}); ${known[1]}` : error.message;
  return inline(shown ? `${shown}: ${problem}` : problem);
}

/** Runs a write of `file`, so a failure that does not say which file (ENOSPC from write) names it. */
export async function writingTo<T>(file: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isFileError(error) && error.path === undefined) error.path = file;
    throw error;
  }
}

/** The one-line text of anything thrown: "file:line: message" for an InputError, the path and the problem for a
 * file-system error, the message of any other Error, else the value. */
export function errorMessage(error: unknown): string {
  // By name, not instanceof: an InputError may come from another bundle's copy of this class (dist/engine.js).
  if (error instanceof Error && error.name === 'InputError') return error.toString();
  if (isFileError(error)) return fileErrorText(error);
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * What JSON.parse objected to, without the input text it quotes ("Unexpected token 'a', "…" is not valid JSON"):
 * the input may be hostile and megabytes long. Keeps the position when V8 gives one.
 */
export function jsonErrorText(error: unknown): string {
  const message = errorMessage(error);
  const quoted = /^(Unexpected token '.{1,4}'), .* is not valid JSON$/s.exec(message);
  return (quoted ? quoted[1] : message.replace(/\s+/g, ' ')).slice(0, 120);
}

/**
 * Runs one step of reading a trace: a value nested deeper than the reader's walk can follow (a JSON text inside an
 * attribute, thousands of levels deep) overflows the stack, and is refused as InputError, as a document past the
 * splitter's depth is, never an internal error.
 */
export function withinStack<T>(step: () => T, file?: string, line?: number): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof RangeError) throw new InputError('invalid-json', `a value nests too deep to read (${error.message}); no trace format does`, file, line);
    throw error;
  }
}
