// Runs bench jobs on every core: worker threads on an esbuild bundle of benchWorker.ts (tsx does not reach worker
// threads), each fed the next job as soon as it posts a result. Results come back in job order, so figures do not
// depend on the number of threads.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import type { BenchJob, BenchJobResult } from './benchWorker';

/** Runs the jobs across `threads` worker threads (default: one per core) and returns their results in order. */
export async function runJobs<R extends BenchJobResult>(jobs: BenchJob[], threads = os.availableParallelism()): Promise<R[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-immune-bench-'));
  const bundle = path.join(dir, 'benchWorker.js');
  buildSync({ entryPoints: [path.join(__dirname, 'benchWorker.ts')], bundle: true, platform: 'node', target: 'node20', outfile: bundle, logLevel: 'warning' });
  const results = new Array<R>(jobs.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(threads, jobs.length)) }, () => new Worker(bundle));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = () => {
              if (next >= jobs.length) return resolve();
              const index = next++;
              worker.postMessage({ index, job: jobs[index] });
            };
            worker.on('message', (message: { index: number; result?: R; error?: string }) => {
              if (message.error !== undefined) return reject(new Error(`bench job ${message.index} failed: ${message.error}`));
              results[message.index] = message.result!;
              feed();
            });
            worker.on('error', reject);
            // A worker that stops before the queue is empty (killed, out of memory) must not leave the bench waiting.
            worker.on('exit', (code) => (next < jobs.length || code !== 0 ? reject(new Error(`bench worker exited early (code ${code})`)) : undefined));
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
