// Trace analysis in the editor: the Analyze Trace command, whose implementation (dist/trace.js) loads on first use.
import * as vscode from 'vscode';
import { loadBundle, once } from '../bundles';
import { CommandId } from '../ids';
import type { Services } from '../services';
import type { TraceFeature } from './feature';

/** Registers Analyze Trace; returns the trace feature (loaded on first call) the LLM command presents through. */
export function registerAnalyze(services: Services): () => TraceFeature {
  const trace = once(() => loadBundle(services, 'trace').createTraceFeature(services));
  // A second argument { episode: N } picks run N of a file that holds several (Choose Run… does it in the UI).
  const analyzeTrace = (uri?: vscode.Uri, run?: { episode?: unknown }) => trace().analyzeTrace(uri, runNumber(run?.episode));
  services.context.subscriptions.push(vscode.commands.registerCommand(CommandId.AnalyzeTrace, analyzeTrace));
  return trace;
}

/** A run number from a command argument: a non-negative integer, else none (the first run). */
function runNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
