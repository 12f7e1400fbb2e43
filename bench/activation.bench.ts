// Extension activation: in fresh processes, the time to load the built dist/extension.js and run activate() (with a
// stand-in vscode module: this is the extension's own cost, not the editor's), which bundles are loaded by then, and
// what the trace and LLM bundles cost when their first command loads them. Needs `npm run build` first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { BenchModule, BenchSection } from './types';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const DIST = path.join(__dirname, '..', 'dist');

interface Probe {
  requireMs: number;
  activateMs: number;
  atActivation: string[];
  laterMs: Record<string, number>;
}

const bench: BenchModule = async ({ quick }): Promise<BenchSection> => {
  const extension = path.join(DIST, 'extension.js');
  if (!existsSync(extension)) return { title: 'Extension activation', rows: [], figures: {}, notes: ['skipped: no dist/extension.js (run npm run build)'] };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-activation-'));
  try {
    const probe = path.join(dir, 'probe.js');
    buildSync({ entryPoints: [path.join(__dirname, 'lib', 'activationProbe.ts')], outfile: probe, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    const runs: Probe[] = [];
    for (let i = 0; i < (quick ? 3 : 9); i++) {
      const result = spawnSync(process.execPath, [probe, extension], { encoding: 'utf8', timeout: 60_000 });
      if (result.status !== 0) throw new Error(`activation probe failed: ${result.stderr}`);
      runs.push(JSON.parse(result.stdout.trim().split('\n').pop()!) as Probe);
    }
    const kb = (file: string) => Math.round(statSync(path.join(DIST, file)).size / 1024);
    const loaded = runs[0].atActivation;
    const rows = [
      { step: 'load dist/extension.js', 'median ms': median(runs.map((r) => r.requireMs)), bundles: loaded.join(' '), 'KB parsed': loaded.reduce((n, f) => n + kb(f), 0) },
      { step: 'activate()', 'median ms': median(runs.map((r) => r.activateMs)), bundles: '', 'KB parsed': 0 },
      ...Object.keys(runs[0].laterMs).map((bundle) => ({ step: `first use: load ${bundle}`, 'median ms': median(runs.map((r) => r.laterMs[bundle])), bundles: bundle, 'KB parsed': kb(bundle) })),
    ];
    return {
      title: 'Extension activation (stand-in vscode, fresh process each run)',
      rows,
      figures: {
        activationMs: Number((median(runs.map((r) => r.requireMs)) + median(runs.map((r) => r.activateMs))).toFixed(1)),
        activationKB: loaded.reduce((n, f) => n + kb(f), 0),
        loadsTraceOrLlmAtActivation: loaded.some((f) => f === 'trace.js' || f === 'llm.js') ? 'yes' : 'no',
      },
      notes: [`${runs.length} runs; the dist/ build as it is (npm run build: unminified with source maps; vscode:prepublish: minified)`],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export default bench;
