// What an e2e flow drives: a VS Code workbench in Chromium on a fresh copy of the fixture workspace, with helpers for
// the palette, Quick Open, quick fixes, the Problems panel, webviews, and a screenshot of each flow's end state.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { CodeServer } from '../../scripts/vscode-test/codeServer';
import { e2eSession } from '../../scripts/vscode-test/e2eSession';
import { copyFixtureWorkspace } from '../../scripts/vscode-test/workspace';
import { remoteUri, saveScreenshot, workbenchUrl, type Payload } from '../../scripts/vscode-test/workbench';

/** One workbench window open on its own workspace copy. */
export interface Workbench {
  page: Page;
  /** Absolute path of the workspace copy (edit it freely). */
  folder: string;
  /** Absolute path of a workspace file, by path relative to the workspace root. */
  file(relative: string): string;
  /** Runs a command from the palette once (retrying only until the palette accepted it). */
  runCommand(title: string): Promise<void>;
  /** Opens a workspace file in an editor through Quick Open, at `line`:`column` (1-based) when given. */
  openFile(relative: string, line?: number, column?: number): Promise<void>;
  /** Opens the quick-fix menu (Ctrl+.) at the cursor and applies the action whose title starts with `title`. */
  quickFix(title: string): Promise<void>;
  /** The Problems panel, focused. */
  problems(): Promise<Locator>;
  /** The content frame of the webview panel whose tab title contains `title` (locators and evaluate work in it). */
  webview(title: string): Promise<Frame>;
  /** Saves test-output/<name>.png. */
  screenshot(name: string): Promise<string | undefined>;
}

/** Polls `check` until it is true or `timeoutMs` passes, then throws naming `what`. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve().then(check).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text a locator shows, with the editor's non-breaking spaces made plain (Monaco renders spaces as U+00A0). */
export async function visibleText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Waits until `locator` shows text matching `pattern` and returns that text; a timeout says what it showed instead. */
export async function waitForText(locator: Locator, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  let last = '';
  try {
    await waitUntil(`text matching ${pattern}`, async () => pattern.test((last = await visibleText(locator.first()))), timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; it showed: ${JSON.stringify(last.slice(-600))}`);
  }
  return last;
}

/** A file name safe for test-output/ from a test title. */
export function artifactName(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

/** Changes a flow makes to its workspace copy before the workbench opens it (a lockfile, a hostile trace, ...). */
export type Prepare = (folder: string) => void | Promise<void>;

/** Opens a new page on a fresh workspace copy (after `prepare`) and waits until the workbench shows the folder; on the
 * session's server unless a flow brings its own. */
export async function openWorkbench(label = 'workspace', prepare?: Prepare, server: CodeServer = e2eSession().server): Promise<Workbench> {
  const session = e2eSession();
  const folder = copyFixtureWorkspace(label);
  await prepare?.(folder);
  const payload: Payload = [['skipWelcome', 'true']];
  if (session.developmentPath) payload.unshift(['extensionDevelopmentPath', remoteUri(session.developmentPath)]);
  const page = await session.browser.context.newPage();
  page.on('pageerror', (error) => console.error(`      [page error] ${error.message.split('\n')[0]}`));
  await page.goto(workbenchUrl(server.url, folder, payload), { waitUntil: 'domcontentloaded', timeout: 90_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  // The Explorer lists the folder once the remote file system answers.
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 90_000 });
  return makeWorkbench(page, folder);
}

function makeWorkbench(page: Page, folder: string): Workbench {
  const quickInput = page.locator('.quick-input-widget');
  const input = quickInput.locator('input');

  // Types `text` into the open quick input, waits for a focused row matching `row`, presses Enter, and waits for the
  // widget to close on it.
  async function choose(text: string, row: RegExp): Promise<void> {
    await input.waitFor({ state: 'visible', timeout: 5000 });
    await input.fill(text, { timeout: 5000 });
    const focused = quickInput.locator('.quick-input-list .monaco-list-row.focused', { hasText: row });
    await waitUntil(`a focused row matching ${row}`, async () => (await focused.count()) > 0, 5000);
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden', timeout: 5000 });
  }

  // Opens the quick input with `key` and chooses. Retried because a keypress can be lost while the workbench restores
  // focus, and a contributed command shows only once its extension registered; done once the widget closed on Enter.
  async function pick(key: string, text: string, row: RegExp, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError = '';
    while (Date.now() < deadline) {
      try {
        await page.keyboard.press('Escape');
        await page.keyboard.press(key);
        await choose(text, row);
        return;
      } catch (error) {
        lastError = (error as Error).message.split('\n')[0];
      }
    }
    throw new Error(`${what} failed within ${timeoutMs} ms: ${lastError}`);
  }

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  const workbench: Workbench = {
    page,
    folder,
    file: (relative) => path.join(folder, ...relative.split('/')),
    runCommand: (title) => pick('F1', `>${title}`, new RegExp(`^${escape(title)}`), `the command "${title}"`),
    openFile: async (relative, line, column) => {
      const name = path.basename(relative);
      // Quick Open understands "path:line:column".
      const query = [relative, line, line && column].filter(Boolean).join(':');
      await pick('Control+P', query, new RegExp(escape(name)), `opening ${relative}`);
      await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 30_000 });
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
    },
    quickFix: async (title) => {
      // Retried: the menu is empty until the extension's diagnostics and code actions have arrived.
      const widget = page.locator('.action-widget');
      const row = widget.locator('.monaco-list-row', { hasText: title }).first();
      const editor = page.locator('.editor-group-container.active .monaco-editor textarea').first();
      await waitUntil(`the quick fix "${title}"`, async () => {
        await page.keyboard.press('Escape');
        await editor.focus();
        await page.keyboard.press('Control+.');
        await row.waitFor({ timeout: 5000 });
        return true;
      }, 60_000);
      // Keyboard, not a click: the menu's pointer block swallows synthetic clicks. Walk down to the row, then Enter.
      const rows = await widget.locator('.monaco-list-row').count();
      for (let i = 0; i <= rows; i++) {
        const focused = (await widget.locator('.monaco-list-row.focused').first().innerText().catch(() => '')).trim();
        if (focused.startsWith(title)) break;
        await page.keyboard.press('ArrowDown');
      }
      assert.ok((await widget.locator('.monaco-list-row.focused').first().innerText()).trim().startsWith(title), `could not focus the quick fix "${title}"`);
      await page.keyboard.press('Enter');
      await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    },
    problems: async () => {
      await workbench.runCommand('View: Focus Problems');
      const panel = page.locator('.markers-panel');
      await panel.waitFor({ timeout: 30_000 });
      return panel;
    },
    webview: async (title) => {
      await page.locator('.tabs-container .tab', { hasText: title }).first().waitFor({ timeout: 60_000 });
      // A webview is a host iframe holding the content iframe (#active-frame) once the page has loaded.
      let frame: Frame | null | undefined;
      await waitUntil(`the webview content of "${title}"`, async () => {
        const host = await page.locator('iframe.webview.ready').first().elementHandle({ timeout: 2000 });
        const hostFrame = await host?.contentFrame();
        const content = await hostFrame?.locator('iframe#active-frame').elementHandle({ timeout: 2000 });
        frame = await content?.contentFrame();
        return Boolean(frame && (await frame.locator('body').count()) > 0);
      }, 60_000);
      return frame!;
    },
    screenshot: (name) => saveScreenshot(page, name),
  };
  return workbench;
}

/**
 * Mocha hooks for a flow file: each test gets a fresh workbench on a fresh workspace copy (changed by `prepare`, if
 * given, before the workbench opens it), on the session's server or the one `server` returns; after it, the end state is
 * saved as test-output/e2e-<test title>.png (a failure adds "-failed" and the server log tail).
 */
export function useWorkbench(prepare?: Prepare, server?: () => CodeServer): () => Workbench {
  let current: Workbench | undefined;
  beforeEach(async function () {
    current = await openWorkbench(artifactName(this.currentTest?.title ?? 'workspace'), prepare, server?.());
  });
  afterEach(async function () {
    const test = this.currentTest;
    const failed = test?.state === 'failed';
    const name = `e2e-${artifactName(test?.fullTitle() ?? 'flow')}${failed ? '-failed' : ''}`;
    // A page that died (crash, hung renderer) has no screenshot: the page is gone, the log tail still says why.
    const shot = await saveScreenshot(current?.page, name);
    if (failed) {
      console.error(`      screenshot: ${shot ?? 'none'}\n      server log tail:\n${(server?.() ?? e2eSession().server).logTail(25).replace(/^/gm, '        ')}`);
      if (shot) fs.appendFileSync(shot.replace(/\.png$/, '.txt'), `${test?.err?.stack ?? ''}\n`);
    }
    await current?.page.close().catch(() => undefined);
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('the workbench is only available inside a test');
    return current;
  };
}
