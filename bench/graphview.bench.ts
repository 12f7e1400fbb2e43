// Infection-graph view performance in headless chromium: first frame of the standalone report (navigation start to the
// first painted frame) and the round-slider update (setRound to the next painted frame), for a 20-agent trace and a
// 2,000-agent / 10-round trace. Host-side costs (analysis, layout, payload) are reported beside them.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyzeTrace } from '../src/core/guard/analyze';
import { computeLayout } from '../src/core/graphview/layout';
import { buildGraphViewPayload } from '../src/core/graphview/payload';
import { parseTraceText } from '../src/core/trace/parse';
import { chromiumCpuMs, launchBrowser, startServer } from '../test/browser/harness';
import { synthTrace } from '../test/browser/synth';
import type { BenchModule, BenchSection } from './types';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round1 = (v: number) => Math.round(v * 10) / 10;

const bench: BenchModule = async ({ quick }) => {
  const sizes = quick ? [{ agents: 20, rounds: 4 }, { agents: 500, rounds: 10 }] : [{ agents: 20, rounds: 4 }, { agents: 2000, rounds: 10 }];
  const server = await startServer();
  const browser = await launchBrowser();
  const rows: BenchSection['rows'] = [];
  const figures: BenchSection['figures'] = {};
  try {
    for (const { agents, rounds } of sizes) {
      const trace = parseTraceText(synthTrace({ agents, rounds, attackers: Math.max(1, Math.round(agents / 100)), seed: 5 }));
      let t = performance.now();
      const analysis = await analyzeTrace(trace);
      const analyseMs = performance.now() - t;
      t = performance.now();
      const positions = computeLayout(analysis.agents.map((a) => a.id), analysis.edges);
      const layoutMs = performance.now() - t;
      t = performance.now();
      const payload = buildGraphViewPayload(trace, analysis, { positions, title: `synthetic-${agents}` });
      const payloadMs = performance.now() - t;
      const name = `bench-${agents}`;
      server.addReport(name, payload);

      const firstFrames: number[] = [];
      const firstFrameCpu: number[] = [];
      const sliders: number[] = [];
      const sliderCpu: number[] = [];
      for (let run = 0; run < (quick ? 1 : 3); run++) {
        const page = await browser.context.newPage();
        page.on('crash', () => console.error(`graphview bench: the page of ${name} crashed`));
        const cpu0 = chromiumCpuMs(browser.profile);
        await page.goto(`${server.url}/report/${name}.html`, { waitUntil: 'commit', timeout: 180000 });
        await page.waitForFunction(() => document.getElementById('app')?.dataset.state === 'ready', undefined, { timeout: 120000 });
        firstFrames.push(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())))));
        firstFrameCpu.push(chromiumCpuMs(browser.profile) - cpu0);
        const cpu1 = chromiumCpuMs(browser.profile);
        const updates = await page.evaluate(async (count) => {
          const view = window.agentImmuneView;
          if (!view) throw new Error('no view');
          const out: number[] = [];
          for (let k = 0; k < count; k++) {
            const start = performance.now();
            view.setRound((k + 1) % view.model.rounds);
            await new Promise((resolve) => requestAnimationFrame(resolve));
            out.push(performance.now() - start);
          }
          return out;
        }, rounds * 2);
        sliders.push(...updates);
        sliderCpu.push((chromiumCpuMs(browser.profile) - cpu1) / updates.length);
        await page.close();
      }
      const firstFrame = median(firstFrames);
      const slider = median(sliders);
      const sliderMax = Math.max(...sliders);
      rows.push({
        agents,
        rounds,
        edges: analysis.edges.length,
        analyse_ms: Math.round(analyseMs),
        layout_ms: Math.round(layoutMs),
        payload_ms: Math.round(payloadMs),
        payload_mb: round1(JSON.stringify(payload).length / 1024 / 1024),
        first_frame_ms: Math.round(firstFrame),
        first_frame_cpu_ms: Math.round(median(firstFrameCpu)),
        slider_median_ms: round1(slider),
        slider_max_ms: round1(sliderMax),
        slider_cpu_ms: round1(median(sliderCpu)),
      });
      figures[`graphview_first_frame_ms_${agents}`] = Math.round(firstFrame);
      figures[`graphview_slider_median_ms_${agents}`] = round1(slider);
      figures[`graphview_first_frame_cpu_ms_${agents}`] = Math.round(median(firstFrameCpu));
      figures[`graphview_slider_cpu_ms_${agents}`] = round1(median(sliderCpu));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    title: 'Infection-graph view in headless chromium (software WebGL, --disable-gpu)',
    rows,
    figures,
    notes: [
      'target: 2,000 agents / 10 rounds first frame <= 1500 ms (graphview_first_frame_ms_2000), from navigation start, payload parse included',
      'target: slider update <= 50 ms (graphview_slider_median_ms_2000), setRound to the next painted frame',
      'target: a 20-agent trace opens instantly (graphview_first_frame_ms_20)',
      'analyse/layout/payload run in the extension host worker (or the CLI), not in the page',
      '*_cpu_ms: CPU time of all chromium processes (renderer + SwiftShader GPU + browser) over the same span: the cost on an idle machine; wall times inflate with the load average',
      `load average while measuring: ${loadavg().map((v) => v.toFixed(1)).join(' / ')} on ${cpus().length} cores`,
    ],
  };
};

export default bench;
