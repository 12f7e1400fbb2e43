// Workbench URLs and the ways to load the extension: from the repo (dist/, development path) or from a packaged .vsix.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { OUTPUT_DIR, REPO } from './paths';
import { onCleanup } from './cleanup';

/** How the extension under test is loaded. */
export type LoadMode = 'dev' | 'vsix';

/** A workbench launch parameter (VS Code's `payload` query: extensionDevelopmentPath, extensionTestsPath, ...). */
export type Payload = [string, string][];

/** The URI the web workbench uses for a path on the server's disk (code-server's remote authority is "remote"). */
export function remoteUri(file: string): string {
  return `vscode-remote://remote${path.resolve(file)}`;
}

/** The workbench URL that opens `folder`, with launch `payload` if any. */
export function workbenchUrl(serverUrl: string, folder: string, payload: Payload = []): string {
  const query = [`folder=${encodeURIComponent(folder)}`];
  if (payload.length > 0) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${serverUrl}/?${query.join('&')}`;
}

/** Fails early with the fix when the build output the harness loads is missing. */
export function requireBuild(files: string[]): void {
  const missing = files.filter((file) => !fs.existsSync(file));
  if (missing.length > 0) throw new Error(`missing ${missing.map((f) => path.relative(REPO, f)).join(', ')}: run \`npm run build\` first`);
}

/** Packages the repo with @vscode/vsce into a temp dir (removed at cleanup); returns the .vsix path. */
export function packageVsix(): string {
  requireBuild([path.join(REPO, 'dist', 'extension.js')]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-immune-vsix-'));
  onCleanup('remove packaged vsix', () => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'agent-immune.vsix');
  const vsce = path.join(REPO, 'node_modules', '.bin', 'vsce');
  // A test package is never published: README links stay relative (vsce cannot derive a base URL for this repo).
  const result = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--no-rewrite-relative-links', '-o', out], {
    cwd: REPO, encoding: 'utf8', timeout: 120_000,
  });
  if (result.status !== 0 || !fs.existsSync(out)) throw new Error(`vsce package failed:\n${result.stdout}\n${result.stderr}`);
  return out;
}

/**
 * An empty extension to pass as extensionDevelopmentPath when the extension under test comes from a .vsix:
 * the test runner needs a development path, and pointing it at the repo would shadow the installed .vsix.
 */
export function emptyHostExtension(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-immune-test-host-'));
  onCleanup('remove test host extension', () => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'agent-immune-test-host', publisher: 'agent-immune-test', version: '0.0.0', engines: { vscode: '^1.100.0' },
  }));
  return dir;
}

/** Saves a screenshot under test-output/ (never throws: a dead page must not mask the real failure). */
export async function saveScreenshot(page: Page | undefined, name: string): Promise<string | undefined> {
  if (!page) return undefined;
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  try {
    await page.screenshot({ path: file, timeout: 10_000 });
    return file;
  } catch (error) {
    console.error(`[vscode-test] screenshot ${name} failed: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

/** Copies the server log under test-output/ for a failed run. */
export function saveServerLog(logFile: string, name: string): string | undefined {
  if (!fs.existsSync(logFile)) return undefined;
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.server.log`);
  fs.copyFileSync(logFile, file);
  return file;
}
