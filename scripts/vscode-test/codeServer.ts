// Starts code-server (VS Code 1.100.3's server + web workbench) on a free loopback port with throwaway state, and
// stops its whole process group: its file watcher, pty host and extension host outlive the parent otherwise.
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { CODE_SERVER_BIN, INSTALL_SCRIPT } from './paths';
import { onCleanup } from './cleanup';

/** How to start the server. */
export interface CodeServerOptions {
  /** A .vsix to install into the throwaway extensions dir before start. */
  vsix?: string;
  /** Keep Workspace Trust on (off by default so a test folder opens without the trust prompt). */
  workspaceTrust?: boolean;
  /** Extra user settings merged over the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Extra environment for the server and so for the extension host (tests read it with process.env). */
  env?: Record<string, string>;
}

/** A running server. */
export interface CodeServer {
  url: string;
  /** Scratch root holding user data, extensions, XDG dirs and the log. */
  root: string;
  logFile: string;
  /** The last `lines` lines of the server log. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

/** A quiet, deterministic workbench: no welcome page stealing focus, no update/telemetry/gallery traffic. */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
};

/** Throws with the install command when code-server is not installed yet. */
export function requireCodeServer(): string {
  if (!fs.existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server is not installed: run \`bash ${path.relative(process.cwd(), INSTALL_SCRIPT)}\` first`);
  }
  return CODE_SERVER_BIN;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => {
      request.destroy();
      resolve(false);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Kills a process group: TERM, then KILL after `graceMs`. */
async function killGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // the group is already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(child) && Date.now() < deadline) await sleep(100);
  signal('SIGKILL'); // children that ignored TERM, even when the leader exited
}

/** Creates the scratch root, installs the .vsix if asked, starts the server and waits for /healthz. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const bin = requireCodeServer();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-immune-vscode-'));
  const removeRoot = onCleanup('remove code-server scratch', () => fs.rmSync(root, { recursive: true, force: true }));
  const dirs = { userData: path.join(root, 'user-data'), extensions: path.join(root, 'extensions'), tmp: path.join(root, 'tmp') };
  // code-server needs both dirs to exist; settings keep the workbench quiet.
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.mkdirSync(dirs.extensions, { recursive: true });
  fs.mkdirSync(dirs.tmp, { recursive: true });
  fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2));
  const env = {
    ...process.env,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: path.join(root, 'xdg', 'config'),
    XDG_DATA_HOME: path.join(root, 'xdg', 'data'),
    XDG_CACHE_HOME: path.join(root, 'xdg', 'cache'),
    ...options.env,
  };
  const common = ['--config', path.join(root, 'config.yaml'), '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];

  if (options.vsix) {
    const result = spawnSync(bin, [...common, '--install-extension', options.vsix], { env, encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0) throw new Error(`code-server --install-extension ${options.vsix} failed:\n${result.stdout}\n${result.stderr}`);
  }

  const logFile = path.join(root, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const log = fs.openSync(logFile, 'a');
    const args = [...common, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
      '--disable-getting-started-override', ...(options.workspaceTrust ? [] : ['--disable-workspace-trust'])];
    // detached: the server leads its own process group (setsid), so one kill reaches all its children.
    const child = spawn(bin, args, { env, detached: true, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    const stopServer = onCleanup('stop code-server', () => killGroup(child));
    const deadline = Date.now() + 60_000;
    while (alive(child) && Date.now() < deadline && !(await healthy(url))) await sleep(250);
    const server: CodeServer = {
      url,
      root,
      logFile,
      logTail: (lines = 60) => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n') : ''),
      stop: async () => {
        await stopServer();
        await removeRoot();
      },
    };
    if (alive(child) && (await healthy(url))) return server;
    await stopServer();
    const reason = alive(child) ? 'did not answer /healthz within 60 s' : `exited with ${child.exitCode ?? child.signalCode}`;
    // A port taken between freePort() and bind is the one failure worth a retry.
    if (attempt < 3 && /EADDRINUSE/.test(server.logTail())) continue;
    const tail = server.logTail();
    await removeRoot();
    throw new Error(`code-server ${reason}; log tail:\n${tail}`);
  }
}
