// User story: a trace written by an attacker (markup and script in agent ids and messages) opens in the graph panel
// as inert text: nothing runs, nothing is injected, the payloads read verbatim.
import * as assert from 'assert';
import { useWorkbench, waitForText } from '../workbench';

/** The agent id and payloads of test/fixtures/workspace/traces/hostile.jsonl. */
const HOSTILE_ID = '<img src=x onerror=window.__pwned="id">';
const PAYLOADS = ['<script>window.__pwned="script"</script>', `<img src=x onerror="window.__pwned='img'">`, `<a href="javascript:window.__pwned='link'">click me</a>`];

describe('A hostile trace in the graph panel', () => {
  const workbench = useWorkbench();

  it('shows markup in agent ids and messages as text and runs none of it', async () => {
    const wb = workbench();
    await wb.openFile('traces/hostile.jsonl');
    await wb.runCommand('Agent Immune: Analyze Trace');
    const view = await wb.webview('Infection graph: hostile.jsonl');

    // The hostile id is the one source, listed as text.
    const sources = view.locator('#sources');
    await waitForText(sources, /onerror/, 60_000);
    assert.ok((await sources.innerText()).includes(HOSTILE_ID), await sources.innerText());
    // Open it: its output shows the payloads verbatim.
    await sources.locator('.list-item').first().click();
    const output = view.locator('.details pre.output').first();
    await waitForText(output, /__pwned/);
    const text = await output.innerText();
    for (const payload of PAYLOADS) assert.ok(text.includes(payload), `payload shown verbatim: ${payload}`);

    const dom = await view.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned,
      injected: document.querySelectorAll('#app img, #app a[href^="javascript"], #app iframe, #app [onerror], #app [onload]').length,
      scripts: Array.from(document.querySelectorAll('script')).filter((s) => s.textContent?.includes('__pwned')).length,
    }));
    assert.deepStrictEqual(dom, { pwned: undefined, injected: 0, scripts: 0 });
    // The workbench itself ran nothing either.
    assert.strictEqual(await wb.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
  });
});
