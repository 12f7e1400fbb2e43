// Shared by the integrity tests: the CLI in-process, files written into a temp workspace, the audit trail's records, and
// a user config home without an audit key, so no test depends on the key file of whoever runs it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';

/** Runs the CLI in `cwd` with exactly `env`; returns the exit code, the output and the output parsed as JSON. */
export async function cli(cwd: string, env: Record<string, string>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** Writes `text` to `file` under `root`, creating its folders. */
export function write(root: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

/** The records of the workspace's audit trail, parsed. */
export function auditLines(root: string) {
  return readFileSync(path.join(root, '.agent-immune/audit.ndjson'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
}

/** For the suite it is called in: an empty user config home for the CLI (`env`) and the runtime API (process.env), and no
 * AGENT_IMMUNE_AUDIT_KEY(_FILE), restored afterwards. */
export function withoutAuditKey(): { env: Record<string, string> } {
  const hermetic = { env: {} as Record<string, string> };
  const saved: Record<string, string | undefined> = {};
  const names = ['XDG_CONFIG_HOME', 'AGENT_IMMUNE_AUDIT_KEY', 'AGENT_IMMUNE_AUDIT_KEY_FILE'];
  let home = '';
  before(() => {
    home = mkdtempSync(path.join(tmpdir(), 'ai-config-home-'));
    for (const name of names) saved[name] = process.env[name];
    for (const name of names) delete process.env[name];
    process.env.XDG_CONFIG_HOME = home;
    hermetic.env = { XDG_CONFIG_HOME: home };
  });
  after(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(home, { recursive: true, force: true });
  });
  return hermetic;
}
