// The LLM upgrade's cost and robustness against the loopback OpenAI-compatible server: calls and tokens per 1,000
// messages (judge with 3 samples + filter), the re-analysis served from cache, and the time to fall back when offline.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { analyzeTrace } from '../src/core/guard/analyze';
import { parseTraceText } from '../src/core/trace/parse';
import { createLlmGuard } from '../src/node/llm/setup';
import { OpenAiTransport } from '../src/node/llm/transport';
import { FakeLlmServer } from '../test/support/fakeLlmServer';
import type { BenchModule, BenchSection } from './types';

/** gpt-4o-mini list prices in USD per million tokens (input, output), for the cost estimate only. */
const PRICE = { input: 0.15, output: 0.6 };

const bench: BenchModule = async ({ quick }) => {
  const dir = path.join(__dirname, '..', 'examples', 'traces');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort().slice(0, quick ? 2 : undefined);
  const server = await new FakeLlmServer().start();
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'ai-llm-bench-'));
  const rows: BenchSection['rows'] = [];
  const totals = { messages: 0, calls: 0, prompt: 0, completion: 0, cachedCalls: 0 };
  try {
    for (const file of files) {
      const trace = parseTraceText(await readFile(path.join(dir, file), 'utf8'));
      const analyse = async () => {
        const llm = createLlmGuard(new OpenAiTransport({ baseURL: server.url, model: 'fake-judge', apiKey: 'bench' }), { scorer: true, filter: true, cacheRoot: cacheDir });
        const t0 = Date.now();
        const analysis = llm.finish(await analyzeTrace(trace, llm.guard));
        return { analysis, seconds: (Date.now() - t0) / 1000 };
      };
      const cold = await analyse();
      const warm = await analyse();
      const l = cold.analysis.llm!;
      totals.messages += trace.messages.length;
      totals.calls += l.calls;
      totals.prompt += l.promptTokens;
      totals.completion += l.completionTokens;
      totals.cachedCalls += warm.analysis.llm!.calls;
      rows.push({
        trace: file,
        messages: trace.messages.length,
        calls: l.calls,
        promptTokens: l.promptTokens,
        completionTokens: l.completionTokens,
        seconds: cold.seconds,
        rerunCalls: warm.analysis.llm!.calls,
        rerunSeconds: warm.seconds,
        scorer: cold.analysis.scorer,
        filter: cold.analysis.filter,
      });
    }
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }

  // Offline: a port nothing listens on, default retries and backoff.
  const url = server.url;
  await server.stop();
  const trace = parseTraceText(await readFile(path.join(dir, files[0]), 'utf8'));
  const llm = createLlmGuard(new OpenAiTransport({ baseURL: url, model: 'fake-judge', apiKey: 'bench' }), { scorer: true, filter: true });
  const t0 = Date.now();
  const offline = llm.finish(await analyzeTrace(trace, llm.guard));
  const offlineSeconds = (Date.now() - t0) / 1000;

  const per1k = (n: number) => Math.round((n / totals.messages) * 1000);
  const usd = ((totals.prompt * PRICE.input + totals.completion * PRICE.output) / 1e6 / totals.messages) * 1000;
  return {
    title: 'LLM upgrade: cost per 1,000 messages, cache, offline fallback (loopback server)',
    rows,
    figures: {
      llmCallsPer1kMessages: per1k(totals.calls),
      llmTokensPer1kMessages: per1k(totals.prompt + totals.completion),
      llmUsdPer1kMessagesGpt4oMini: Number(usd.toFixed(3)),
      llmRerunCalls: totals.cachedCalls,
      llmOfflineFallbackSeconds: offlineSeconds,
      llmOfflineWarnings: offline.warnings.filter((w) => w.code.startsWith('llm-')).length,
      llmOfflineScorer: offline.scorer,
    },
    notes: [
      'judge: 3 samples per agent output; filter: 1 call per infected agent; tokens are the server\'s count (characters / 4) of the real prompts, replies are the fake judge\'s short JSON',
      `USD at gpt-4o-mini list prices (${PRICE.input} / ${PRICE.output} per million input / output tokens)`,
      'offline: connection refused, 3 retries with 0.5 s doubling backoff, then one llm-unavailable warning and the embedded result',
    ],
  };
};

export default bench;
