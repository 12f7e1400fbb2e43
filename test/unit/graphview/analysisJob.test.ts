// The analysis job behind the editor panel: reads, analyses and builds the view payload; cancellation rejects.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { runAnalysisJob } from '../../../src/node/analysisJob';
import { SMALL_TRACE } from './fixture';

describe('analysis job', () => {
  const input = { file: SMALL_TRACE, root: path.dirname(SMALL_TRACE), title: 'small.jsonl' };

  it('returns the view payload of the trace, reporting each round', async () => {
    const rounds: number[] = [];
    const { payload, runs } = await runAnalysisJob(input, { onRound: (k) => rounds.push(k) });
    assert.equal(payload.title, 'small.jsonl — run demo-6', 'the file and the run (a file of many runs holds runs with one task)');
    assert.equal(payload.analysis.agents.length, 6);
    assert.equal(payload.positions.length, 12);
    assert.deepEqual(rounds, [0, 1, 2]);
    assert.equal(runs.length, 1);
  });

  it('lists every run of a file that holds several, read in the same pass as the run it analyses', async () => {
    const file = path.join(__dirname, '../../fixtures/workspace/traces/infa-guard-episodes.json');
    const { payload, runs } = await runAnalysisJob({ file, root: path.dirname(file), title: 'runs', episode: 1 });
    assert.ok(runs.length > 1, 'the example holds several runs');
    assert.equal(payload.analysis.run, runs[1]);
  });

  it('gives the same runs and payload through the built worker as in-process', async function () {
    const workerScript = path.join(__dirname, '../../../dist/analysisWorker.js');
    if (!existsSync(workerScript)) this.skip(); // npm test builds dist/ first; a bare mocha run may not have it
    const file = path.join(__dirname, '../../fixtures/workspace/traces/infa-guard-episodes.json');
    const job = { file, root: path.dirname(file), title: 'runs', episode: 1 };
    const [inWorker, inProcess] = [await runAnalysisJob(job, { workerScript }), await runAnalysisJob(job)];
    assert.deepEqual(inWorker.runs, inProcess.runs);
    assert.equal(inWorker.payload.analysis.run, inProcess.runs[1]);
  });

  it('rejects when cancelled before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(runAnalysisJob(input, { signal: controller.signal }), (error: Error) => error.name === 'AbortError');
  });

  it('reports bad input as InputError', async () => {
    await assert.rejects(runAnalysisJob({ ...input, file: path.join(__dirname, 'missing.jsonl') }), (error: unknown) => error instanceof InputError || (error as NodeJS.ErrnoException).code === 'ENOENT');
  });
});
