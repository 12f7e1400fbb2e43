// The feature bundles loaded on first use, not at activation (esbuild.js builds each as dist/<name>.js): the trace
// feature (the graph panel; it loads the analysis engine, dist/engine.js: guard, graphology, importers), the LLM
// upgrade (the OpenAI SDK) and Watch Live Runs (the receiver, protobufjs and the online guard; its graph panel loads
// the engine too).
import * as path from 'node:path';
import type { createTraceFeature } from './analyze/feature';
import type { createLiveFeature } from './live/feature';
import type { analyzeWithLlm } from './llm/feature';
import type { BaseServices } from './services';

/** What each bundle exports. */
interface Bundles {
  trace: { createTraceFeature: typeof createTraceFeature };
  llm: { analyzeWithLlm: typeof analyzeWithLlm };
  live: { createLiveFeature: typeof createLiveFeature };
}

/** Loads a feature bundle (Node caches it: the second call returns the same module). */
export function loadBundle<K extends keyof Bundles>(services: BaseServices, name: K): Bundles[K] {
  // A computed path: esbuild leaves the bundle out of dist/extension.js, and Node loads it on this first call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(services.context.extensionPath, 'dist', `${name}.js`)) as Bundles[K];
}

/** A value computed on first use and kept. */
export function once<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}
