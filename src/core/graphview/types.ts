// The infection-graph view's data contract (schema agent-immune/graph-view/v1), shared by the host, the CLI report
// and the page. Types and constants only, so the browser bundle pulls in no guard code.
import type { Analysis, RemovedSpan } from '../guard/types';

export const GRAPH_VIEW_SCHEMA = 'agent-immune/graph-view/v1';

/** Longest output text carried to the page; the rest is counted, not sent (a 10 MB message stays a 10 MB file). */
export const MAX_OUTPUT_CHARS = 20_000;

/** One agent's output in one round, as the side panel shows it. */
export interface OutputView {
  text: string;
  /** Characters cut from the middle of the original output, its head and tail kept (0 when whole). */
  truncated: number;
  /** 1-based trace line of the message, when known. */
  line?: number;
  /** Spans of `text` the rehabilitation filter would remove. */
  removed: Pick<RemovedSpan, 'start' | 'end' | 'reason'>[];
}

/** Everything the view needs; arrays are aligned with `analysis.agents`. */
export interface GraphViewPayload {
  schema: typeof GRAPH_VIEW_SCHEMA;
  analysis: Analysis;
  /** Flat [x0, y0, x1, y1, ...] positions, one pair per agent. */
  positions: number[];
  /** outputs[agent][round]: null when the agent was silent that round. */
  outputs: (OutputView | null)[][];
  /** Display name of the trace (relative path or file name). */
  title: string;
  /** Set for a run that is being received (Watch Live Runs): open while spans still arrive, closed once it ended. The
   * page then marks the view live and keeps the round slider on the latest round unless the user moved it. */
  live?: { state: 'open' | 'closed' };
}

/** The id of the <script> data element a standalone report keeps its payload in. */
export const PAYLOAD_ELEMENT_ID = 'agent-immune-payload';

/** How a report's payload element is encoded: the payload's JSON, gzipped, then base64. */
export const PAYLOAD_ENCODING = 'gzip-base64';

/** User Timing marks the page sets at each mount: the view is drawn, then the first frame that shows it. */
export const MARK_READY = 'agent-immune:ready';
export const MARK_FIRST_FRAME = 'agent-immune:first-frame';
