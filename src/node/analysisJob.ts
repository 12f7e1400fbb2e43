// Runs a trace analysis plus the graph-view payload off the caller's thread: in a worker_thread when the built worker
// bundle is present (the extension host stays responsive and cancel terminates the worker), in-process otherwise.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { analyzeTrace } from '../core/guard/analyze';
import { InputError, type InputErrorKind } from '../core/errors';
import { buildGraphViewPayload, runTitle } from '../core/graphview/payload';
import type { GraphViewPayload } from '../core/graphview/types';
import { loadProjectConfig } from './config';
import type { LlmGuard } from './llm/setup';
import { readRunOf, runId } from './readAnyTrace';
import { readTraceFile } from './readTrace';

/** What to analyse. */
export interface AnalysisJobInput {
  file: string;
  /** Folder whose agent-immune.config.json applies. */
  root: string;
  /** Name shown for the trace (relative path). */
  title: string;
  /** Positions of the previous payload, reused when the topology is unchanged. */
  positions?: number[];
  /** Which run of a file that holds several (0-based); the first, with a `multiple-episodes` warning, when absent. */
  episode?: number;
}

/** What a job gives back: the view payload, and the ids of every run the file holds (file order), for a chooser. */
export interface ViewAnalysis {
  payload: GraphViewPayload;
  runs: string[];
}

/** Messages the worker posts back. */
export type AnalysisWorkerMessage =
  | { type: 'round'; round: number; rounds: number }
  | { type: 'done'; result: ViewAnalysis }
  | { type: 'error'; kind?: InputErrorKind; message: string; file?: string; line?: number };

/** Options for a job. */
export interface AnalysisJobOptions {
  signal?: AbortSignal;
  onRound?: (round: number, rounds: number) => void;
  /** The built worker bundle (dist/analysisWorker.js); in-process when absent. */
  workerScript?: string;
}

/** Reads, analyses and builds the view payload in the current thread; `llm` swaps in the LLM judge and filter. */
export async function analyseForView(input: AnalysisJobInput, signal?: AbortSignal, onRound?: (round: number, rounds: number) => void, llm?: Pick<LlmGuard, 'guard' | 'finish'>): Promise<ViewAnalysis> {
  const config = await loadProjectConfig(input.root);
  const { trace, runs } = await readForView(input.file, input.episode);
  trace.source = input.title;
  const analysed = await analyzeTrace(trace, { config, signal, onRound, ...llm?.guard });
  signal?.throwIfAborted();
  const analysis = llm ? llm.finish(analysed) : analysed;
  const samePositions = input.positions && input.positions.length === analysis.agents.length * 2 ? input.positions : undefined;
  return { payload: buildGraphViewPayload(trace, analysis, { title: runTitle(input.title, analysis.run), positions: samePositions }), runs };
}

/**
 * Reads any supported format; a .jsonl the detector cannot place (e.g. a native header line longer than the detection
 * window, as in 2,000-agent runs) is read as agent-trace/v1, whose parser then names the real problem if any.
 */
async function readForView(file: string, episode?: number) {
  try {
    return await readRunOf(file, { episode });
  } catch (error) {
    if (!(error instanceof InputError && error.kind === 'unknown-format' && /\.jsonl$/i.test(file))) throw error;
    const trace = await readTraceFile(file);
    return { trace, runs: [runId(trace)] };
  }
}

/** Runs a job in a worker when possible; rejects with InputError for bad input and AbortError on cancel. */
export function runAnalysisJob(input: AnalysisJobInput, options: AnalysisJobOptions = {}): Promise<ViewAnalysis> {
  if (!options.workerScript || !existsSync(options.workerScript)) return analyseForView(input, options.signal, options.onRound);
  const script = options.workerScript;
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const worker = new Worker(script, { workerData: input });
    const abort = () => {
      void worker.terminate();
      reject(options.signal?.reason ?? new Error('cancelled'));
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    const settle = () => options.signal?.removeEventListener('abort', abort);
    worker.on('message', (message: AnalysisWorkerMessage) => {
      if (message.type === 'round') options.onRound?.(message.round, message.rounds);
      else {
        settle();
        void worker.terminate();
        if (message.type === 'done') resolve(message.result);
        else reject(message.kind ? new InputError(message.kind, message.message, message.file, message.line) : new Error(message.message));
      }
    });
    worker.on('error', (error) => {
      settle();
      reject(error);
    });
  });
}
