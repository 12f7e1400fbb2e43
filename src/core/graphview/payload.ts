// What the infection-graph view draws: the analysis plus what the page cannot compute itself (each round's output with
// the spans the rehabilitation filter would remove, trace line numbers, a stable layout). Built by the extension host
// and by the CLI's --html report from the same trace, so both show the same picture.
import { buildRunModel } from '../guard/model';
import { filterManipulation } from '../guard/filter';
import type { Analysis } from '../guard/types';
import type { Trace } from '../trace/types';
import { computeLayout, type Positions } from './layout';
import { GRAPH_VIEW_SCHEMA, MAX_OUTPUT_CHARS, type GraphViewPayload, type OutputView } from './types';

export type { GraphViewPayload, OutputView } from './types';

/** Options for building the payload. */
export interface PayloadOptions {
  title?: string;
  /** Reuse positions from a previous payload when the topology did not change. */
  positions?: Positions;
}

/** The view's title for a run read from a file: the file, and the run's id (a file of many runs holds runs with the same task). */
export function runTitle(file: string, run: string | undefined): string {
  return run === undefined ? file : `${file} — run ${run}`;
}

/** Builds the view payload from the trace the analysis was computed on. */
export function buildGraphViewPayload(trace: Trace, analysis: Analysis, options: PayloadOptions = {}): GraphViewPayload {
  const model = buildRunModel(trace);
  const ids = analysis.agents.map((a) => a.id);
  const rows = ids.map((id) => model.index.get(id));
  const outputs = rows.map((i) =>
    analysis.rounds.map((_, k) => {
      const text = i === undefined ? undefined : model.outputs[i][k];
      return text === undefined ? null : outputView(text, i === undefined ? undefined : model.lines[i][k]);
    }),
  );
  const positions = options.positions && options.positions.length === ids.length * 2 ? options.positions : computeLayout(ids, analysis.edges);
  return { schema: GRAPH_VIEW_SCHEMA, analysis, positions, outputs, title: options.title ?? analysis.source ?? analysis.run ?? 'trace' };
}

/** The topology key: equal keys mean the cached layout still fits. */
export function topologyKey(analysis: Pick<Analysis, 'agents' | 'edges'>): string {
  return JSON.stringify([analysis.agents.map((a) => a.id), analysis.edges]);
}

/**
 * One output as the view shows it: whole, or past MAX_OUTPUT_CHARS its head and its tail around a marker (an order
 * appended to a long tool result, the usual place, stays in view), with what the filter would remove from that.
 */
function outputView(full: string, line: number | undefined): OutputView {
  const half = MAX_OUTPUT_CHARS / 2;
  const cut = full.length - MAX_OUTPUT_CHARS;
  const text = cut > 0 ? `${full.slice(0, half)}\n\n[… ${cut.toLocaleString('en-US')} characters not shown …]\n\n${full.slice(full.length - half)}` : full;
  const removed = filterManipulation(text).removed.map(({ start, end, reason }) => ({ start, end, reason }));
  return { text, truncated: Math.max(0, cut), ...(line ? { line } : {}), removed };
}
