// The analysis job behind the editor panel: reads, analyses and builds the view payload; cancellation rejects.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { runAnalysisJob } from '../../../src/node/analysisJob';
import { SMALL_TRACE } from './fixture';

describe('analysis job', () => {
  const input = { file: SMALL_TRACE, root: path.dirname(SMALL_TRACE), title: 'small.jsonl' };

  it('returns the view payload of the trace, reporting each round', async () => {
    const rounds: number[] = [];
    const payload = await runAnalysisJob(input, { onRound: (k) => rounds.push(k) });
    assert.equal(payload.title, 'small.jsonl');
    assert.equal(payload.analysis.agents.length, 6);
    assert.equal(payload.positions.length, 12);
    assert.deepEqual(rounds, [0, 1, 2]);
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
