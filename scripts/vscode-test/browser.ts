// Headless Debian Chromium driven by playwright-core, with a throwaway profile removed on close.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_BIN } from './paths';
import { onCleanup } from './cleanup';

/** A browser context plus its own close (which also removes the profile). */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium headless with a fresh profile. */
export async function launchBrowser(viewport = { width: 1400, height: 900 }): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_BIN)) throw new Error(`Chromium not found at ${CHROMIUM_BIN}: run scripts/vscode-test/install.sh or set CHROMIUM`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-immune-chromium-'));
  const removeProfile = onCleanup('remove chromium profile', () => fs.rmSync(profile, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_BIN,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const closeContext = onCleanup('close chromium', () => context.close());
  return {
    context,
    close: async () => {
      await closeContext();
      await removeProfile();
    },
  };
}
