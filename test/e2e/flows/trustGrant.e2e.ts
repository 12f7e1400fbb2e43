// User story: a folder opened in Restricted Mode shows skill drift, but nothing is written to its audit trail while it
// is untrusted; once the user trusts the folder, the drift seen meanwhile is recorded. This flow needs Workspace
// Trust on, so it starts a code-server of its own (the session's runs with trust off).
import * as assert from 'assert';
import * as fs from 'fs';
import { startCodeServer, type CodeServer } from '../../../scripts/vscode-test/codeServer';
import { e2eSession } from '../../../scripts/vscode-test/e2eSession';
import { DRIFTED_SKILL, pinThenDrift } from '../integrity';
import { useWorkbench, waitForText, waitUntil } from '../workbench';

const AUDIT_LOG = '.agent-immune/audit.ndjson';
/** Workspace Trust on and no startup prompt: the folder opens in Restricted Mode until the user trusts it. */
const RESTRICTED_MODE_SETTINGS = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' };

/** Decision records of drift of `file` in the audit trail at `log`. */
function driftRecords(log: string, file: string): number {
  if (!fs.existsSync(log)) return 0;
  const records = fs.readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { type: string; event: string; path: string });
  return records.filter((r) => r.type === 'decision' && r.event === 'drift' && r.path === file).length;
}

describe('Workspace Trust and the audit trail', () => {
  let server: CodeServer | undefined;
  before(async function () {
    this.timeout(180_000);
    server = await startCodeServer({ workspaceTrust: true, settings: RESTRICTED_MODE_SETTINGS, vsix: e2eSession().vsix });
  });
  after(async () => {
    await server?.stop();
  });
  const workbench = useWorkbench(pinThenDrift, () => {
    if (!server) throw new Error('the trust flow\'s code-server did not start');
    return server;
  });

  it('records the drift seen in Restricted Mode once the folder is trusted', async () => {
    const wb = workbench();
    const problems = await wb.problems();
    await waitForText(problems, /integrity\/skills\/drifted\/SKILL\.md changed since it was pinned/, 60_000);
    const log = wb.file(AUDIT_LOG);
    assert.strictEqual(driftRecords(log, DRIFTED_SKILL), 0, 'an untrusted folder got an audit record');

    await wb.runCommand('Workspaces: Manage Workspace Trust');
    await wb.page.getByRole('button', { name: 'Trust', exact: true }).click({ timeout: 30_000 });
    await waitUntil('the drift to be recorded in the audit trail', () => driftRecords(log, DRIFTED_SKILL) === 1, 30_000);
  });
});
