// Browser harness for the graph view: serves the built bundle, stylesheet and pages on 127.0.0.1 (a standalone report,
// or the webview page with a stand-in for acquireVsCodeApi) and drives Debian's chromium through playwright-core.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { analyzeTrace } from '../../src/core/guard/analyze';
import { buildGraphViewPayload } from '../../src/core/graphview/payload';
import { renderReportHtml } from '../../src/core/graphview/reportHtml';
import type { GraphViewPayload } from '../../src/core/graphview/types';
import { parseTraceText } from '../../src/core/trace/parse';
import { panelHtml } from '../../src/extension/analyze/panelHtml';
import { encodeReportPayload } from '../../src/node/graphReport';

export const ROOT = path.resolve(__dirname, '../..');
export const OUTPUT_DIR = path.join(ROOT, 'test-output', 'browser');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Analyses JSONL text into a view payload (what the host would send). */
export async function payloadOf(jsonl: string, title = 'trace.jsonl'): Promise<GraphViewPayload> {
  const trace = parseTraceText(jsonl, { file: title });
  trace.source = title;
  return buildGraphViewPayload(trace, await analyzeTrace(trace), { title });
}

/** The webview page as VS Code would serve it, plus a stand-in acquireVsCodeApi recording what the page posts. */
function webviewPage(nonce: string, theme: string, state: unknown): string {
  const shell = panelHtml({ cspSource: "'self'", nonce, scriptUri: '/dist/webview.js', styleUri: '/media/graphview.css', title: 'Infection graph' });
  const standIn = `<script nonce="${nonce}">
window.__posted = [];
window.__state = ${JSON.stringify(state ?? null).replace(/</g, '\\u003c')};
window.acquireVsCodeApi = function () {
  return { postMessage: function (m) { window.__posted.push(m); }, getState: function () { return window.__state; }, setState: function (s) { window.__state = s; } };
};
</script>`;
  return shell.replace('<body>', `<body class="${theme}">`).replace('<div id="app"', `${standIn}\n<div id="app"`);
}

/** A running page server. */
export interface PageServer {
  url: string;
  /** Paths requested that the server does not serve (anything a hostile trace makes the page fetch). */
  strayRequests: string[];
  /** Registers a report page at /report/<name>.html. */
  addReport(name: string, payload: GraphViewPayload): void;
  /** Registers a report page whose payload element holds the given base64 text as is (to damage it). */
  addEncodedReport(name: string, title: string, payloadGzipBase64: string): void;
  close(): Promise<void>;
}

/** Starts the server on an ephemeral 127.0.0.1 port. */
export async function startServer(): Promise<PageServer> {
  const script = readFileSync(path.join(ROOT, 'dist', 'webview.js'), 'utf8');
  const css = readFileSync(path.join(ROOT, 'media', 'graphview.css'), 'utf8');
  const reports = new Map<string, string>();
  const strayRequests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (type: string, body: string) => {
      response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (url.pathname === '/dist/webview.js') return send('text/javascript', script);
    if (url.pathname === '/media/graphview.css') return send('text/css', css);
    if (url.pathname === '/webview.html') {
      const state = url.searchParams.get('state');
      return send('text/html', webviewPage('testnonce0123456789', url.searchParams.get('theme') ?? 'vscode-dark', state ? JSON.parse(state) : null));
    }
    const report = /^\/report\/([\w-]+)\.html$/.exec(url.pathname);
    if (report && reports.has(report[1])) return send('text/html', reports.get(report[1]) as string);
    if (url.pathname !== '/favicon.ico') strayRequests.push(url.pathname + url.search);
    response.writeHead(404).end();
  });
  const addEncodedReport = (name: string, title: string, payloadGzipBase64: string) =>
    void reports.set(name, renderReportHtml({ script, css, title, payloadGzipBase64, nonce: 'reportnonce0123456789' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    strayRequests,
    addReport: (name, payload) => addEncodedReport(name, payload.title, encodeReportPayload(payload)),
    addEncodedReport,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Launches headless chromium with a fresh profile; close() removes the profile. */
export async function launchBrowser(viewport = { width: 1400, height: 860 }): Promise<{ context: BrowserContext; profile: string; close: () => Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'agent-immune-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  return {
    context,
    profile,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The small fixture with a fixed verdict (a1 attacks from round 0; a2 and a5 infected from round 1, a3 from round 2),
 * so the view's tests do not move when the guard is retrained: the guard's real output is still used for scores'
 * shape, rounds and ASR, but categories, sources, paths and remediation are pinned.
 */
export async function pinnedSmallPayload(): Promise<GraphViewPayload> {
  const payload = await payloadOf(readFileSync(path.join(ROOT, 'test/fixtures/graphview/small.jsonl'), 'utf8'), 'small.jsonl');
  const firstFlagged: Record<string, [number, 'attacker' | 'infected']> = { a1: [0, 'attacker'], a2: [1, 'infected'], a5: [1, 'infected'], a3: [2, 'infected'] };
  const { analysis } = payload;
  for (const round of analysis.rounds) {
    for (const [id, detail] of Object.entries(round.agents)) {
      const flag = firstFlagged[id];
      const category = flag && round.round >= flag[0] ? flag[1] : 'benign';
      Object.assign(detail, {
        category,
        pAtk: category === 'attacker' ? 0.97 : Math.min(detail.pAtk, 0.3),
        pInf: category === 'infected' ? 0.91 : Math.min(detail.pInf, 0.2),
        rule: category === 'attacker' ? 'head-attacker' : category === 'infected' ? 'kept-neighbour-flagged' : 'below-thresholds',
      });
    }
  }
  const last = analysis.rounds[analysis.rounds.length - 1].agents;
  for (const agent of analysis.agents) Object.assign(agent, { category: last[agent.id].category, pAtk: last[agent.id].pAtk, pInf: last[agent.id].pInf });
  analysis.sources = ['a1'];
  analysis.infectionPaths = [['a1', 'a2'], ['a1', 'a5'], ['a1', 'a2', 'a3']];
  analysis.remediation = [
    { agent: 'a1', action: 'replace', donor: 'a4', reason: 'attacker; copy the role and system prompt of a4 and drop its own outputs' },
    { agent: 'a2', action: 'rehabilitate', filtered: 'Answer: C', removed: [], reason: 'infected; the filter removed the manipulative sentences' },
    { agent: 'a3', action: 'replace', donor: 'a4', reason: 'infected and its filtered output is unusable' },
    { agent: 'a5', action: 'replace', donor: 'a4', reason: 'infected and its filtered output is unusable' },
  ];
  return payload;
}

/**
 * CPU time (ms, user + system) used so far by every chromium process of a profile (browser, GPU/SwiftShader, renderer):
 * the work a page costs, independent of how busy the machine is. Linux only (/proc).
 */
export function chromiumCpuMs(profile: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended between listing and reading
    }
  }
  return ticks * 10;
}
