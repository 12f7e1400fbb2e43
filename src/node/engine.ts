// The analysis engine the editor's trace feature and the analysis worker share: the guard, the importers and the
// graph-view payload and layout. esbuild.js builds it once, as dist/engine.js, and both load that file, so the
// packaged extension carries the engine once.
export { analyseForView, runAnalysisJob } from './analysisJob';
export { computeLayout } from '../core/graphview/layout';
export { topologyKey } from '../core/graphview/payload';
export { reportHtmlFor } from './graphReport';
