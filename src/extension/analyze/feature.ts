// The trace feature, loaded on the first trace command (its own bundle, dist/trace.js, with the analysis engine in
// dist/engine.js: the guard, graphology, the importers and the graph panel stay out of activation): Analyze Trace, and
// the presentation and in-process analyser that Analyze Trace with LLM shares.
import * as vscode from 'vscode';
import { analyseForView, runAnalysisJob } from '../../node/engine';
import type { Services } from '../services';
import { GraphPanels } from './graphPanel';
import { createPresenter, pickTrace, type PresentTrace } from './present';
import { workerScript } from './worker';

/** What the trace feature offers the commands. */
export interface TraceFeature {
  /** Analyze Trace: the embedded guard in a worker; `episode` picks a run of a file that holds several. */
  analyzeTrace(uri?: vscode.Uri, episode?: number): ReturnType<PresentTrace>;
  /** The presentation every trace command shares. */
  present: PresentTrace;
  /** The analysis in this thread, for analysers (the LLM judge) that cannot cross into a worker. */
  analyseForView: typeof analyseForView;
}

/** Creates the feature's diagnostics and panels (disposed with the extension) and its commands' implementations. */
export function createTraceFeature(services: Services): TraceFeature {
  // Flagged output lines of analysed traces, shown in the Problems view.
  const diagnostics = vscode.languages.createDiagnosticCollection('agent-immune-trace');
  const panels = new GraphPanels();
  services.context.subscriptions.push(diagnostics, panels);
  const present = createPresenter(services, diagnostics, panels);
  const script = workerScript(services);
  return {
    present,
    analyseForView,
    async analyzeTrace(uri, episode) {
      const target = await pickTrace('Analyze', uri);
      return target ? present(target, (input, signal, onRound) => runAnalysisJob(input, { signal, onRound, workerScript: script }), { label: 'Analyze Trace', episode }) : undefined;
    },
  };
}
