// Speed and scale: analyse generated runs of 10 / 100 / 1,000 / 5,000 agents x 10 rounds (random graph, average
// out-degree 5, ~1 KB per output) in a fresh bundled process each (as the CLI runs), with and without the propagation
// monitor; report time, CPU, peak memory, the growth ratio, and the cost per 1,000 messages embedded vs LLM.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { judgeMessages } from '../src/core/llm/prompts';
import { buildRunModel } from '../src/core/guard/model';
import { simulate } from '../src/core/sim/simulate';
import { serializeTrace } from '../src/core/trace/parse';
import { estimateTokens } from '../src/node/llm/session';
import { episodeGrid } from './lib/episodes';
import type { BenchModule, BenchSection } from './types';

const ROUNDS = 10;
const FILLER_SENTENCES = 11;
const TIMEOUT_MS = 90_000;
/** The full analyze (with the propagation monitor) is only timed up to this size: beyond it the monitor dominates. */
const FULL_MAX_AGENTS = 1000;
const JUDGE_SAMPLES = 3;
const JUDGE_REPLY_TOKENS = 40;

interface WorkerResult {
  analyzeCpuMs: number;
  parseMs: number;
  analyzeMs: number;
  peakRssMb: number;
}

function runWorker(worker: string, file: string, mode: 'default' | 'guard-only'): WorkerResult | undefined {
  const result = spawnSync(process.execPath, [worker, file, mode], { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 1 << 20 });
  if (result.status !== 0) return undefined;
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as WorkerResult;
}

/** LLM judge cost per 1,000 messages, from the real judge prompts of held-out episodes (characters / 4). */
function llmCostPer1k(): { calls: number; promptTokens: number; completionTokens: number } {
  let messages = 0;
  let promptTokens = 0;
  for (const config of episodeGrid('heldout', 2, 810000)) {
    const model = buildRunModel(simulate(config).trace());
    for (let k = 0; k < model.rounds; k++) {
      model.agents.forEach((agent, i) => {
        const current = model.outputs[i][k];
        if (current === undefined) return;
        const received =
          k === 0 ? [] : model.inNeighbors[i].flatMap((j) => (model.outputs[j][k - 1] === undefined ? [] : [{ from: model.agents[j], text: model.outputs[j][k - 1]! }]));
        const prompt = judgeMessages({ task: model.task, agent, round: k, current, first: model.outputs[i][0], received }, '0123456789abcdef');
        promptTokens += estimateTokens(prompt.map((m) => m.content).join('\n'));
        messages++;
      });
    }
  }
  const scale = 1000 / messages;
  return { calls: Math.round(JUDGE_SAMPLES * 1000), promptTokens: Math.round(JUDGE_SAMPLES * promptTokens * scale), completionTokens: JUDGE_SAMPLES * JUDGE_REPLY_TOKENS * 1000 };
}

const speed: BenchModule = async ({ quick }) => {
  const dir = path.join(os.tmpdir(), `agent-immune-speed-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const worker = path.join(dir, 'scaleWorker.js');
  buildSync({ entryPoints: [path.join(__dirname, 'lib', 'scaleWorker.ts')], bundle: true, platform: 'node', target: 'node20', outfile: worker, logLevel: 'warning' });
  const sizes = quick ? [10, 100, 1000] : [10, 100, 1000, 5000];
  const rows: BenchSection['rows'] = [];
  const byMode: Record<string, Map<number, WorkerResult | undefined>> = { default: new Map(), 'guard-only': new Map() };
  try {
    for (const agents of sizes) {
      const episode = simulate({ seed: 4242 + agents, topology: 'random', agents, attackers: Math.max(1, Math.round(agents * 0.05)), rounds: ROUNDS, family: 'injection', split: 'heldout', outDegree: 5, filler: FILLER_SENTENCES });
      const trace = episode.trace();
      const text = serializeTrace(trace);
      const file = path.join(dir, `scale-${agents}.jsonl`);
      writeFileSync(file, text);
      const meanOutput = trace.messages.reduce((s, m) => s + m.content.length, 0) / trace.messages.length;
      for (const mode of ['guard-only', 'default'] as const) {
        if (mode === 'default' && agents > FULL_MAX_AGENTS) continue;
        const r = runWorker(worker, file, mode);
        byMode[mode].set(agents, r);
        rows.push({
          agents,
          mode: mode === 'default' ? 'full analyze (guard + monitor)' : 'guard only',
          messages: trace.messages.length,
          edges: trace.edges.length,
          'file MB': Math.round((text.length / 1e6) * 10) / 10,
          'mean output B': Math.round(meanOutput),
          'parse ms': r ? Math.round(r.parseMs) : null,
          'analyze ms': r ? Math.round(r.analyzeMs) : `timeout > ${TIMEOUT_MS / 1000} s`,
          'analyze CPU ms': r ? Math.round(r.analyzeCpuMs) : null,
          'peak RSS MB': r ? Math.round(r.peakRssMb) : null,
        });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const ratio = (mode: string, a: number, b: number) => {
    const x = byMode[mode].get(a);
    const y = byMode[mode].get(b);
    return x && y ? Math.round((y.analyzeMs / x.analyzeMs) * 100) / 100 : null;
  };
  const at1000 = (mode: string) => byMode[mode].get(1000);
  const figures: BenchSection['figures'] = {
    guardOnly1000ms: at1000('guard-only') ? Math.round(at1000('guard-only')!.analyzeMs) : null,
    guardOnly1000CpuMs: at1000('guard-only') ? Math.round(at1000('guard-only')!.analyzeCpuMs) : null,
    guardOnly1000PeakMb: at1000('guard-only') ? Math.round(at1000('guard-only')!.peakRssMb) : null,
    full1000ms: at1000('default') ? Math.round(at1000('default')!.analyzeMs) : null,
    full1000PeakMb: at1000('default') ? Math.round(at1000('default')!.peakRssMb) : null,
    growthGuardOnly100to1000: ratio('guard-only', 100, 1000),
    growthFull100to1000: ratio('default', 100, 1000),
    growthGuardOnly1000to5000: quick ? null : ratio('guard-only', 1000, 5000),
    loadAverage1m: Math.round(os.loadavg()[0] * 10) / 10,
    cpus: os.cpus().length,
  };
  const llm = llmCostPer1k();
  const embeddedCpuPer1k = at1000('guard-only') ? Math.round(at1000('guard-only')!.analyzeCpuMs / 10) : null;
  const cost: BenchSection = {
    title: 'Cost per 1,000 messages: embedded default vs LLM judge',
    rows: [
      { path: 'embedded (default)', 'LLM calls': 0, 'prompt tokens': 0, 'completion tokens': 0, 'local CPU ms': embeddedCpuPer1k, network: 'none' },
      { path: `LLM judge (${JUDGE_SAMPLES} samples per output)`, 'LLM calls': llm.calls, 'prompt tokens': llm.promptTokens, 'completion tokens': llm.completionTokens, 'local CPU ms': embeddedCpuPer1k, network: 'endpoint' },
    ],
    figures: { llmCallsPer1k: llm.calls, llmPromptTokensPer1k: llm.promptTokens },
    notes: [
      'LLM figures are estimated from the real judge prompts (judgeMessages) of held-out 8-agent episodes at characters / 4, ' +
        `${JUDGE_REPLY_TOKENS} tokens per short JSON reply; the filter adds one call per infected agent. The LLM bench (llm.bench.ts) measures them against a loopback server.`,
      'The LLM path still runs the embedded model (its fallback and evidence), so its local CPU is at least the embedded one.',
    ],
  };
  const notes = [
    `1,000 agents x 10 rounds analysed in ${figures.guardOnly1000ms} ms wall (guard only) / ${figures.full1000ms ?? 'timeout'} ms (full analyze incl. monitor); target <= 2,000 ms and <= 500 MB peak.`,
    `Growth 100 -> 1,000 agents (10x messages): ${figures.growthGuardOnly100to1000}x guard only, ${figures.growthFull100to1000}x full (target <= 12x).`,
    `Machine load when measured: load average ${figures.loadAverage1m} on ${figures.cpus} CPUs; wall times on a busy machine exceed CPU times.`,
  ];
  return [{ title: `Speed and scale (random graph, out-degree 5, ${ROUNDS} rounds, ~1 KB outputs, bundled worker per run)`, rows, figures, notes }, cost];
};

export default speed;
