// agent-immune CLI entry: dispatches argv to a command and maps every failure to one line on stderr and an exit code.
import * as path from 'node:path';
import { errorMessage, fileErrorText, InputError, isFileError } from '../core/errors';
import { inline, terminalSafe } from '../core/text/printable';
import { UnsafePathError } from '../node/workspaceFs';
import { LockfileStateError } from '../core/integrity/errors';
import { FileLockTimeoutError } from '../node/integrity/fileLock';
import { version as VERSION } from '../../package.json';
import { ExitCode, UsageError, type CliIo } from './command';
import { commands } from './commands';
import { closest } from './suggest';

function topUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length), '-V, --version'.length);
  return [
    'Usage: agent-immune <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    `  ${'-h, --help'.padEnd(width)}  show this help (also: agent-immune help [command])`,
    `  ${'-V, --version'.padEnd(width)}  print the version (also: agent-immune version)`,
    '',
    'Run "agent-immune <command> --help" for a command\'s options.',
    'Exit codes: 0 ok/clean, 1 findings, 2 bad input or usage.',
  ].join('\n');
}

/** Runs the CLI with argv (without node and script) and returns the exit code. */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  const io = safeIo(rawIo);
  const [name, ...rest] = argv;
  // "agent-immune help analyze" is "agent-immune analyze --help".
  if (name === 'help' && rest.length > 0) return runCli([rest[0], '--help'], rawIo);
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(topUsage() + '\n');
    return ExitCode.Ok;
  }
  // No command is a usage error: like every exit 2, nothing on stdout.
  if (name === undefined) {
    io.stderr(topUsage() + '\n');
    return ExitCode.BadInput;
  }
  if (name === '--version' || name === '-V' || name === '-v' || name === 'version') {
    io.stdout(VERSION + '\n');
    return ExitCode.Ok;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`agent-immune: ${unknownCommand(name)} Run "agent-immune --help" for the commands.\n`);
    return ExitCode.BadInput;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.trimEnd() + '\n');
    return ExitCode.Ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const problem = failure(error, io.cwd);
    if (problem === undefined) throw error;
    io.stderr(`agent-immune ${command.name}: ${error instanceof UsageError ? `${sentence(problem)} Run "agent-immune ${command.name} --help" for usage.` : problem}\n`);
    return ExitCode.BadInput;
  }
}

/** What is wrong with a first argument that names no command: an unknown option or command, with the closest name. */
function unknownCommand(name: string): string {
  if (name.startsWith('-')) {
    const meant = closest(name, ['--help', '--version']);
    return meant ? `unknown option ${inline(name)}; did you mean ${meant}?` : `unknown option ${inline(name)}: a command's options go after it (agent-immune <command> ${inline(name)}).`;
  }
  const meant = closest(name, commands.map((c) => c.name));
  return sentence(`unknown command "${inline(name)}"${meant ? `; did you mean "${meant}"?` : ''}`);
}

/** The one line for a failure the user can act on (bad usage, bad input, a file problem); undefined for a bug. */
function failure(error: unknown, cwd: string): string | undefined {
  if (error instanceof UsageError || error instanceof UnsafePathError || error instanceof FileLockTimeoutError || error instanceof LockfileStateError) return inline(error.message);
  if (error instanceof InputError) return error.toString((file) => (path.isAbsolute(file) ? shownPath(file, cwd) : file));
  // A file-system or OS failure (ENOENT, EACCES, ENOSPC, ...): the path as the user would type it, and what to do.
  if (isFileError(error)) return fileErrorText(error, error.path && shownPath(error.path, cwd));
  return undefined;
}

/** Text ending as a sentence, so a hint can follow it on the same line. */
function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/** A path relative to the current directory when it is inside it, else as it is. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** The io a command writes through: every byte it prints is made terminal-safe (traces and repositories are untrusted). */
function safeIo(io: CliIo): CliIo {
  return { ...io, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}

if (require.main === module) {
  // A closed pipe (agent-immune analyze run.jsonl | head) ends the output, not the process with a stack trace; any other
  // failure to write it (a full disk: ENOSPC) is one line and exit 2, as a failed --html or -o write is.
  // A receiver (`serve`, listening for SIGTERM) whose standard output or error closes stops as on Ctrl+C, writing the
  // runs it holds (it exited at once, losing them); every later write to a closed pipe is dropped.
  const closed = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (closed.has(stream)) return;
      // (Once one pipe closed, the receiver is stopping and has let go of SIGTERM: the other just closes too.)
      if (error.code === 'EPIPE' && (closed.size > 0 || process.listenerCount('SIGTERM') > 0)) {
        closed.add(stream);
        if (!closed.has(process.stderr)) process.stderr.write(`agent-immune: standard ${stream === process.stdout ? 'output' : 'error'} was closed; stopping\n`);
        if (closed.size === 1) process.emit('SIGTERM', 'SIGTERM');
        return;
      }
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      // A warning that cannot be written changes nothing the command did; output that cannot be written does.
      if (stream === process.stderr) return;
      process.stderr.write(terminalSafe(`agent-immune: cannot write the output: ${inline(errorMessage(error))}\n`));
      process.exit(ExitCode.BadInput);
    });
  }
  const io: CliIo = {
    stdout: (text) => closed.has(process.stdout) || process.stdout.write(text),
    stderr: (text) => closed.has(process.stderr) || process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // No stack trace reaches a user; AGENT_IMMUNE_DEBUG=1 prints it for a bug report.
      const detail = process.env.AGENT_IMMUNE_DEBUG ? ((error as Error)?.stack ?? String(error)) : inline(errorMessage(error));
      process.stderr.write(terminalSafe(`agent-immune: internal error: ${detail}\n(this is a bug: please report it, with AGENT_IMMUNE_DEBUG=1 set for the details)\n`));
      process.exitCode = ExitCode.BadInput;
    },
  );
}
