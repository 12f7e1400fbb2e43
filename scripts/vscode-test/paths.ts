// Where the real-editor harness finds things: the repo, the code-server cache, the fixture workspace, artifacts.
import * as path from 'path';

export const REPO = path.resolve(__dirname, '..', '..');
export const CODE_SERVER_VERSION = '4.100.3';
/** The cache install.sh fills (ignored by git); AGENT_IMMUNE_VSCODE_CACHE moves it. */
export const CACHE_DIR = process.env.AGENT_IMMUNE_VSCODE_CACHE ?? path.join(REPO, '.vscode-test');
export const CODE_SERVER_BIN = path.join(CACHE_DIR, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', '.bin', 'code-server');
export const INSTALL_SCRIPT = path.join(REPO, 'scripts', 'vscode-test', 'install.sh');
export const FIXTURE_WORKSPACE = path.join(REPO, 'test', 'fixtures', 'workspace');
/** Screenshots and server logs land here (ignored by git). */
export const OUTPUT_DIR = path.join(REPO, 'test-output');
/** The integration bundle esbuild.js writes (test/integration/index.ts). */
export const INTEGRATION_ENTRY = path.join(REPO, 'dist', 'test', 'integration', 'index.js');
/** publisher.name from package.json. */
export const EXTENSION_ID = 'agent-immune.agent-immune';
export const CHROMIUM_BIN = process.env.CHROMIUM ?? '/usr/bin/chromium';
