// Runs test/integration (mocha inside the real extension host) in code-server, the way VS Code's own browser
// integration tests run: a payload URL with extensionDevelopmentPath + extensionTestsPath, and codeAutomationExit.
// Usage: tsx scripts/vscode-test/runIntegration.ts [--vsix] [--untrusted]
//   --vsix: load the extension from a packaged .vsix; --untrusted: Workspace Trust on and the folder left untrusted
//   (Restricted Mode), running test/integration/untrusted/ instead of test/integration/suite/.
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import type { Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { exitAfterCleanup, installExitHandlers, startWatchdog } from './cleanup';
import { startCodeServer } from './codeServer';
import { INTEGRATION_ENTRY, OUTPUT_DIR, REPO } from './paths';
import { copyFixtureWorkspace } from './workspace';
import { emptyHostExtension, packageVsix, remoteUri, requireBuild, saveScreenshot, saveServerLog, workbenchUrl, type LoadMode } from './workbench';

/** Workspace Trust on, and no startup prompt: nothing trusts the folder, so the window stays in Restricted Mode. */
const RESTRICTED_MODE_SETTINGS = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' };

/** Line prefixes test/integration/index.ts prints: its counts, and each line of mocha's report. */
const RESULT_MARKER = 'AGENT_IMMUNE_INTEGRATION_RESULT ';
const REPORT_PREFIX = 'AGENT_IMMUNE_INTEGRATION_REPORT ';

async function main(): Promise<number> {
  installExitHandlers();
  const mode: LoadMode = process.argv.includes('--vsix') ? 'vsix' : 'dev';
  const untrusted = process.argv.includes('--untrusted');
  const timeoutMs = Number(process.env.AGENT_IMMUNE_TEST_TIMEOUT_S ?? 900) * 1000;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  requireBuild([path.join(REPO, 'dist', 'extension.js'), INTEGRATION_ENTRY]);

  const vsix = mode === 'vsix' ? packageVsix() : undefined;
  const server = await startCodeServer({
    vsix,
    env: { AGENT_IMMUNE_TEST_LOAD_MODE: mode, ...(untrusted ? { AGENT_IMMUNE_TEST_SUITE: 'untrusted' } : {}) },
    ...(untrusted ? { workspaceTrust: true, settings: RESTRICTED_MODE_SETTINGS } : {}),
  });
  const folder = copyFixtureWorkspace();
  const where = `${vsix ? 'a packaged .vsix' : 'dist/ (development path)'}${untrusted ? ', untrusted folder (Restricted Mode)' : ''}`;
  console.log(`[integration] ${elapsed()} code-server at ${server.url}, extension from ${where}`);

  const shown: { page?: Page } = {};
  const name = `integration-${mode}${untrusted ? '-untrusted' : ''}`;
  const stopWatchdog = startWatchdog(timeoutMs, 'the integration run', async () => {
    const shot = await saveScreenshot(shown.page, `${name}-timeout`);
    const log = saveServerLog(server.logFile, `${name}-timeout`);
    console.error(`[integration] screenshot: ${shot ?? 'none'}; server log: ${log ?? 'none'}; log tail:\n${server.logTail(40)}`);
  });

  const browser = await launchBrowser();
  let counts: { passed: number; failed: number } | undefined;
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  shown.page = page;
  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  // The workbench forwards its console and the extension host's here while it runs extension tests: mocha's report is
  // printed live, the rest (workbench chatter) is kept for test-output/ and shown with AGENT_IMMUNE_TEST_VERBOSE=1.
  const verbose = Boolean(process.env.AGENT_IMMUNE_TEST_VERBOSE);
  const consoleLines: string[] = [];
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    if (text.startsWith(REPORT_PREFIX)) console.log(text.slice(REPORT_PREFIX.length));
    else if (text.startsWith(RESULT_MARKER)) counts = JSON.parse(text.slice(RESULT_MARKER.length));
    else {
      consoleLines.push(`[${elapsed()}] ${type}: ${text}`);
      if (verbose) console.log(text);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
  page.on('pageerror', (error) => console.error(`[integration] page error: ${error.message}`));

  const developmentPath = vsix ? emptyHostExtension() : REPO;
  console.log(`[integration] ${elapsed()} opening the workbench`);
  await page.goto(workbenchUrl(server.url, folder, [
    ['extensionDevelopmentPath', remoteUri(developmentPath)],
    ['extensionTestsPath', remoteUri(INTEGRATION_ENTRY)],
    ['skipWelcome', 'true'],
  ]), { waitUntil: 'domcontentloaded', timeout: 120_000 });
  const code = await exited;
  stopWatchdog();
  console.log(`[integration] ${elapsed()} extension host exited with ${code}`);
  await saveScreenshot(page, name);
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUTPUT_DIR, `${name}.console.log`), consoleLines.join('\n') + '\n');
  if (code !== 0) console.error(`[integration] server log: ${saveServerLog(server.logFile, name)}; workbench console: test-output/${name}.console.log`);
  if (!counts) {
    console.error('[integration] the test entry printed no result: did it load?');
    return 1;
  }
  // The plain closing line CI reads.
  console.log(`integration: ${counts.passed} passed, ${counts.failed} failed`);
  return code === 0 && counts.failed === 0 && counts.passed > 0 ? 0 : 1;
}

main().then(exitAfterCleanup, async (error: Error) => {
  console.error(`[integration] ${error.stack ?? error.message}`);
  await exitAfterCleanup(1);
});
