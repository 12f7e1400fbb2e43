// What a CLI command is, the exit codes every command shares, and the usage error.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../core/errors';
import { closest } from './suggest';

/** Exit codes shared by every command (a contract: docs/cli.md). */
export const enum ExitCode {
  /** Done, nothing malicious / clean. */
  Ok = 0,
  /** Findings: attackers or infected agents, drift under --strict, prompts to harden under --check. */
  Findings = 1,
  /** Bad input or usage. */
  BadInput = 2,
}

/** Where a command writes; injected so tests can run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** One CLI command: its name, one-line summary, --help text, and its run function. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** Thrown for bad flags or arguments; main prints it with the command's usage hint and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses flags with node:util parseArgs (strict), turning its errors into a one-line UsageError (a typo gets the
 * closest known option). */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = true) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: negativeValuesJoined(args, all), options: all, allowPositionals, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(flagProblem(error, Object.entries(all).flatMap(([name, option]) => [`--${name}`, ...('short' in option && option.short ? [`-${option.short}`] : [])])));
  }
  // An option that takes one value, given twice (`-o a.jsonl -o b.jsonl`), would silently keep the last.
  const given = parsed.tokens.flatMap((token) => (token.kind === 'option' && token.value !== undefined ? [token.name] : []));
  const twice = given.find((name, i) => given.indexOf(name) !== i && !(all as Record<string, { multiple?: boolean }>)[name]?.multiple);
  if (twice) throw new UsageError(`--${twice} is given twice: give it once`);
  return { values: parsed.values, positionals: parsed.positionals };
}

/** `--episode -1` as `--episode=-1` (`-o -1` as `-o-1`): a negative number after an option that takes a value is that
 * value (as getopt reads it), so the option's own check can say what it accepts; parseArgs alone refuses it. */
function negativeValuesJoined(args: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const takesValue = (word: string): boolean => {
    const name = word.startsWith('--') ? word.slice(2) : Object.keys(options).find((key) => word === `-${options[key].short}`);
    return name !== undefined && options[name]?.type === 'string';
  };
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') return [...joined, ...args.slice(i)];
    if (takesValue(args[i]) && /^-\d/.test(args[i + 1] ?? '')) {
      joined.push(`${args[i]}${args[i].startsWith('--') ? '=' : ''}${args[i + 1]}`);
      i++;
    } else joined.push(args[i]);
  }
  return joined;
}

/** parseArgs' error in our words: the option (or argument) at fault and, for a typo, the option meant. */
function flagProblem(error: unknown, known: readonly string[]): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const meant = closest(quoted, known);
    return `unknown option ${quoted}${meant ? `; did you mean ${meant}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // parseArgs names an option with a short form "-o, --out <value>".
    const names = quoted.replace(/ <value>$/, '').split(', ');
    const flag = names.join('/');
    if (/argument missing/.test(message)) return `${flag} needs a value`;
    // "--episode -1", "--token --port 0": the next word starts with a dash, so it was not taken as the value.
    // A long option takes "--out=-1"; a short one its value joined on ("-o-1": "-o=-1" would be the value "=-1").
    const joined = names.at(-1)!.startsWith('--') ? `${names.at(-1)}=-VALUE` : `${names.at(-1)}-VALUE`;
    if (/argument is ambiguous/.test(message)) return `${flag} needs a value; one that starts with "-" is written ${joined}`;
    return `${flag} takes no value`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument "${quoted}"`;
  return errorMessage(error);
}
