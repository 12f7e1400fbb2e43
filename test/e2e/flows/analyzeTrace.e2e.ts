// User story: open a recorded run, run "Agent Immune: Analyze Trace" from the Command Palette, see who attacked whom in
// the infection-graph panel, and replay the run with the round slider; in a file that holds several runs, choose
// another run from the notification and see its graph; a run in another language is said to be beyond what it reads.
import * as assert from 'assert';
import { useWorkbench, waitForText, type Workbench } from '../workbench';

/** Opens `traces/<name>`, runs Analyze Trace from the Command Palette and returns its graph panel. */
async function analyzeOpenTrace(wb: Workbench, name: string) {
  await wb.openFile(`traces/${name}`);
  await wb.runCommand('Agent Immune: Analyze Trace');
  return wb.webview(`Infection graph: ${name}`);
}

describe('Analyze Trace from the Command Palette', () => {
  const workbench = useWorkbench();

  it('opens the infection graph of the open trace and replays it round by round', async () => {
    const wb = workbench();
    const view = await analyzeOpenTrace(wb, 'small-attack.jsonl');

    // The classified graph: 4 agents and 6 edges drawn, m the one source, m -> a1 the one infection path.
    const app = view.locator('[data-agents]');
    await waitForText(view.locator('#sources'), /\bm\b/, 60_000);
    assert.strictEqual(await app.getAttribute('data-agents'), '4');
    assert.strictEqual(await app.getAttribute('data-edges'), '6');
    assert.strictEqual(await view.locator('#sources').getAttribute('data-count'), '1');
    await waitForText(view.locator('#paths'), /m\s*→\s*◆?\s*a1/);

    // Last round: 1 attacker, 1 infected. Round 0: a1 is still benign.
    const counts = view.locator('.scrubber .round-counts');
    await waitForText(view.locator('.scrubber .readout'), /Round 2 \/ 2/);
    assert.match(await counts.innerText(), /▲ 1\s*◆ 1\s*● 2/);
    const slider = view.locator('#round-slider');
    await slider.focus();
    await wb.page.keyboard.press('Home');
    await waitForText(view.locator('.scrubber .readout'), /Round 0 \/ 2/);
    assert.strictEqual(await app.getAttribute('data-round'), '0');
    assert.match(await counts.innerText(), /▲ 1\s*◆ 0\s*● 3/);
    await wb.page.keyboard.press('End');
    await waitForText(view.locator('.scrubber .readout'), /Round 2 \/ 2/);
  });

  it('says in a notification when the agents write a language the guard does not read', async () => {
    const wb = workbench();
    await analyzeOpenTrace(wb, 'vietnamese-debate.jsonl');
    const toast = wb.page.locator('.notification-toast', { hasText: 'do not read as English' });
    await toast.waitFor({ timeout: 60_000 });
    assert.match(await toast.innerText(), /Agent Immune: traces\/vietnamese-debate\.jsonl: the agents' outputs do not read as English/);
  });

  it('offers the other runs of a file that holds several, and graphs the one chosen', async () => {
    const wb = workbench();
    await analyzeOpenTrace(wb, 'otel-genai-export.json');

    const toast = wb.page.locator('.notification-toast', { hasText: 'holds several runs' });
    await toast.locator('.monaco-button', { hasText: 'Choose Run' }).click({ timeout: 60_000 });
    const quickInput = wb.page.locator('.quick-input-widget');
    await quickInput.locator('.monaco-list-row', { hasText: 'conv-b' }).waitFor({ timeout: 30_000 });
    await quickInput.locator('input').fill('conv-b');
    await quickInput.locator('.monaco-list-row.focused', { hasText: 'conv-b' }).waitFor({ timeout: 5000 });
    await wb.page.keyboard.press('Enter');

    const view = await wb.webview('Infection graph: otel-genai-export.json (conv-b)');
    await waitForText(view.locator('.scrubber .readout'), /Round \d+ \/ \d+/, 60_000);
    assert.ok(Number(await view.locator('[data-agents]').getAttribute('data-agents')) > 0);
  });
});
