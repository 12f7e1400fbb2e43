// Workspace Trust basics: what the manifest declares for untrusted folders, and the trusted test host's state.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activeExtension } from '../helpers';

suite('Workspace Trust', () => {
  test('declares limited support for untrusted workspaces, with a reason', async () => {
    const extension = await activeExtension();
    const untrusted = extension.packageJSON.capabilities?.untrustedWorkspaces;
    assert.strictEqual(untrusted?.supported, 'limited');
    assert.ok(typeof untrusted.description === 'string' && untrusted.description.length > 0);
  });

  test('the test host opens the fixture workspace trusted', () => {
    // The runner opens a throwaway copy made for the run; features that write (lockfile, audit) may rely on this.
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });
});
