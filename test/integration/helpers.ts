// Shared helpers for integration suites: the extension under test, fixture workspace paths, waiting for a condition.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ourCode } from '../../src/extension/diagnostics';
import { SETTINGS_SECTION, type SettingId, type SettingValues } from '../../src/extension/ids';

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

/** Our diagnostics on a file whose code is one of a family's catalogue (INTEGRITY_FINDINGS, HARDEN_FINDINGS, ...). */
export function findingDiagnostics(uri: vscode.Uri, catalogue: Record<string, unknown>): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => Object.hasOwn(catalogue, ourCode(d) ?? ''));
}

/** The codes of those diagnostics, sorted. */
export function findingCodes(uri: vscode.Uri, catalogue: Record<string, unknown>): string[] {
  return findingDiagnostics(uri, catalogue).map((d) => ourCode(d) ?? '').sort();
}

/** The current value of one of our settings (ids checked against SettingValues). */
export function getSetting<K extends SettingId>(id: K): SettingValues[K] | undefined {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<SettingValues[K]>(id);
}

/** Sets (undefined: removes) one of our settings at a level. */
export async function updateSetting<K extends SettingId>(id: K, value: SettingValues[K] | undefined, target: vscode.ConfigurationTarget): Promise<void> {
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(id, value, target);
}

/** Which feature bundles (dist/engine.js, dist/trace.js, dist/llm.js, dist/live.js) the extension host has loaded so far. */
export function loadedBundles(extension: vscode.Extension<unknown>): string[] {
  const dist = vscode.Uri.joinPath(extension.extensionUri, 'dist').fsPath;
  return ['engine', 'trace', 'llm', 'live'].filter((name) => Object.keys(require.cache).some((file) => file === `${dist}/${name}.js` || file === `${dist}\\${name}.js`));
}
