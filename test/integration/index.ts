// Entry the extension host loads as extensionTestsPath: runs every bundled suite (dist/test/integration/suite/*.test.js,
// or untrusted/*.test.js when AGENT_IMMUNE_TEST_SUITE=untrusted) with mocha (tdd) and prints the counts the runner
// reads. Mocha is resolved from node_modules, not bundled.
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import Mocha from 'mocha';

/** Prefix of every line of mocha's report, so the runner can tell it from the workbench's own console. */
const REPORT_PREFIX = 'AGENT_IMMUNE_INTEGRATION_REPORT ';

/** Called by VS Code once the extension host is up; rejects when a test failed or none ran. */
export async function run(): Promise<void> {
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(REPORT_PREFIX + format(...args));
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  const grep = process.env.AGENT_IMMUNE_TEST_GREP;
  if (grep) mocha.grep(grep);
  // The untrusted suites need a window in Restricted Mode (runIntegration.ts --untrusted); the others a trusted one.
  const dir = path.join(__dirname, process.env.AGENT_IMMUNE_TEST_SUITE === 'untrusted' ? 'untrusted' : 'suite');
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.test.js')).sort()) mocha.addFile(path.join(dir, file));
  const { passed, failed } = await new Promise<{ passed: number; failed: number }>((resolve) => {
    const runner = mocha.run(() => resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0 }));
  });
  // scripts/vscode-test/runIntegration.ts reads this line.
  console.log(`AGENT_IMMUNE_INTEGRATION_RESULT ${JSON.stringify({ passed, failed })}`);
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
  if (passed === 0) throw new Error('no integration test ran');
}
