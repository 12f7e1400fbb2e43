// Running the CLI in-process from a test, and writing a file of a test project.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/main';

/** Runs `agent-immune ARGV` in `cwd` with an empty environment; its exit code and what it printed. */
export async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

/** Writes `text` to `file` under `root`, making its folders. */
export function write(root: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}
