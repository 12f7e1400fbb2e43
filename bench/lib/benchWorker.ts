// Worker-thread side of bench/lib/workers.ts: runs the jobs it is sent (one closed-loop episode under every defence, or
// one detection episode) and posts each result back with its index.
import { parentPort } from 'node:worker_threads';
import { DEFENCES, runClosedLoop, type EpisodeOutcome } from './closedloop';
import { episodeDetection, type EpisodeDetection } from './episodes';
import { defaultConfig, type GuardConfig } from '../../src/core/config';
import type { EpisodeConfig } from '../../src/core/sim/simulate';

/** A unit of bench work and what it gives back. */
export type BenchJob = { kind: 'closedloop'; config: EpisodeConfig } | { kind: 'detection'; config: EpisodeConfig; guard?: Partial<GuardConfig> };
export type BenchJobResult = EpisodeOutcome[] | EpisodeDetection;

async function run(job: BenchJob): Promise<BenchJobResult> {
  if (job.kind === 'detection') {
    const config = defaultConfig();
    Object.assign(config.guard, job.guard);
    return episodeDetection(job.config, { config });
  }
  const outcomes: EpisodeOutcome[] = [];
  for (const defence of DEFENCES) outcomes.push(await runClosedLoop(job.config, defence));
  return outcomes;
}

parentPort!.on('message', (message: { index: number; job: BenchJob }) => {
  run(message.job).then(
    (result) => parentPort!.postMessage({ index: message.index, result }),
    (error: unknown) => parentPort!.postMessage({ index: message.index, error: String(error instanceof Error ? error.stack : error) }),
  );
});
