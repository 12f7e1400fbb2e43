// The page's precomputed per-round view of a payload: dense arrays indexed [round][agent] so moving the round slider
// is a lookup, not a recomputation. Pure (no DOM), unit-tested in Node.
import type { Category } from '../core/trace/types';
import type { AgentRound } from '../core/guard/types';
import type { GraphViewPayload } from '../core/graphview/types';

/** Per-round, per-agent arrays plus the indexes the view needs. */
export interface ViewModel {
  payload: GraphViewPayload;
  ids: string[];
  index: Map<string, number>;
  rounds: number;
  /** category[k][i], score[k][i] = max(P_atk, P_inf) */
  category: Category[][];
  score: number[][];
  detail: (AgentRound | undefined)[][];
  /** First round an agent is flagged (Infinity when never). */
  firstFlagged: number[];
  /** Edge keys "from->to" that lie on an infection path. */
  pathEdges: Set<string>;
  /** The round an infection-path edge becomes active (both ends flagged). */
  pathEdgeRound: Map<string, number>;
  remediationByAgent: Map<string, GraphViewPayload['analysis']['remediation'][number]>;
}

/** Key of a directed edge. */
export function edgeKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}

/** Builds the per-round arrays from a validated payload. */
export function buildViewModel(payload: GraphViewPayload): ViewModel {
  const { analysis } = payload;
  const ids = analysis.agents.map((a) => a.id);
  const index = new Map(ids.map((id, i) => [id, i] as const));
  const rounds = analysis.rounds.length;
  const detail = analysis.rounds.map((r) => ids.map((id) => (Object.prototype.hasOwnProperty.call(r.agents, id) ? r.agents[id] : undefined)));
  const category = detail.map((row, k) => row.map((d, i) => d?.category ?? (k === rounds - 1 ? analysis.agents[i].category : 'benign')));
  const score = detail.map((row) => row.map((d) => (d ? Math.max(d.pAtk, d.pInf) : 0)));
  const firstFlagged = ids.map((_, i) => {
    const k = category.findIndex((row) => row[i] !== 'benign');
    return k < 0 ? Infinity : k;
  });
  const pathEdges = new Set<string>();
  const pathEdgeRound = new Map<string, number>();
  for (const path of analysis.infectionPaths) {
    for (let j = 1; j < path.length; j++) {
      const key = edgeKey(path[j - 1], path[j]);
      pathEdges.add(key);
      const a = index.get(path[j - 1]);
      const b = index.get(path[j]);
      if (a !== undefined && b !== undefined) pathEdgeRound.set(key, Math.max(firstFlagged[a], firstFlagged[b]));
    }
  }
  const remediationByAgent = new Map(analysis.remediation.map((step) => [step.agent, step] as const));
  return { payload, ids, index, rounds, category, score, detail, firstFlagged, pathEdges, pathEdgeRound, remediationByAgent };
}

/** Counts per category in round k. */
export function countsAt(model: ViewModel, k: number): Record<Category, number> {
  const counts: Record<Category, number> = { benign: 0, attacker: 0, infected: 0 };
  for (const c of model.category[k] ?? []) counts[c]++;
  return counts;
}

/** Whether an infection-path edge is lit in round k. */
export function pathEdgeActive(model: ViewModel, key: string, k: number): boolean {
  const at = model.pathEdgeRound.get(key);
  return at !== undefined && at <= k;
}

/** Agents matching a search: by id substring (case-insensitive) and/or category in round k. */
export function matchAgents(model: ViewModel, query: string, category: Category | 'all', k: number): number[] {
  const q = query.trim().toLowerCase();
  const out: number[] = [];
  model.ids.forEach((id, i) => {
    if (category !== 'all' && model.category[k][i] !== category) return;
    if (q && !id.toLowerCase().includes(q)) return;
    out.push(i);
  });
  return out;
}
