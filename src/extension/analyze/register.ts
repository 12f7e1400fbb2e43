// Trace analysis in the editor: the Analyze Trace command, whose implementation (dist/trace.js) loads on first use.
import * as vscode from 'vscode';
import { loadBundle, once } from '../bundles';
import { CommandId } from '../ids';
import type { Services } from '../services';
import type { TraceFeature } from './feature';

/** Registers Analyze Trace; returns the trace feature (loaded on first call) the LLM command presents through. */
export function registerAnalyze(services: Services): () => TraceFeature {
  const trace = once(() => loadBundle(services, 'trace').createTraceFeature(services));
  services.context.subscriptions.push(vscode.commands.registerCommand(CommandId.AnalyzeTrace, (uri?: vscode.Uri) => trace().analyzeTrace(uri)));
  return trace;
}
