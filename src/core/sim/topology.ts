// Directed communication graphs for the simulator: chain, tree and star (edges both ways) and random directed graphs
// by density or by average out-degree (for large runs).
import { Rng } from './rng';

/** The topology families the literature uses. */
export type TopologyKind = 'chain' | 'tree' | 'star' | 'random';
export const TOPOLOGIES: readonly TopologyKind[] = ['chain', 'tree', 'star', 'random'];

/** Builds directed edges [from, to] over agents 0..n-1. For random graphs give a density or an average out-degree. */
export function buildEdges(kind: TopologyKind, n: number, rng: Rng, options: { density?: number; outDegree?: number } = {}): [number, number][] {
  const edges: [number, number][] = [];
  const both = (a: number, b: number) => edges.push([a, b], [b, a]);
  if (kind === 'chain') for (let i = 1; i < n; i++) both(i - 1, i);
  else if (kind === 'tree') for (let i = 1; i < n; i++) both(Math.floor((i - 1) / 2), i);
  else if (kind === 'star') for (let i = 1; i < n; i++) both(0, i);
  else return randomEdges(n, rng, options);
  return edges;
}

function randomEdges(n: number, rng: Rng, options: { density?: number; outDegree?: number }): [number, number][] {
  const out = Array.from({ length: n }, () => new Set<number>());
  if (options.outDegree !== undefined) {
    const d = Math.min(n - 1, options.outDegree);
    for (let i = 0; i < n; i++) {
      const want = Math.max(1, Math.min(n - 1, Math.round(d + rng.range(-1, 1))));
      while (out[i].size < want) {
        const j = rng.int(n);
        if (j !== i) out[i].add(j);
      }
    }
  } else {
    const density = options.density ?? 0.5;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && rng.chance(density)) out[i].add(j);
  }
  // Everyone hears from and talks to at least one peer, so no agent is cut off by chance.
  const hasIn = new Array<boolean>(n).fill(false);
  out.forEach((s) => s.forEach((j) => (hasIn[j] = true)));
  for (let i = 0; i < n; i++) {
    if (out[i].size === 0) out[i].add((i + 1 + rng.int(n - 1)) % n);
    if (!hasIn[i]) {
      const from = (i + 1 + rng.int(n - 1)) % n;
      out[from].add(i);
      hasIn[i] = true;
    }
  }
  return out.flatMap((s, i) => [...s].sort((a, b) => a - b).map((j) => [i, j] as [number, number]));
}
