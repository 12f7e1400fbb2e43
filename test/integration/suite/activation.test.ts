// Activation: the extension loads in the fixture workspace, from where the runner says, with every command registered.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { activeExtension, loadedBundles } from '../helpers';

/** This bundle runs from <repo>/dist/test/integration/suite. */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');

suite('Activation', () => {
  test('activates in the fixture workspace', async () => {
    const extension = await activeExtension();
    assert.strictEqual(extension.isActive, true);
  });

  test('is loaded the way the runner asked: dist/ (development path) or a packaged .vsix', async () => {
    const extension = await activeExtension();
    // The runners set the mode; the Extension Tests launch configuration loads the development path without saying so.
    const mode = process.env.AGENT_IMMUNE_TEST_LOAD_MODE ?? 'dev';
    const loadedFrom = path.resolve(extension.extensionUri.fsPath);
    if (mode === 'dev') {
      assert.strictEqual(loadedFrom, REPO);
    } else {
      assert.strictEqual(mode, 'vsix', `unknown AGENT_IMMUNE_TEST_LOAD_MODE ${mode}`);
      assert.notStrictEqual(loadedFrom, REPO);
      assert.ok(fs.existsSync(path.join(loadedFrom, 'dist', 'extension.js')), 'the .vsix lacks dist/extension.js');
      assert.ok(!fs.existsSync(path.join(loadedFrom, 'src')), 'the .vsix ships sources: check .vscodeignore');
    }
  });

  test('activation loads neither the trace bundles (guard, graphology, importers) nor the LLM bundle (OpenAI SDK)', async () => {
    const extension = await activeExtension();
    assert.ok(Object.keys(require.cache).some((file) => file.endsWith(`${path.sep}dist${path.sep}extension.js`)), 'the check looks at the wrong module cache');
    assert.deepStrictEqual(loadedBundles(extension), []);
  });

  test('registers every command package.json contributes', async () => {
    const extension = await activeExtension();
    const contributed = (extension.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.ok(contributed.length > 0);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepStrictEqual(contributed.filter((id) => !registered.has(id)), []);
  });
});
