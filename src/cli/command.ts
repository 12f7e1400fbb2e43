// What a CLI command is, the exit codes every command shares, and the usage error.
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

/** Parses flags with node:util parseArgs (strict), turning its errors into UsageError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
