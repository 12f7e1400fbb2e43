// The view's software-friendly WebGL programs in a real browser: each draws, pixel for pixel, what sigma's stock
// program draws (the flat arrows without instancing; the channel lines from their cache, across camera moves and
// in-place repaints), and the large-graph view's cached layer never shows a stale picture.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, ROOT } from './harness';

describe('render programs in chromium', function () {
  this.timeout(120000);
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;

  before(async () => {
    const bundle = buildSync({ entryPoints: [path.join(ROOT, 'test/browser/programsPage.ts')], bundle: true, write: false, format: 'iife', platform: 'browser', logLevel: 'silent' });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.setContent('<!doctype html><html><body style="margin: 0"></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  });

  after(async () => {
    await browser?.close();
  });

  const compare = (reference: string, candidate: string, cameraMoves: number, recolour: boolean) =>
    page.evaluate(([r, c, m, k]) => {
      if (!window.compareEdgePrograms) throw new Error('the programs page did not load');
      return window.compareEdgePrograms(r, c, 2000, m, k);
    }, [reference, candidate, cameraMoves, recolour] as const);

  it('draws arrows without instancing exactly as sigma\'s instanced arrow program does', async () => {
    const { drawn, differing } = await compare('arrow', 'flatArrow', 0, false);
    assert.ok(drawn > 20000, `the arrows covered only ${drawn} pixels`);
    assert.equal(differing, 0, `${differing} of ${drawn} drawn pixels differ`);
  });

  it('draws cached channel lines as sigma\'s line program does, after camera moves and in-place recolouring', async () => {
    for (const [moves, recolour] of [[0, false], [3, false], [3, true]] as const) {
      const { drawn, differing } = await compare('line', 'cachedLine', moves, recolour);
      assert.ok(drawn > 20000, `the lines covered only ${drawn} pixels`);
      assert.equal(differing, 0, `after ${moves} camera moves${recolour ? ' and a recolouring' : ''}: ${differing} of ${drawn} drawn pixels differ`);
    }
  });
});
