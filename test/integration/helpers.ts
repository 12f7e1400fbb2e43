// Shared helpers for integration suites: the extension under test, fixture workspace paths, waiting for a condition.
import * as assert from 'assert';
import * as vscode from 'vscode';

/** publisher.name of the extension under test. */
export const EXTENSION_ID = 'agent-immune.agent-immune';

/** The extension under test, activated. */
export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  await extension.activate();
  return extension;
}

/** The opened folder: a throwaway copy of test/fixtures/workspace made by the runner. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the runner opens the fixture workspace copy; no folder is open');
  return folder.uri;
}

/** A file in the workspace copy, by path relative to its root. */
export function workspaceFile(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then fails with `what`). */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
