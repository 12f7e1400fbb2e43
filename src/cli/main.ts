// agent-immune CLI entry: dispatches argv to a command and maps errors to exit codes.
import { InputError } from '../core/errors';
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
export async function runCli(argv: string[], io: CliIo): Promise<number> {
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
    io.stderr(`agent-immune: unknown command "${name}"\n${topUsage()}\n`);
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
      io.stderr(`agent-immune ${command.name}: ${error.message}\nRun "agent-immune ${command.name} --help" for usage.\n`);
      return ExitCode.BadInput;
    }
    if (error instanceof UnsafePathError) {
      io.stderr(`agent-immune ${command.name}: ${error.message}\n`);
      return ExitCode.BadInput;
    }
    if (error instanceof InputError) {
      io.stderr(`agent-immune ${command.name}: ${error.toString()}\n`);
      return ExitCode.BadInput;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      io.stderr(`agent-immune ${command.name}: ${(error as Error).message}\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
}

if (require.main === module) {
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
      process.stderr.write(`agent-immune: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = ExitCode.BadInput;
    },
  );
}
