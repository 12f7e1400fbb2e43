// The running e2e session (code-server + Chromium) that runE2e.ts starts and test/e2e flows use.
import type { Browser } from './browser';
import type { CodeServer } from './codeServer';
import type { LoadMode } from './workbench';

/** What a flow needs to open a workbench. */
export interface E2eSession {
  server: CodeServer;
  browser: Browser;
  mode: LoadMode;
  /** extensionDevelopmentPath for the payload URL in dev mode; undefined when the extension is installed from a .vsix. */
  developmentPath?: string;
  /** The packaged extension the server installed (vsix mode), for a flow that starts a server of its own. */
  vsix?: string;
}

let current: E2eSession | undefined;

/** Called by the runner once the server and the browser are up. */
export function setE2eSession(session: E2eSession | undefined): void {
  current = session;
}

/** The session; throws when a flow is run outside scripts/vscode-test/runE2e.ts. */
export function e2eSession(): E2eSession {
  if (!current) throw new Error('no e2e session: run the flows with `npm run test:e2e` (scripts/vscode-test/runE2e.ts)');
  return current;
}
