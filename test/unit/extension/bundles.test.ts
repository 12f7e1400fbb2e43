// What each shipped extension bundle holds, from esbuild's own account of its inputs: activation (dist/extension.js)
// leaves out the OpenAI SDK, graphology, the guard and the importers; the trace feature loads the shared engine instead
// of bundling it; only the LLM bundle holds the OpenAI SDK, and only the live one the OTLP receiver.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const ROOT = path.join(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { shipped } = require(path.join(ROOT, 'esbuild.js')) as { shipped: BuildOptions[] };

/** The input files (relative to the repository) of one shipped bundle, built in memory. */
async function inputsOf(outfile: string): Promise<string[]> {
  const options = shipped.find((b) => b.outfile === outfile);
  assert.ok(options, `esbuild.js builds no ${outfile}`);
  const result = await build({ ...options, absWorkingDir: ROOT, bundle: true, write: false, metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

const has = (inputs: string[], pattern: RegExp) => inputs.filter((file) => pattern.test(file));
const OPENAI = /node_modules\/openai\//;
const GRAPHOLOGY = /node_modules\/graphology/;
const ENGINE = /^src\/(core\/(guard\/analyze|importers\/|graphview\/layout)|node\/(readAnyTrace|analysisJob))/;
const PROTOBUF = /node_modules\/protobufjs\//;

describe('extension bundles', function () {
  this.timeout(30_000);

  it('activation loads neither the OpenAI SDK, graphology, the guard, the importers nor the live receiver', async () => {
    const inputs = await inputsOf('dist/extension.js');
    assert.ok(inputs.includes('src/extension/harden/register.ts'), 'the bundle holds what activation needs');
    assert.deepEqual([...has(inputs, OPENAI), ...has(inputs, GRAPHOLOGY), ...has(inputs, ENGINE), ...has(inputs, PROTOBUF)], []);
  });

  it('the live feature holds the receiver (protobufjs) and draws its graphs with the shared engine', async () => {
    const inputs = await inputsOf('dist/live.js');
    assert.ok(has(inputs, PROTOBUF).length > 0 && inputs.includes('src/node/live/server.ts'));
    assert.deepEqual([...has(inputs, OPENAI), ...has(inputs, GRAPHOLOGY)], []);
  });

  it('the trace feature and the worker load the shared engine bundle instead of each holding a copy', async () => {
    for (const outfile of ['dist/trace.js', 'dist/analysisWorker.js']) {
      const inputs = await inputsOf(outfile);
      assert.deepEqual([...has(inputs, OPENAI), ...has(inputs, GRAPHOLOGY), ...has(inputs, ENGINE)], [], outfile);
    }
    const engine = await inputsOf('dist/engine.js');
    assert.ok(has(engine, ENGINE).length > 0 && has(engine, GRAPHOLOGY).length > 0);
    assert.deepEqual(has(engine, OPENAI), []);
  });

  it('only the LLM bundle holds the OpenAI SDK', async () => {
    const inputs = await inputsOf('dist/llm.js');
    assert.ok(has(inputs, OPENAI).length > 0);
    assert.deepEqual(has(inputs, GRAPHOLOGY), []);
  });
});
