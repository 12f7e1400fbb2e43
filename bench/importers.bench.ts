// Importers at scale: generates a 200 MB OTLP GenAI export (one JSON document, and the same spans as JSON Lines),
// converts each to agent-trace/v1 in a child process, and reports wall time, throughput and the child's peak RSS.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import type { BenchModule, BenchSection } from './types';

const MB = 1024 * 1024;

function attrs(entries: Record<string, string | number>): unknown[] {
  return Object.entries(entries).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v } }));
}

function messages(role: string, text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }], ...(role === 'assistant' ? { finish_reason: 'stop' } : {}) }]);
}

const FILLER = 'The quarterly figures show steady growth across all regions; the team reviewed the sources and cross-checked each number. ';

/** The spans of one conversation: a supervisor invoking `workers` agents, each with a chat span, a tool span and an HTTP span. */
function conversationSpans(c: number, workers: number): unknown[] {
  const traceId = c.toString(16).padStart(32, '0');
  const id = (n: number) => (c * 64 + n).toString(16).padStart(16, '0');
  const t0 = 1767225600000000000n + BigInt(c) * 60000000000n;
  const ns = (ms: number) => String(t0 + BigInt(ms) * 1000000n);
  const text = (who: string, k: number) => `${who} #${k} of conversation ${c}: ${FILLER.repeat(3 + (k % 4))}`;
  const common = { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.conversation.id': `conv-${c}`, 'server.address': 'api.openai.com', 'server.port': 443 };
  const spans: unknown[] = [
    {
      traceId, spanId: id(0), name: 'invoke_agent supervisor', kind: 1, startTimeUnixNano: ns(0), endTimeUnixNano: ns(10000), status: {},
      attributes: attrs({ ...common, 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'supervisor', 'gen_ai.input.messages': messages('user', text('question', 0)), 'gen_ai.output.messages': messages('assistant', text('answer', 0)) }),
    },
  ];
  for (let w = 1; w <= workers; w++) {
    const start = w * 900;
    spans.push(
      {
        traceId, spanId: id(w * 4), parentSpanId: id(0), name: `invoke_agent worker_${w}`, kind: 1, startTimeUnixNano: ns(start), endTimeUnixNano: ns(start + 800), status: {},
        attributes: attrs({ ...common, 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `worker_${w}`, 'gen_ai.agent.id': `asst_${w}` }),
      },
      {
        traceId, spanId: id(w * 4 + 1), parentSpanId: id(w * 4), name: 'chat gpt-4o-mini', kind: 3, startTimeUnixNano: ns(start + 10), endTimeUnixNano: ns(start + 700), status: {},
        attributes: attrs({ ...common, 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 812, 'gen_ai.usage.output_tokens': 240, 'gen_ai.response.id': `chatcmpl-${c}-${w}`, 'gen_ai.input.messages': messages('user', text('task', w)), 'gen_ai.output.messages': messages('assistant', text(`worker_${w}`, w)) }),
      },
      {
        traceId, spanId: id(w * 4 + 2), parentSpanId: id(w * 4), name: 'execute_tool web_search', kind: 1, startTimeUnixNano: ns(start + 20), endTimeUnixNano: ns(start + 300), status: {},
        attributes: attrs({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'web_search', 'gen_ai.tool.call.id': `call_${c}_${w}` }),
      },
      {
        traceId, spanId: id(w * 4 + 3), parentSpanId: id(w * 4 + 2), name: 'GET', kind: 3, startTimeUnixNano: ns(start + 30), endTimeUnixNano: ns(start + 290), status: {},
        attributes: attrs({ 'http.request.method': 'GET', 'url.full': `https://search.example/q?c=${c}&w=${w}`, 'http.response.status_code': 200 }),
      },
    );
  }
  return spans;
}

/** Writes about `bytes` of OTLP JSON: one document (all spans in one scope) or JSON Lines (one request per conversation); returns the conversation count. */
export async function generate(file: string, bytes: number, layout: 'document' | 'lines'): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const resource = { attributes: attrs({ 'service.name': 'bench-crew' }) };
  const scope = { name: 'bench', version: '1.0.0' };
  if (layout === 'document') await write(`{"resourceSpans":[{"resource":${JSON.stringify(resource)},"scopeSpans":[{"scope":${JSON.stringify(scope)},"spans":[\n`);
  let written = 0;
  let c = 0;
  while (written < bytes) {
    const spans = conversationSpans(c, 6);
    const text = layout === 'document' ? (c > 0 ? ',\n' : '') + spans.map((s) => JSON.stringify(s)).join(',\n') : JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ scope, spans }] }] }) + '\n';
    await write(text);
    written += Buffer.byteLength(text);
    c++;
  }
  if (layout === 'document') await write('\n]}]}]}\n');
  out.end();
  await once(out, 'finish');
  return c;
}

/** Converts in a fresh process so its peak RSS is the converter's own. */
function convertInChild(file: string, outDir: string): { ms: number; episodes: number; messages: number; rssMb: number; baseRssMb: number; liveMb: number } {
  const root = path.resolve(__dirname, '..');
  const script = `
    const { readRuns } = require(${JSON.stringify(path.join(root, 'src/node/readAnyTrace.ts'))});
    const { serializeTrace } = require(${JSON.stringify(path.join(root, 'src/core/trace/parse.ts'))});
    const { writeFileSync, mkdirSync } = require('node:fs');
    const base = process.resourceUsage().maxRSS;
    const t0 = performance.now();
    readRuns(${JSON.stringify(file)}).then(({ runs }) => {
      global.gc();
      const liveMb = process.memoryUsage().heapUsed / 1048576;
      mkdirSync(${JSON.stringify(outDir)}, { recursive: true });
      let messages = 0;
      runs.forEach((run, i) => { const trace = run.trace(); messages += trace.messages.length; writeFileSync(${JSON.stringify(outDir)} + '/' + i + '.jsonl', serializeTrace(trace)); });
      const ms = performance.now() - t0;
      console.log(JSON.stringify({ ms, episodes: runs.length, messages, rssMb: process.resourceUsage().maxRSS / 1024, baseRssMb: base / 1024, liveMb }));
    });`;
  const child = spawnSync(process.execPath, ['--expose-gc', '-r', 'tsx/cjs', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 16 * MB });
  if (child.status !== 0) throw new Error(`convert failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

const bench: BenchModule = async ({ quick }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-bench-import-'));
  const target = (quick ? 20 : 200) * MB;
  const rows: BenchSection['rows'] = [];
  const figures: BenchSection['figures'] = {};
  try {
    for (const layout of ['document', 'lines'] as const) {
      const file = path.join(dir, `otlp-${layout}.json${layout === 'lines' ? 'l' : ''}`);
      const conversations = await generate(file, target, layout);
      const size = statSync(file).size / MB;
      const r = convertInChild(file, path.join(dir, `out-${layout}`));
      const files = readdirSync(path.join(dir, `out-${layout}`)).length;
      rows.push({
        layout: layout === 'document' ? 'one JSON document' : 'JSON Lines',
        'file MB': Math.round(size),
        conversations,
        traces: files,
        messages: r.messages,
        's': Number((r.ms / 1000).toFixed(2)),
        'MB/s': Number((size / (r.ms / 1000)).toFixed(1)),
        'peak RSS MB': Math.round(r.rssMb),
        'RSS at start MB': Math.round(r.baseRssMb),
        'live heap after read MB': Math.round(r.liveMb),
      });
      figures[`otlp_${layout}_seconds`] = Number((r.ms / 1000).toFixed(2));
      figures[`otlp_${layout}_peak_rss_mb`] = Math.round(r.rssMb);
      figures[`otlp_${layout}_live_heap_mb`] = Math.round(r.liveMb);
      figures[`otlp_${layout}_file_mb`] = Math.round(size);
      if (r.episodes !== conversations) throw new Error(`expected ${conversations} traces, got ${r.episodes}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    title: `Importers: convert a ${quick ? 20 : 200} MB OTLP GenAI export to agent-trace/v1`,
    rows,
    figures,
    notes: [
      'target (issue #10): a 200 MB OTLP file converts without loading it whole: the document is split span by span',
      'live heap after read = the runs extracted from the file, after GC (mostly their text); peak RSS adds uncollected garbage from parsing spans',
    ],
  };
};

export default bench;
