// The host <-> page message protocol of the infection-graph view: one typed union each way, validated on receipt by
// whichever side receives (the page trusts nothing it did not check; neither does the host).
import { GRAPH_VIEW_SCHEMA, type GraphViewPayload } from '../core/graphview/types';
import { REMEDIATION_ACTIONS } from '../core/guard/types';

/** Messages the extension host posts to the page. */
export type HostMessage =
  | { type: 'analysis'; generation: number; payload: GraphViewPayload }
  | { type: 'status'; state: 'analysing' | 'idle' | 'error'; message?: string };

/** Messages the page posts to the host. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'openLine'; line: number }
  | { type: 'savePng'; dataUrl: string }
  | { type: 'saveHtml' }
  | { type: 'reanalyse' };

/** Largest PNG data URL the host accepts (a 4k screenshot is well below). */
export const MAX_PNG_DATA_URL = 40 * 1024 * 1024;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the payload's shape deeply enough that the page can index it without throwing. */
export function isGraphViewPayload(value: unknown): value is GraphViewPayload {
  if (!isObject(value) || value.schema !== GRAPH_VIEW_SCHEMA || typeof value.title !== 'string') return false;
  const analysis = value.analysis;
  if (!isObject(analysis) || analysis.schema !== 'agent-immune/analysis/v1') return false;
  const { agents, edges, rounds, sources, infectionPaths, remediation } = analysis;
  if (!Array.isArray(agents) || !Array.isArray(edges) || !Array.isArray(rounds) || !Array.isArray(sources)) return false;
  if (!Array.isArray(infectionPaths) || !Array.isArray(remediation)) return false;
  if (!agents.every((a) => isObject(a) && typeof a.id === 'string' && isCategory(a.category))) return false;
  if (!edges.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'string')) return false;
  if (!rounds.every((r) => isObject(r) && typeof r.round === 'number' && isObject(r.agents))) return false;
  if (!infectionPaths.every((p) => Array.isArray(p) && p.every((s) => typeof s === 'string'))) return false;
  if (!remediation.every((s) => isObject(s) && typeof s.agent === 'string' && (REMEDIATION_ACTIONS as readonly unknown[]).includes(s.action))) return false;
  if (analysis.alerts !== undefined && !(Array.isArray(analysis.alerts) && analysis.alerts.every(isAlert))) return false;
  if (value.live !== undefined && !(isObject(value.live) && (value.live.state === 'open' || value.live.state === 'closed'))) return false;
  const { positions, outputs } = value;
  if (!Array.isArray(positions) || positions.length !== agents.length * 2 || !positions.every((p) => typeof p === 'number' && Number.isFinite(p))) return false;
  if (!Array.isArray(outputs) || outputs.length !== agents.length) return false;
  return outputs.every((row) => Array.isArray(row) && row.every((o) => o === null || isOutputView(o)));
}

function isOutputView(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.text === 'string' &&
    typeof value.truncated === 'number' &&
    Array.isArray(value.removed) &&
    value.removed.every((s) => isObject(s) && Number.isInteger(s.start) && Number.isInteger(s.end) && (s.start as number) <= (s.end as number))
  );
}

function isAlert(value: unknown): boolean {
  if (!isObject(value) || typeof value.signal !== 'string' || typeof value.subject !== 'string') return false;
  if (!Array.isArray(value.markers) || !value.markers.every((m) => typeof m === 'string')) return false;
  if (value.sessions !== undefined && !(Array.isArray(value.sessions) && value.sessions.every((m) => typeof m === 'string'))) return false;
  return value.chain === undefined || (Array.isArray(value.chain) && value.chain.every((h) => isObject(h) && typeof h.agent === 'string'));
}

function isCategory(value: unknown): boolean {
  return value === 'benign' || value === 'attacker' || value === 'infected';
}

/** Validates a message received by the page; undefined when it is not a HostMessage. */
export function parseHostMessage(value: unknown): HostMessage | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'analysis') {
    return Number.isInteger(value.generation) && isGraphViewPayload(value.payload)
      ? { type: 'analysis', generation: value.generation as number, payload: value.payload }
      : undefined;
  }
  if (value.type === 'status') {
    if (value.state !== 'analysing' && value.state !== 'idle' && value.state !== 'error') return undefined;
    if (value.message !== undefined && typeof value.message !== 'string') return undefined;
    return { type: 'status', state: value.state, ...(value.message !== undefined ? { message: value.message } : {}) };
  }
  return undefined;
}

/** Validates a message received by the host; undefined when it is not a PageMessage. */
export function parsePageMessage(value: unknown): PageMessage | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'ready':
    case 'saveHtml':
    case 'reanalyse':
      return { type: value.type };
    case 'openLine':
      return Number.isInteger(value.line) && (value.line as number) >= 1 ? { type: 'openLine', line: value.line as number } : undefined;
    case 'savePng':
      return typeof value.dataUrl === 'string' && value.dataUrl.length <= MAX_PNG_DATA_URL && /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/.test(value.dataUrl)
        ? { type: 'savePng', dataUrl: value.dataUrl }
        : undefined;
    default:
      return undefined;
  }
}
