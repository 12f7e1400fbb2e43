// Measures, in a fresh process, what activating the built extension costs: the time to load dist/extension.js and to
// run activate() against a stand-in `vscode` module (every API a no-op), which bundles Node loaded by then, and the
// time to load each feature bundle afterwards. Bundled by activation.bench.ts; prints one JSON line.
import Module from 'node:module';
import * as path from 'node:path';

/** A stand-in for any vscode API: every property, call and `new` returns another stand-in; iterating yields nothing. */
function standIn(): unknown {
  const cache = new Map<PropertyKey, unknown>();
  const target = function () {};
  return new Proxy(target, {
    get(_, key) {
      if (key === Symbol.iterator) return function* () {};
      if (key === Symbol.toPrimitive) return () => '';
      if (key === 'then') return undefined;
      if (!cache.has(key)) cache.set(key, standIn());
      return cache.get(key);
    },
    set(_, key, value) {
      cache.set(key, value);
      return true;
    },
    apply: () => standIn(),
    construct: () => standIn() as object,
  });
}

const extensionJs = path.resolve(process.argv[2]);
const dist = path.dirname(extensionJs);
/** The vscode namespaces and classes the extension uses (a bundle copies the module's own keys at load). */
const API = ['window', 'workspace', 'languages', 'commands', 'extensions', 'env', 'lm', 'Uri', 'Range', 'Position', 'Selection', 'Diagnostic', 'DiagnosticSeverity', 'CodeAction', 'CodeActionKind', 'WorkspaceEdit', 'EventEmitter', 'ThemeColor', 'StatusBarAlignment', 'RelativePattern', 'ProgressLocation', 'ViewColumn', 'ConfigurationTarget', 'CancellationTokenSource', 'CancellationError', 'LanguageModelChatMessage', 'LanguageModelError', 'TabInputWebview', 'Disposable'];
const vscode = Object.fromEntries(API.map((name) => [name, standIn()]));
const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: typeof load })._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};
process.on('unhandledRejection', () => undefined);

const loadedBundles = () => Object.keys(require.cache).filter((file) => path.dirname(file) === dist).map((file) => path.basename(file)).sort();
const t0 = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require(extensionJs) as { activate(context: unknown): void };
const t1 = performance.now();
extension.activate({ subscriptions: [], extensionPath: path.dirname(dist), extensionUri: standIn(), workspaceState: standIn(), secrets: standIn(), globalState: standIn() });
const t2 = performance.now();
const atActivation = loadedBundles();
const later: Record<string, number> = {};
for (const bundle of ['trace.js', 'llm.js']) {
  const file = path.join(dist, bundle);
  if (atActivation.includes(bundle)) continue;
  const start = performance.now();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
    later[bundle] = performance.now() - start;
  } catch {
    // no such bundle in this build (everything was in extension.js)
  }
}
console.log(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, atActivation, laterMs: later }));
setImmediate(() => process.exit(0));
