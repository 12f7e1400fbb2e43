// Builds the bundles: the extension (activation, and the trace, LLM and live features it loads on first use, with the
// analysis engine the trace feature, the live feature's graph panel and the worker share), CLI, library API, webview
// and analysis worker, plus the integration tests. `--production` (vscode:prepublish, before vsce
// packages) minifies without source maps and leaves the tests out; the webview is always minified, since HTML reports
// inline it.
const path = require('node:path');
const esbuild = require('esbuild');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const extension = { platform: 'node', format: 'cjs', external: ['vscode'] };

/** The trace feature and the analysis worker load the analysis engine from dist/engine.js instead of each bundling it. */
const sharedEngine = {
  name: 'shared-engine',
  setup(build) {
    const engine = path.resolve('src/node/engine');
    build.onResolve({ filter: /engine$/ }, (args) => (path.resolve(args.resolveDir, args.path) === engine ? { path: './engine.js', external: true } : undefined));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const shipped = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', ...extension },
  // Loaded by the extension on the first trace command: the guard, graphology, the importers, the graph panel.
  { entryPoints: ['src/extension/analyze/feature.ts'], outfile: 'dist/trace.js', ...extension, plugins: [sharedEngine] },
  // The guard, the importers and the graph-view payload, for the trace feature and the worker.
  { entryPoints: ['src/node/engine.ts'], outfile: 'dist/engine.js', platform: 'node', format: 'cjs' },
  // Loaded on the first Analyze Trace with LLM: the OpenAI SDK and the LLM judge and filter.
  { entryPoints: ['src/extension/llm/feature.ts'], outfile: 'dist/llm.js', ...extension },
  // Loaded on the first Watch Live Runs: the OTLP receiver (protobufjs), its client, the online guard, the graph panel
  // (which loads the shared engine).
  { entryPoints: ['src/extension/live/feature.ts'], outfile: 'dist/live.js', ...extension, plugins: [sharedEngine] },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/lib.ts'], outfile: 'dist/lib.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', minify: true },
  { entryPoints: ['src/node/analysisWorker.ts'], outfile: 'dist/analysisWorker.js', platform: 'node', format: 'cjs', plugins: [sharedEngine] },
];

/** Integration tests for the extension host (scripts/vscode-test): the entry plus one bundle per suite; mocha resolved from node_modules. */
const tests = [
  { entryPoints: ['test/integration/index.ts', 'test/integration/suite/*.test.ts', 'test/integration/untrusted/*.test.ts'], outbase: 'test/integration', outdir: 'dist/test/integration', platform: 'node', format: 'cjs', external: ['vscode', 'mocha'] },
];

const bundles = [...shipped, ...(production ? [] : tests)].map((b) => ({
  bundle: true,
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  ...b,
  ...(b.platform === 'browser' ? { target: 'chrome114' } : {}),
}));

async function main() {
  if (watch) {
    for (const options of bundles) (await esbuild.context(options)).watch();
    console.log('esbuild: watching');
    return;
  }
  await Promise.all(bundles.map((options) => esbuild.build(options)));
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { shipped };
