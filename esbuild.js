// Builds the bundles: extension (cjs, vscode external), CLI (node), library API (node), webview (browser), integration tests.
const esbuild = require('esbuild');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/lib.ts'], outfile: 'dist/lib.js', platform: 'node', format: 'cjs' },
  { entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' },
  { entryPoints: ['src/node/analysisWorker.ts'], outfile: 'dist/analysisWorker.js', platform: 'node', format: 'cjs' },
  // Integration tests for the extension host (scripts/vscode-test): the entry plus one bundle per suite; mocha resolved from node_modules.
  { entryPoints: ['test/integration/index.ts', 'test/integration/suite/*.test.ts', 'test/integration/untrusted/*.test.ts'], outbase: 'test/integration', outdir: 'dist/test/integration', platform: 'node', format: 'cjs', external: ['vscode', 'mocha'] },
].map((b) => ({
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
