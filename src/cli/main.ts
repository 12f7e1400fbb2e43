// agent-immune CLI entry: dispatches argv to a command and maps errors to exit codes.
import { InputError } from '../core/errors';
import { inline, terminalSafe } from '../core/text/printable';
import { UnsafePathError } from '../node/workspaceFs';
import { ExitCode, UsageError, type CliIo } from './command';
import { commands } from './commands';

const VERSION = '0.1.0';

function topUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: agent-immune <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "agent-immune <command> --help" for a command\'s options.',
    'Exit codes: 0 ok/clean, 1 findings, 2 bad input or usage.',
  ].join('\n');
}

/** Runs the CLI with argv (without node and script) and returns the exit code. */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  const io = safeIo(rawIo);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(topUsage() + '\n');
    return name === undefined ? ExitCode.BadInput : ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION + '\n');
    return ExitCode.Ok;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`agent-immune: unknown command "${inline(name)}"\n${topUsage()}\n`);
    return ExitCode.BadInput;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.trimEnd() + '\n');
    return ExitCode.Ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`agent-immune ${command.name}: ${inline(error.message)}\nRun "agent-immune ${command.name} --help" for usage.\n`);
      return ExitCode.BadInput;
    }
    if (error instanceof UnsafePathError) {
      io.stderr(`agent-immune ${command.name}: ${inline(error.message)}\n`);
      return ExitCode.BadInput;
    }
    if (error instanceof InputError) {
      io.stderr(`agent-immune ${command.name}: ${error.toString()}\n`);
      return ExitCode.BadInput;
    }
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') {
      // A file-system or OS failure (ENOENT, EACCES, ENOSPC, EEXIST, ...): its message names the path.
      io.stderr(`agent-immune ${command.name}: ${inline((error as Error).message)}\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
}

/** The io a command writes through: every byte it prints is made terminal-safe (traces and repositories are untrusted). */
function safeIo(io: CliIo): CliIo {
  return { ...io, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}

if (require.main === module) {
  // A closed pipe (agent-immune analyze run.jsonl | head) ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // No stack trace reaches a user; AGENT_IMMUNE_DEBUG=1 prints it for a bug report.
      const detail = process.env.AGENT_IMMUNE_DEBUG ? ((error as Error)?.stack ?? String(error)) : inline(String((error as Error)?.message ?? error));
      process.stderr.write(terminalSafe(`agent-immune: internal error: ${detail}\n(this is a bug: please report it, with AGENT_IMMUNE_DEBUG=1 set for the details)\n`));
      process.exitCode = ExitCode.BadInput;
    },
  );
}
