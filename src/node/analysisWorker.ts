// Worker-thread entry (bundled as dist/analysisWorker.js, the engine loaded from dist/engine.js): analyses one trace for
// the graph view and posts the payload.
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage, InputError } from '../core/errors';
import type { AnalysisJobInput, AnalysisWorkerMessage } from './analysisJob';
import { analyseForView } from './engine';

const post = (message: AnalysisWorkerMessage) => parentPort?.postMessage(message);

analyseForView(workerData as AnalysisJobInput, undefined, (round, rounds) => post({ type: 'round', round, rounds }))
  .then((result) => post({ type: 'done', result }))
  .catch((error: unknown) =>
    post(error instanceof InputError ? { type: 'error', kind: error.kind, message: error.message, file: error.file, line: error.line } : { type: 'error', message: errorMessage(error) }),
  );
