// The infection-graph view in a real browser (Debian chromium via playwright-core): what is drawn (counts, colours,
// glyph centres), the side panel, the scrubber, search, list hover, state restore, the message protocol and the XSS
// table. Screenshots land in test-output/browser/.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, OUTPUT_DIR, payloadOf, pinnedSmallPayload, ROOT, startServer, type PageServer } from './harness';
import { synthTrace } from './synth';
import { runTitle } from '../../src/core/graphview/payload';

const COLOURS = { attacker: [0xd5, 0x5e, 0x00], infected: [0xe6, 0x9f, 0x00], benign: [0x56, 0xb4, 0xe9] } as const;

/** The colour drawn at the centre of an agent's glyph, read back from the composited canvas. */
async function colourAt(page: Page, id: string): Promise<[number, number, number]> {
  return page.evaluate(async (agent) => {
    const view = window.agentImmuneView;
    if (!view) throw new Error('no view');
    const sigma = view.renderer.sigma;
    const data = sigma.getNodeDisplayData(String(view.model.index.get(agent)));
    if (!data) throw new Error(`no node ${agent}`);
    const point = sigma.framedGraphToViewport(data);
    const image = new Image();
    image.src = view.renderer.toPng();
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(image, 0, 0);
    const ratio = image.width / sigma.getContainer().clientWidth;
    const pixel = context.getImageData(Math.round(point.x * ratio), Math.round(point.y * ratio), 1, 1).data;
    return [pixel[0], pixel[1], pixel[2]] as [number, number, number];
  }, id);
}

function assertColour(actual: [number, number, number], expected: readonly number[], what: string): void {
  const distance = Math.max(...actual.map((v, i) => Math.abs(v - expected[i])));
  assert.ok(distance <= 24, `${what}: drew rgb(${actual.join(',')}), expected about rgb(${expected.join(',')})`);
}

/**
 * Steps through rounds (each must differ from the one before, the view's opening round first) and reports for each
 * the path arrows shown, the path channels active, and how many pixels of the in-place repaint differ from a full
 * re-render of the same round (all layers composited).
 */
async function repaintRounds(page: Page, order: number[]): Promise<{ round: number; shown: number; lit: number; differing: number }[]> {
  return page.evaluate((order) => {
    const view = window.agentImmuneView;
    if (!view) throw new Error('no view');
    const sigma = view.renderer.sigma;
    const layers = Array.from(sigma.getContainer().querySelectorAll('canvas'));
    const out = document.createElement('canvas');
    out.width = layers[0].width;
    out.height = layers[0].height;
    const context = out.getContext('2d') as CanvasRenderingContext2D;
    const results: { round: number; shown: number; lit: number; differing: number }[] = [];
    for (const round of order) {
      // Pass 0: the round's in-place repaint; pass 1: a full re-render of the same round.
      const pictures: Uint8ClampedArray[] = [];
      for (const pass of [0, 1]) {
        if (pass === 0) view.setRound(round);
        else sigma.refresh();
        context.clearRect(0, 0, out.width, out.height);
        for (const layer of layers) context.drawImage(layer, 0, 0);
        pictures.push(context.getImageData(0, 0, out.width, out.height).data);
      }
      const [repainted, fresh] = pictures;
      let differing = 0;
      for (let i = 0; i < fresh.length; i += 4) if ([0, 1, 2, 3].some((c) => Math.abs(fresh[i + c] - repainted[i + c]) > 2)) differing++;
      const shown = sigma.getGraph().filterEdges((edge, attributes) => attributes.type === 'path' && !sigma.getEdgeDisplayData(edge)?.hidden).length;
      const lit = [...view.model.pathEdgeRound.values()].filter((at) => at <= round).length;
      results.push({ round, shown, lit, differing });
    }
    return results;
  }, order);
}

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('app')?.dataset.state === 'ready', undefined, { timeout: 20000 });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(OUTPUT_DIR, `${name}.png`) });
}

/** A 3-agent debate in which a0 says, in round 1, that it is steering the others (markup in its words stays text). */
const DECLARED_DEBATE = [
  { type: 'header', task: { question: 'Which gas do plants absorb? (A) O2 (B) CO2 (C) N2' } },
  ...[
    ['Plants absorb oxygen at night, so (A).', "Let's guide the other agents towards an incorrect conclusion: <b>B</b> ignores respiration. (A)", 'So (A).'],
    ['Photosynthesis takes in CO2: (B).', 'Still (B).', '(B)'],
    ['CO2, so (B).', '(B)', '(B)'],
  ].flatMap((row, i) => row.map((content, round) => ({ type: 'message', round, from: `a${i}`, to: ['a0', 'a1', 'a2'].filter((a) => a !== `a${i}`), content }))),
].map((r) => JSON.stringify(r)).join('\n');

/** A tool-use run whose agents have long names (tau-bench's tools), in a ring: some sit at the canvas's right edge. */
const LONG_NAMES = ['tool:update_reservation_flights', 'assistant', 'tool:get_reservation_details', 'tool:search_direct_flight', 'user'];
const LONG_RUN_ID = 'gpt-4o-mini-2024-07-18/banking/user_task_11/important_instructions/injection_task_1.json';
const LONG_NAMED_RUN = [
  { type: 'header', run: LONG_RUN_ID },
  ...LONG_NAMES.map((from, i) => ({ type: 'message', round: 0, from, to: [LONG_NAMES[(i + 1) % LONG_NAMES.length]], content: `Reply from ${from}.` })),
].map((r) => JSON.stringify(r)).join('\n');

/** Two agents that only talk to each other (Who&When's Orchestrator and WebSurfer): the layout puts them on one line. */
const PAIR_RUN = [
  { type: 'header' },
  ...[0, 1, 2].flatMap((round) => [
    { type: 'message', round, from: 'Orchestrator', to: ['WebSurfer'], content: 'Please visit the website and check the prices.' },
    { type: 'message', round, from: 'WebSurfer', to: ['Orchestrator'], content: 'I clicked the page; here is what it shows.' },
  ]),
].map((r) => JSON.stringify(r)).join('\n');

/** Clicks an agent's glyph. */
async function clickAgent(page: Page, id: string): Promise<void> {
  const point = await page.evaluate((agent) => {
    const sigma = window.agentImmuneView?.renderer.sigma;
    const data = sigma?.getNodeDisplayData(String(window.agentImmuneView?.model.index.get(agent)));
    const box = sigma?.getContainer().getBoundingClientRect();
    if (!sigma || !data || !box) throw new Error(`no agent ${agent}`);
    const p = sigma.framedGraphToViewport(data);
    return { x: box.left + p.x, y: box.top + p.y };
  }, id);
  await page.mouse.click(point.x, point.y);
}

describe('infection graph view in chromium', function () {
  this.timeout(120000);
  let server: PageServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    server = await startServer();
    server.addReport('small', await pinnedSmallPayload());
    server.addReport('synthetic', await payloadOf(synthTrace({ agents: 24, rounds: 4, attackers: 2, seed: 3 }), 'synthetic-24.jsonl'));
    server.addReport('large', await payloadOf(synthTrace({ agents: 600, rounds: 4, attackers: 6, seed: 7 }), 'synthetic-600.jsonl'));
    server.addReport('declared', await payloadOf(DECLARED_DEBATE, 'declared.jsonl'));
    server.addReport('pair', await payloadOf(PAIR_RUN, 'pair.jsonl'));
    server.addReport('long-names', await payloadOf(LONG_NAMED_RUN, runTitle('../shared/data/real/agentdojo/gpt-4o-mini-2024-07-18.banking.jsonl', LONG_RUN_ID)));
    server.addReport('vietnamese', await payloadOf(readFileSync(path.join(ROOT, 'test/fixtures/workspace/traces/vietnamese-debate.jsonl'), 'utf8'), 'vietnamese-debate.jsonl'));
    browser = await launchBrowser();
  });

  beforeEach(async () => {
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page.close();
    assert.deepEqual(pageErrors.splice(0), [], 'the page threw');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws every agent and edge of the report, coloured and shaped by category', async () => {
    await page.goto(`${server.url}/report/small.html`);
    await ready(page);
    const app = page.locator('#app');
    assert.equal(await app.getAttribute('data-agents'), '6');
    assert.equal(await app.getAttribute('data-edges'), '8');
    // The marks DevTools and the benchmark read: drawn, then the first frame showing it, in that order.
    await page.waitForFunction(() => performance.getEntriesByName('agent-immune:first-frame').length === 1, undefined, { timeout: 5000 });
    const marks = await page.evaluate(() => ['agent-immune:ready', 'agent-immune:first-frame'].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? -1));
    assert.ok(marks[0] > 0 && marks[1] >= marks[0], `marks ${marks}`);
    assert.equal(await page.locator('.summary [data-count="attacker"]').textContent(), '▲ 1 attacker');
    assert.equal(await page.locator('#sources').getAttribute('data-count'), '1');
    assert.ok(Number(await page.locator('#paths').getAttribute('data-count')) >= 2);
    const finals = await page.evaluate(() => window.agentImmuneView?.model.payload.analysis.agents.map((a) => [a.id, a.category] as [string, string]) ?? []);
    for (const [id, category] of finals) assertColour(await colourAt(page, id), COLOURS[category as keyof typeof COLOURS], `${id} (${category})`);
    const shapes = await page.evaluate(() =>
      window.agentImmuneView?.model.ids.map((_, i) => (window.agentImmuneView?.renderer.sigma.getNodeDisplayData(String(i)) as unknown as { shape: number }).shape),
    );
    assert.deepEqual(shapes, finals.map(([, c]) => ({ benign: 0, infected: 1, attacker: 2 })[c]));
    await shot(page, 'report-small');
  });

  it('replays the run with the round scrubber and the play button', async () => {
    await page.goto(`${server.url}/report/small.html`);
    await ready(page);
    // A round change repaints in place; it must draw what a full render draws (every edge is an arrow here, clamped at
    // glyphs a round resizes).
    for (const { round, differing } of await repaintRounds(page, [0, 1, 2])) assert.equal(differing, 0, `round ${round}: the in-place repaint differs from a full render in ${differing} pixels`);
    const infectedAt = await page.evaluate(() => {
      const view = window.agentImmuneView;
      if (!view) return -1;
      return view.model.ids.findIndex((_, i) => view.model.firstFlagged[i] > 0 && Number.isFinite(view.model.firstFlagged[i]));
    });
    assert.ok(infectedAt >= 0, 'the fixture has an agent infected after round 0');
    const id = await page.evaluate((i) => window.agentImmuneView?.model.ids[i] ?? '', infectedAt);
    await page.locator('#round-slider').fill('0');
    assert.equal(await page.locator('#app').getAttribute('data-round'), '0');
    assert.equal(await page.locator('.scrubber .readout').textContent(), 'Round 0 / 2');
    assertColour(await colourAt(page, id), COLOURS.benign, `${id} in round 0`);
    const lit0 = await page.evaluate(() => window.agentImmuneView?.renderer.sigma.getGraph().edges().filter((e) => window.agentImmuneView?.renderer.sigma.getEdgeDisplayData(e)?.color === '#D55E00').length);
    await shot(page, 'scrubber-round-0');
    // Sources, paths and the plan are the run's as of its last round: at an earlier round their titles say so.
    await page.waitForFunction(() => document.querySelector('#paths h2')?.textContent?.startsWith('Infection paths (as of round 2) '));
    assert.match(await page.locator('#sources h2').innerText(), /^Sources \(as of round 2\)/);
    await page.locator('#round-slider').fill('2');
    await page.waitForFunction(() => /^Infection paths \d/.test(document.querySelector('#paths h2')?.textContent ?? ''));
    assert.notEqual(await colourAt(page, id), COLOURS.benign);
    const lit2 = await page.evaluate(() => window.agentImmuneView?.renderer.sigma.getGraph().edges().filter((e) => window.agentImmuneView?.renderer.sigma.getEdgeDisplayData(e)?.color === '#D55E00').length);
    assert.ok((lit2 ?? 0) > (lit0 ?? 0), `more infection-path edges lit in round 2 (${lit2}) than in round 0 (${lit0})`);
    await page.locator('#round-slider').fill('0');
    await page.locator('button.play').click();
    await page.waitForFunction(() => document.getElementById('app')?.dataset.round === '2', undefined, { timeout: 5000 });
    // The side panel follows the round once playback stops on it (not necessarily on every step).
    await page.waitForSelector('.details[data-round="2"]', { timeout: 5000 });
  });

  it('draws a large run\'s channels as lines, with arrows over the infection paths lit in the round, and repaints a round exactly', async () => {
    await page.goto(`${server.url}/report/large.html`);
    await ready(page);
    const channels = await page.evaluate(() => new Set(window.agentImmuneView?.model.payload.analysis.edges.filter(([a, b]) => a !== b).map(([a, b]) => `${a}>${b}`)).size);
    assert.equal(await page.locator('#app').getAttribute('data-edges'), String(channels));
    const rounds = await repaintRounds(page, [0, 2, 3]);
    for (const { round, shown, lit, differing } of rounds) {
      assert.equal(shown, lit, `round ${round}: ${shown} arrows shown for ${lit} active infection-path channels`);
      assert.equal(differing, 0, `round ${round}: the in-place repaint differs from a full render in ${differing} pixels`);
    }
    assert.ok(rounds[2].shown > rounds[0].shown, 'more infection paths are lit in the last round than in round 0');
    // The hover layers are off screen until an agent is hovered (each shown layer costs every frame), then show its label.
    const hoverLayer = page.locator('canvas.sigma-hovers');
    assert.equal(await hoverLayer.isVisible(), false);
    const at = await page.evaluate(() => {
      const sigma = window.agentImmuneView?.renderer.sigma;
      const id = window.agentImmuneView?.model.payload.analysis.sources[0];
      const data = id ? sigma?.getNodeDisplayData(String(window.agentImmuneView?.model.index.get(id))) : undefined;
      if (!sigma || !data) throw new Error('no source agent drawn');
      const point = sigma.framedGraphToViewport(data);
      const box = sigma.getContainer().getBoundingClientRect();
      return { x: box.left + point.x, y: box.top + point.y };
    });
    await page.mouse.move(at.x, at.y);
    await hoverLayer.waitFor({ state: 'visible', timeout: 5000 });
    await shot(page, 'report-large-hover');
    await page.mouse.move(2, 2);
    await hoverLayer.waitFor({ state: 'hidden', timeout: 5000 });
    await shot(page, 'report-large');
  });

  it('draws every agent\'s label whole inside the canvas, left of an agent at the right edge (was cut: "tool:update_reservatio")', async () => {
    await page.goto(`${server.url}/report/long-names.html`);
    await ready(page);
    const drawn = await page.evaluate(() => {
      const sigma = window.agentImmuneView?.renderer.sigma;
      if (!sigma) throw new Error('no view');
      const labels: { text: string; left: number; right: number; width: number }[] = [];
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number) {
        if (this.canvas.classList.contains('sigma-labels')) labels.push({ text, left: x, right: x + this.measureText(text).width, width: this.canvas.clientWidth });
        fillText.call(this, text, x, y);
      };
      sigma.refresh();
      CanvasRenderingContext2D.prototype.fillText = fillText;
      return labels;
    });
    assert.deepEqual(drawn.map((l) => l.text).sort(), [...LONG_NAMES].sort(), 'every agent is labelled');
    for (const label of drawn) assert.ok(label.left >= 0 && label.right <= label.width, `"${label.text}" drawn from ${label.left.toFixed(0)} to ${label.right.toFixed(0)} px on a ${label.width} px canvas`);
    // A long run id keeps the tail that tells a file's runs apart in the header (was cut to "— run gpt-4o…"), and the
    // summary gives it whole.
    assert.match((await page.locator('.trace-name').textContent()) ?? '', /…_11\/important_instructions\/injection_task_1\.json$/);
    assert.equal(await page.locator('.summary dt:text-is("Run id") + dd').textContent(), LONG_RUN_ID);
    await shot(page, 'long-names');
  });

  it('draws no label across a channel (was: both labels of a two-agent run drawn on the line between them)', async () => {
    // Sparse runs, where every label has a free side (in a dense one other agents' channels may cross any side).
    for (const report of ['pair', 'long-names']) {
      await page.goto(`${server.url}/report/${report}.html`);
      await ready(page);
      const crossings = await page.evaluate(() => {
        const view = window.agentImmuneView;
        const sigma = view?.renderer.sigma;
        if (!view || !sigma) throw new Error('no view');
        const boxes: { text: string; left: number; top: number; right: number; bottom: number }[] = [];
        const fillText = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number) {
          const m = this.measureText(text);
          if (this.canvas.classList.contains('sigma-labels')) boxes.push({ text, left: x, right: x + m.width, top: y - m.actualBoundingBoxAscent, bottom: y + m.actualBoundingBoxDescent });
          fillText.call(this, text, x, y);
        };
        sigma.refresh();
        CanvasRenderingContext2D.prototype.fillText = fillText;
        // Each channel sampled every pixel against each label's box (the boxes are text-high). No named helper: the
        // test runner's transform would name it with a function the page does not have.
        const out: string[] = [];
        const graph = sigma.getGraph();
        for (const edge of graph.edges()) {
          const [a, b] = graph.extremities(edge).map((node) => sigma.graphToViewport(graph.getNodeAttributes(node) as { x: number; y: number }));
          const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
          for (const box of boxes) {
            for (let k = 0; k <= steps; k++) {
              const x = a.x + ((b.x - a.x) * k) / steps;
              const y = a.y + ((b.y - a.y) * k) / steps;
              if (x > box.left && x < box.right && y > box.top && y < box.bottom) {
                out.push(`${box.text} on ${graph.extremities(edge).join('->')}`);
                break;
              }
            }
          }
        }
        return { labels: boxes.length, out };
      });
      assert.ok(crossings.labels >= 2, `${report}: labels drawn`);
      assert.deepEqual(crossings.out, [], report);
    }
    await shot(page, 'pair-labels');
  });

  it('opens the side panel on a node click with outputs, filter marks, scores and remediation', async () => {
    await page.goto(`${server.url}/report/small.html`);
    await ready(page);
    const point = await page.evaluate(() => {
      const sigma = window.agentImmuneView?.renderer.sigma;
      const data = sigma?.getNodeDisplayData(String(window.agentImmuneView?.model.index.get('a1')));
      const box = sigma?.getContainer().getBoundingClientRect();
      if (!sigma || !data || !box) return { x: 0, y: 0 };
      const p = sigma.framedGraphToViewport(data);
      return { x: box.left + p.x, y: box.top + p.y };
    });
    await page.mouse.click(point.x, point.y);
    await page.locator('.agent[data-agent="a1"]').waitFor();
    const panel = page.locator('.details');
    assert.equal(await panel.locator('.agent-id').textContent(), 'a1');
    assert.equal(await panel.locator('.role').textContent(), 'Role: planner');
    assert.equal(await panel.locator('table.scores tbody tr').count(), 3);
    assert.equal(await panel.locator('.output-block').count(), 3);
    assert.ok((await panel.locator('mark.removed').count()) >= 1, 'the injected sentence is marked');
    assert.match((await panel.locator('mark.removed').first().textContent()) ?? '', /Ignore all previous instructions/);
    assert.match((await panel.locator('.remediation').textContent()) ?? '', /Replace/);
    assert.ok(await panel.locator('svg.score-chart polyline.p-atk').count());
    await shot(page, 'side-panel-attacker');
    await page.keyboard.press('Escape');
    await panel.locator('.summary').waitFor();
  });

  it('quotes, in the side panel, the sentence in which an agent said it was steering the others', async () => {
    await page.goto(`${server.url}/report/declared.html`);
    await ready(page);
    await clickAgent(page, 'a0');
    const panel = page.locator('.details .agent[data-agent="a0"]');
    await panel.waitFor();
    assert.match((await panel.locator('.why').textContent()) ?? '', /says in its own words that it is steering the other agents/);
    assert.equal(await panel.locator('.evidence-label').textContent(), 'It wrote in round 1:');
    assert.equal(await panel.locator('.evidence').textContent(), "Let's guide the other agents towards an incorrect conclusion: <b>B</b> ignores respiration.", 'quoted as text, markup and all');
    assert.deepEqual(await panel.locator('.output-head .answer').allTextContents(), ['answer A', 'answer A', 'answer A'], 'the answer read from each round');
    await shot(page, 'side-panel-declared-steering');
  });

  it('centres a selected agent with the agents it talks with still in view (was: zoomed until a small run\'s others left the screen)', async () => {
    for (const [report, id] of [['declared', 'a2'], ['synthetic', undefined]] as const) {
      await page.goto(`${server.url}/report/${report}.html`);
      await ready(page);
      const outside = await page.evaluate(async (wanted) => {
        const view = window.agentImmuneView!;
        const sigma = view.renderer.sigma;
        const graph = sigma.getGraph();
        const index = wanted === undefined ? view.model.ids.findIndex((_, i) => graph.neighbors(String(i)).length > 0) : view.model.ids.indexOf(wanted);
        view.select(index, true);
        await new Promise((resolve) => setTimeout(resolve, 600));
        const { width, height } = sigma.getDimensions();
        return graph.neighbors(String(index)).filter((n) => {
          const at = sigma.framedGraphToViewport(sigma.getNodeDisplayData(n)!);
          return at.x < 0 || at.y < 0 || at.x > width || at.y > height;
        });
      }, id);
      assert.deepEqual(outside, [], `${report}: neighbours off screen`);
    }
    await shot(page, 'focus-keeps-neighbours');
  });

  it('lists a run-wide warning by its words alone (no "line 0")', async () => {
    await page.goto(`${server.url}/report/vietnamese.html`);
    await ready(page);
    const items = await page.locator('ul.warnings li').allInnerTexts();
    assert.equal(items.length, 1);
    assert.match(items[0], /^the agents' outputs do not read as English/);
  });

  it('searches and filters by id and category, and highlights list items on hover', async () => {
    await page.goto(`${server.url}/report/synthetic.html`);
    await ready(page);
    await page.locator('input.search').fill('agent-1');
    assert.equal(await page.locator('.match-count').textContent(), '10 of 24');
    await page.locator('input.search').fill('');
    await page.locator('select.category').selectOption('attacker');
    const attackers = await page.locator('#matches').getAttribute('data-count');
    assert.equal(attackers, await page.evaluate(() => String(window.agentImmuneView?.model.category.at(-1)?.filter((c) => c === 'attacker').length)));
    // The category filter follows the round, in one repaint per step.
    const step = await page.evaluate(() => {
      const view = window.agentImmuneView;
      if (!view) throw new Error('no view');
      let renders = 0;
      view.renderer.sigma.on('afterRender', () => renders++);
      view.setRound(0);
      return { renders, count: document.querySelector('.match-count')?.textContent, expected: view.model.category[0].filter((c) => c === 'attacker').length };
    });
    assert.equal(step.count, `${step.expected} of 24`);
    assert.equal(step.renders, 1, 'one repaint for the round and its category filter');
    await page.locator('select.category').selectOption('all');
    await page.goto(`${server.url}/report/small.html`);
    await ready(page);
    await page.locator('#paths .list-item').last().hover();
    const emphasised = await page.evaluate(() => {
      const sigma = window.agentImmuneView?.renderer.sigma;
      // No named function in here: tsx names it with a __name helper the page does not have.
      return sigma?.getGraph().nodes().filter((n) => {
        const shown = sigma.getNodeDisplayData(n) as unknown as { ringColor: string; color: string };
        return shown.ringColor !== shown.color;
      }).length;
    });
    assert.equal(emphasised, 3, 'the three agents of the hovered path a1 -> a2 -> a3 stand out');
    await shot(page, 'path-hover');
    await page.mouse.move(5, 5);
  });

  it('speaks the typed protocol in webview mode and restores its state', async () => {
    const payload = await pinnedSmallPayload();
    await page.goto(`${server.url}/webview.html?theme=vscode-light`);
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
    // Malformed messages are ignored; the page keeps waiting.
    await page.evaluate(() => {
      window.postMessage({ type: 'analysis', generation: 1, payload: { schema: 'agent-immune/graph-view/v1' } }, '*');
      window.postMessage({ type: 'eval', code: 'window.__pwned = 1' }, '*');
    });
    await page.waitForTimeout(100);
    assert.equal(await page.locator('#app').getAttribute('data-state'), 'waiting');
    await page.evaluate((p) => window.postMessage({ type: 'analysis', generation: 1, payload: p }, '*'), payload);
    await ready(page);
    await page.locator('#round-slider').fill('1');
    await page.locator('#remediation .list-item').first().click();
    await page.locator('.output-head button.link').first().click();
    await page.locator('button[data-action="save-png"]').click();
    const posted = await page.evaluate(() => (window as unknown as { __posted: { type: string; line?: number; dataUrl?: string }[] }).__posted);
    const line = posted.find((m) => m.type === 'openLine');
    assert.ok(line && Number.isInteger(line.line) && (line.line ?? 0) >= 2);
    assert.match(posted.find((m) => m.type === 'savePng')?.dataUrl ?? '', /^data:image\/png;base64,/);
    const state = await page.evaluate(() => (window as unknown as { __state: { round: number; selected: string } }).__state);
    assert.equal(state.round, 1);
    assert.equal(state.selected, 'a1');
    await shot(page, 'webview-light');
    // A hidden-then-shown panel reloads the page with the saved state: it comes back where it was.
    await page.goto(`${server.url}/webview.html?theme=vscode-dark&state=${encodeURIComponent(JSON.stringify(state))}`);
    await page.evaluate((p) => window.postMessage({ type: 'analysis', generation: 1, payload: p }, '*'), payload);
    await ready(page);
    assert.equal(await page.locator('.scrubber .readout').textContent(), 'Round 1 / 2');
    assert.equal(await page.locator('.agent-id').textContent(), 'a1');
    await page.evaluate(() => window.postMessage({ type: 'status', state: 'analysing' }, '*'));
    assert.equal(await page.locator('.status').getAttribute('data-state'), 'analysing');
    await shot(page, 'webview-dark-restored');
  });

  it('marks a live run and follows its new rounds until the user moves the slider back, then offers the latest', async () => {
    const star = readFileSync(path.join(ROOT, 'examples/traces/star-8.jsonl'), 'utf8').trim().split('\n');
    /** The view payload after rounds 0..k-1, as Watch Live Runs sends it while the run grows. */
    const after = async (k: number, state: 'open' | 'closed') => ({ ...(await payloadOf(star.filter((line) => !line.includes('"round":') || (JSON.parse(line) as { round: number }).round < k).join('\n'), 'star-8')), live: { state } });
    await page.goto(`${server.url}/webview.html?theme=vscode-dark`);
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
    let generation = 0;
    const send = async (k: number, state: 'open' | 'closed') => {
      const payload = await after(k, state);
      await page.evaluate(([p, g]) => window.postMessage({ type: 'analysis', generation: g, payload: p }, '*'), [payload, ++generation] as const);
      await page.waitForFunction((g) => document.querySelector('.scrubber .readout')?.textContent?.endsWith(`/ ${g}`), k - 1);
    };
    const readout = page.locator('.scrubber .readout');
    const badge = page.locator('.toolbar .live');

    await send(1, 'open');
    assert.equal(await readout.textContent(), 'Round 0 / 0');
    assert.equal(await badge.textContent(), '● Live');
    await send(2, 'open');
    assert.equal(await readout.textContent(), 'Round 1 / 1', 'the view moved to the new round');
    assert.match(await page.locator('.scrubber .round-counts').innerText(), /▲ 2\s*◆ 3/, 'the infected agents appear in round 1');

    // The user goes back to round 0: new rounds no longer move the view, and the marker offers the latest.
    await page.locator('#round-slider').fill('0');
    await send(3, 'open');
    assert.equal(await readout.textContent(), 'Round 0 / 2');
    assert.equal(await badge.textContent(), '● Live · go to round 2');
    await badge.click();
    assert.equal(await readout.textContent(), 'Round 2 / 2');
    assert.equal(await badge.getAttribute('data-follow'), 'true');
    await send(4, 'closed');
    assert.equal(await readout.textContent(), 'Round 3 / 3');
    assert.equal(await badge.textContent(), 'Run closed');
    await shot(page, 'live-closed');
  });

  it('opens the report `agent-immune analyze <example> --html` writes, straight from disk, with the classified graph', async () => {
    const examples = readdirSync(path.join(ROOT, 'examples/traces')).filter((f) => f.endsWith('.jsonl'));
    assert.ok(examples.length > 0, 'examples/traces holds sample traces');
    const example = examples[Math.floor(Math.random() * examples.length)];
    const out = path.join(OUTPUT_DIR, 'cli-report.html');
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'analyze', path.join('examples/traces', example), '--html', out, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.ok(cli.status === 0 || cli.status === 1, `exit ${cli.status}: ${cli.stderr}`);
    const analysis = JSON.parse(cli.stdout) as { agents: { id: string; category: keyof typeof COLOURS }[]; edges: unknown[] };
    await page.goto(pathToFileURL(out).href);
    await ready(page);
    assert.equal(await page.locator('#app').getAttribute('data-agents'), String(analysis.agents.length));
    for (const agent of analysis.agents) assertColour(await colourAt(page, agent.id), COLOURS[agent.category], `${example}: ${agent.id} (${agent.category})`);
    await shot(page, 'cli-report');
  });

  it('says so and draws nothing when a report\'s data is damaged', async () => {
    const cases: [string, string][] = [
      ['not-gzip', Buffer.from('plain text, not gzip').toString('base64')],
      ['truncated', gzipSync(JSON.stringify({ schema: 'agent-immune/graph-view/v1' })).subarray(0, 12).toString('base64')],
      ['not-a-payload', gzipSync(JSON.stringify({ schema: 'agent-immune/graph-view/v1', analysis: {} })).toString('base64')],
    ];
    for (const [name, data] of cases) {
      server.addEncodedReport(`damaged-${name}`, name, data);
      await page.goto(`${server.url}/report/damaged-${name}.html`);
      await page.waitForFunction(() => document.getElementById('app')?.dataset.state === 'error', undefined, { timeout: 10000 });
      assert.match((await page.locator('.fatal').textContent()) ?? '', /damaged|malformed/, name);
      assert.equal(await page.locator('canvas').count(), 0, `${name}: nothing drawn`);
    }
    await shot(page, 'damaged-report');
  });

  describe('XSS table: hostile trace text renders as inert text', () => {
    const payloads: [string, string][] = [
      ['script tag', '<script>window.__pwned = "script"</script>'],
      ['img onerror', '<img src=x onerror="window.__pwned = \'img\'">'],
      ['javascript: link', '<a href="javascript:window.__pwned=\'link\'" id="evil-link">click me</a>'],
      ['css injection', '</pre><style>body { display: none } * { background: url(/leak-css) }</style>'],
      ['svg onload', '<svg onload="window.__pwned = \'svg\'"></svg>'],
      ['bidi and zero-width', 'safe \u202Eevil\u202C text\u200B with \u2066isolate\u2069 and \u2028 line'],
    ];
    const hostileId = '<img src=/leak-id onerror=window.__pwned="id">';

    it('keeps every payload as text, runs nothing, fetches nothing, and survives a 10 MB message and agents named after object members', async () => {
      const huge = 'A'.repeat(10 * 1024 * 1024);
      // Agents named `__proto__`, `hasOwnProperty` and `constructor` broke the graph library (was: "internal error").
      const jsonl =
        synthTrace({ agents: 8, rounds: 2, attackers: 1, seed: 11, payloads: payloads.map(([, p]) => p), hostileIds: [hostileId, '__proto__', 'hasOwnProperty', 'constructor'] }) +
        JSON.stringify({ type: 'message', round: 0, from: 'big-talker', content: `${huge} <script>window.__pwned="huge"</script>` }) +
        '\n';
      server.addReport('xss', await payloadOf(jsonl, '<b>xss</b>.jsonl'));
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      const started = Date.now();
      await page.goto(`${server.url}/report/xss.html`);
      await ready(page);
      const openMs = Date.now() - started;
      assert.equal(await page.title(), 'Agent Immune — <b>xss</b>.jsonl');
      // Open the attacker carrying the payloads.
      const carrier = await page.evaluate(() => window.agentImmuneView?.model.payload.outputs.findIndex((row) => row[0]?.text.includes('__pwned')) ?? -1);
      assert.ok(carrier >= 0);
      await page.evaluate((i) => (window.agentImmuneView as unknown as { select(i: number): void }).select(i), carrier);
      const text = (await page.locator('.details pre.output').first().textContent()) ?? '';
      for (const [name, p] of payloads.slice(0, 5)) assert.ok(text.includes(p), `${name} shown verbatim`);
      assert.ok(text.includes('⟨U+202E⟩evil⟨U+202C⟩') && text.includes('⟨U+200B⟩') && text.includes('⟨U+2066⟩'), 'bidi and zero-width characters revealed');
      assert.ok(!/[\u202E\u200B\u2066]/.test(text), 'no live control characters left');
      await page.locator('.details').getByText('click me', { exact: false }).first().click();
      // The hostile agent id is a label and a list entry, never markup.
      await page.locator('input.search').fill('img');
      assert.equal(await page.locator('#matches .list-item').first().textContent(), `▲ ${hostileId}`);
      for (const name of ['__proto__', 'hasOwnProperty', 'constructor']) {
        await page.locator('input.search').fill(name);
        assert.match((await page.locator('#matches .list-item').first().textContent()) ?? '', new RegExp(`${name}$`), `${name} drawn and listed`);
      }
      const hugeRow = await page.evaluate(() => window.agentImmuneView?.model.payload.outputs.flat().find((o) => (o?.truncated ?? 0) > 0)?.truncated ?? 0);
      assert.ok(hugeRow > 10_000_000, 'the 10 MB message was cut for display, not dropped');
      const dom = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: string }).__pwned,
        scripts: document.querySelectorAll('script').length,
        injected: document.querySelectorAll('#app img, #app a, #app style, #app iframe, #app svg[onload], #app [onerror]').length,
        visible: getComputedStyle(document.body).display,
      }));
      assert.deepEqual(dom, { pwned: undefined, scripts: 2, injected: 0, visible: 'block' });
      assert.deepEqual(server.strayRequests.filter((r) => r.includes('leak')), []);
      assert.deepEqual(violations, []);
      assert.ok(openMs < 15000, `opened in ${openMs} ms`);
      await page.locator('input.search').fill('');
      await page.evaluate((i) => (window.agentImmuneView as unknown as { select(i: number): void }).select(i), carrier);
      await shot(page, 'xss-table');
    });
  });
});
