// Runs test/integration in a desktop VS Code that @vscode/test-electron downloads: for contributors' machines with
// network access (CI and this project's machines cannot download VS Code and use runIntegration.ts instead).
// Usage: tsx scripts/vscode-test/runElectron.ts        (VSCODE_VERSION picks the version; default: stable)
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { cleanupAll } from './cleanup';
import { CACHE_DIR, INTEGRATION_ENTRY, REPO } from './paths';
import { copyFixtureWorkspace } from './workspace';
import { requireBuild } from './workbench';

async function main(): Promise<number> {
  requireBuild([path.join(REPO, 'dist', 'extension.js'), INTEGRATION_ENTRY]);
  const folder = copyFixtureWorkspace();
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? 'stable',
      cachePath: path.join(CACHE_DIR, 'electron'),
      extensionDevelopmentPath: REPO,
      extensionTestsPath: INTEGRATION_ENTRY,
      extensionTestsEnv: { AGENT_IMMUNE_TEST_LOAD_MODE: 'dev' },
      // Only the extension under test; the fixture copy as the folder.
      launchArgs: [folder, '--disable-extensions', '--skip-welcome', '--skip-release-notes'],
    });
    return 0;
  } catch (error) {
    console.error(`[electron] ${(error as Error).message}`);
    return 1;
  } finally {
    await cleanupAll();
  }
}

void main().then((code) => process.exit(code));
