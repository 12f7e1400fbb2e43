// Regenerates docs/images/graph-view.png (the README screenshot): examples/traces/random-12.jsonl in the webview page
// (dark theme), an infected agent selected. Run: npx tsx test/browser/readmeShot.ts (after npm run build).
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, payloadOf, ROOT, startServer } from './harness';

async function main(): Promise<void> {
  const trace = process.argv[2] ?? 'examples/traces/random-12.jsonl';
  const payload = await payloadOf(readFileSync(path.join(ROOT, trace), 'utf8'), trace);
  const server = await startServer();
  const browser = await launchBrowser({ width: 1500, height: 900 });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/webview.html?theme=vscode-dark`);
    await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    await page.evaluate((p) => window.postMessage({ type: 'analysis', generation: 1, payload: p }, '*'), payload);
    await page.waitForFunction(() => document.getElementById('app')?.dataset.state === 'ready');
    await page.evaluate(() => {
      const view = window.agentImmuneView;
      if (!view) return;
      const last = view.model.rounds - 1;
      const infected = view.model.category[last].findIndex((c) => c === 'infected');
      view.select(infected >= 0 ? infected : 0);
    });
    await page.waitForTimeout(400);
    mkdirSync(path.join(ROOT, 'docs', 'images'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'docs', 'images', 'graph-view.png') });
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
