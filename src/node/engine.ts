// The analysis engine the editor's trace feature, the live feature's graph panel and the analysis worker share: the
// guard, the importers and the graph-view payload and layout. esbuild.js builds it once, as dist/engine.js, and all
// three load that file, so the packaged extension carries the engine once.
export { analyseForView, runAnalysisJob } from './analysisJob';
export { computeLayout } from '../core/graphview/layout';
export { buildGraphViewPayload, topologyKey } from '../core/graphview/payload';
export { reportHtmlFor } from './graphReport';
