// User story: watch a running multi-agent system. "Agent Immune: Watch Live Runs" starts the receiver; an instrumented
// star-topology run sends its spans with the real OTel exporter; the run appears in the Live Runs view, its graph opens
// with the live marker and shows the attackers first, then the agents they infect, as the rounds arrive; Stop Watching
// closes the port and the graph says the run is closed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { REPO } from '../../../scripts/vscode-test/paths';
import { crewProvider, emitCrewRun, hubRun } from '../../support/otlpRuns';
import { useWorkbench, waitForText, waitUntil } from '../workbench';
import { freePort, listening } from '../../support/ports';

/** examples/traces/star-8.jsonl as the spans of a hub invoking its spokes: a0 and a1 attack, a2, a4 and a7 get infected. */
const STAR = hubRun(fs.readFileSync(path.join(REPO, 'examples', 'traces', 'star-8.jsonl'), 'utf8'));
/** Span end offset of the spokes' second round: the first answers made after reading the hub's injection. */
const FIRST_INFECTED_OFFSET = 6;

describe('Watch Live Runs', () => {
  let port = 0;
  before(async () => {
    port = await freePort();
  });
  const workbench = useWorkbench((folder) => {
    fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'agentImmune.live.port': port }));
  });

  it('shows a running star run\'s attackers, then the agents they infect, round by round', async () => {
    const wb = workbench();
    const { page } = wb;
    await wb.runCommand('Agent Immune: Watch Live Runs');
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Live Runs' }) });
    await waitForText(pane, new RegExp(`Receiving OTLP spans at http://127\\.0\\.0\\.1:${port}/v1/traces\\. No run yet`), 60_000);
    await waitUntil(`the receiver on port ${port}`, () => listening(port), 30_000);

    // The agents run: spans go out as invocations end, held before the spokes' second answers until the test has seen
    // the first rounds, then one hub round about every 1.2 s.
    let release!: () => void;
    const firstRoundsSeen = new Promise<void>((resolve) => (release = resolve));
    const provider = crewProvider(new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }), { scheduledDelayMillis: 20 }));
    const sending = emitCrewRun(provider.getTracer('star'), STAR, 'star-8', Date.UTC(2026, 0, 5, 9), async (offset) => {
      await provider.forceFlush();
      if (offset === FIRST_INFECTED_OFFSET) await firstRoundsSeen;
      if (offset >= FIRST_INFECTED_OFFSET) await new Promise((resolve) => setTimeout(resolve, 300));
    }).then(() => provider.shutdown());

    try {
      // The run appears in the view; clicking it opens its graph, marked live.
      const row = pane.locator('.monaco-list-row', { hasText: 'star-8' }).first();
      await row.waitFor({ timeout: 60_000 });
      await waitForText(row, /live · .* · 9 agents · [1-9]\d* rounds/, 60_000);
      // The row is re-rendered as its counts change each round, and a click that lands mid re-render opens nothing
      // (CI once waited 60 s on a selected row with no panel): click again until the panel's tab is there.
      const tab = page.locator('.tabs-container .tab', { hasText: 'Live run: star-8' });
      let clicked = 0;
      await waitUntil('the live run panel to open', async () => {
        if ((await tab.count()) > 0) return true;
        if (clicked++ % 25 === 0) await row.click();
        return false;
      }, 60_000);
      const view = await wb.webview('Live run: star-8');
      await waitForText(view.locator('.toolbar .live'), /● Live/, 60_000);
      const counts = view.locator('.scrubber .round-counts');
      // First rounds: the attackers only.
      assert.match(await waitForText(counts, /▲ [12]\s*◆ 0/, 60_000), /◆ 0/);
      release();

      // The hub's injection reaches the spokes: three of them turn infected while the slider follows the latest round.
      await waitForText(counts, /▲ 2\s*◆ 3/, 90_000);
      assert.strictEqual(await view.locator('.toolbar .live').getAttribute('data-follow'), 'true');
      await waitForText(view.locator('#paths'), /a0\s*→\s*◆?\s*a2/, 30_000);
      await sending;
      await waitForText(row, /live · ▲ 2 ◆ 3 · 9 agents/, 60_000);
      await waitForText(view.locator('.scrubber .readout'), /Round (\d+) \/ \1$/, 60_000);
      // The picture for the docs: the folder's file tree folded away, so the Live Runs view shows the run and its agents.
      await page.locator('.explorer-viewlet .pane-header').first().click();
      await waitForText(pane, /a7\s*infected/, 30_000);
      await page.waitForTimeout(500);
      const shot = await wb.screenshot('e2e-watch-live-runs-infected');
      assert.ok(shot, 'a screenshot of the live graph');

      // Stop Watching closes the port; the graph keeps the run, marked closed.
      await wb.runCommand('Agent Immune: Stop Watching Live Runs');
      await waitUntil('the port to close', async () => !(await listening(port)), 30_000);
      await waitForText(view.locator('.toolbar .live'), /Run closed/, 30_000);
      await waitForText(pane, /Watch a multi-agent system while it runs/, 30_000);
      await waitUntil('the run written out', () => fs.existsSync(wb.file('.agent-immune/live/star-8.jsonl')), 30_000);
    } finally {
      release();
      await sending.catch(() => undefined);
    }
  });
});
