// Runs the end-to-end flows (test/e2e/**/*.e2e.ts, mocha bdd) against one code-server and one headless Chromium.
// Usage: tsx scripts/vscode-test/runE2e.ts [--vsix] [--grep PATTERN] [--file FLOW.e2e.ts]
//   --vsix: install the packaged extension instead of loading dist/; --file: run one flow file (repeatable).
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { launchBrowser } from './browser';
import { exitAfterCleanup, installExitHandlers, startWatchdog } from './cleanup';
import { startCodeServer } from './codeServer';
import { e2eSession, setE2eSession } from './e2eSession';
import { OUTPUT_DIR, REPO } from './paths';
import { packageVsix, requireBuild, saveScreenshot, saveServerLog, type LoadMode } from './workbench';

const FLOWS_DIR = path.join(REPO, 'test', 'e2e');

/** Every *.e2e.ts under test/e2e, sorted. */
function flowFiles(dir = FLOWS_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return flowFiles(full);
    return entry.name.endsWith('.e2e.ts') ? [full] : [];
  }).sort();
}

/** Every value given for `--name VALUE`. */
function flags(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && i + 1 < process.argv.length ? [process.argv[i + 1]] : []));
}

async function main(): Promise<number> {
  installExitHandlers();
  const mode: LoadMode = process.argv.includes('--vsix') ? 'vsix' : 'dev';
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  requireBuild([path.join(REPO, 'dist', 'extension.js'), path.join(REPO, 'dist', 'webview.js')]);

  // Screenshots of an earlier run would pass for this one's.
  if (fs.existsSync(OUTPUT_DIR)) for (const name of fs.readdirSync(OUTPUT_DIR)) if (name.startsWith('e2e-')) fs.rmSync(path.join(OUTPUT_DIR, name), { force: true });
  const vsix = mode === 'vsix' ? packageVsix() : undefined;
  const server = await startCodeServer({ vsix });
  const browser = await launchBrowser();
  setE2eSession({ server, browser, mode, developmentPath: vsix ? undefined : REPO, vsix });
  console.log(`[e2e] ${elapsed()} code-server at ${server.url}, extension from ${vsix ? 'a packaged .vsix' : 'dist/ (development path)'}`);

  // Each flow has its own mocha timeout; this bounds the whole run, hung hooks included.
  const timeoutMs = Number(process.env.AGENT_IMMUNE_E2E_TIMEOUT_S ?? 1800) * 1000;
  const stopWatchdog = startWatchdog(timeoutMs, 'the e2e run', async () => {
    const pages = e2eSession().browser.context.pages();
    const shot = await saveScreenshot(pages[pages.length - 1], 'e2e-timeout');
    console.error(`[e2e] screenshot: ${shot ?? 'none'}; server log: ${saveServerLog(server.logFile, 'e2e-timeout')}\n${server.logTail(40)}`);
  });

  const mocha = new Mocha({ ui: 'bdd', timeout: Number(process.env.AGENT_IMMUNE_E2E_FLOW_TIMEOUT_S ?? 300) * 1000, reporter: 'spec', color: false });
  const [grep] = flags('--grep');
  if (grep) mocha.grep(grep);
  const files = flags('--file').map((file) => path.resolve(file));
  for (const file of files.length > 0 ? files : flowFiles()) mocha.addFile(file);
  const stats = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats!));
  });
  stopWatchdog();
  if (stats.failures > 0) console.error(`[e2e] server log: ${saveServerLog(server.logFile, `e2e-${mode}`)}`);
  console.log(`[e2e] ${elapsed()} done; screenshots in test-output/`);
  // The plain closing line CI reads.
  console.log(`e2e: ${stats.passes} passed, ${stats.failures} failed`);
  return stats.failures === 0 && stats.passes > 0 ? 0 : 1;
}

main().then(exitAfterCleanup, async (error: Error) => {
  console.error(`[e2e] ${error.stack ?? error.message}`);
  await exitAfterCleanup(1);
});
