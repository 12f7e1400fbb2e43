// Stable force-directed layout for the infection graph: computed once per topology (ForceAtlas2 from a seeded circle),
// so positions never move between rounds and the same trace always draws the same picture.
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';

/** Positions as a flat array [x0, y0, x1, y1, ...] aligned with the `agents` order. */
export type Positions = number[];

/** Iterations by graph size: small graphs settle fully, big ones get a Barnes-Hut pass that fits the time budget. */
function iterationsFor(order: number): number {
  if (order <= 50) return 300;
  if (order <= 500) return 150;
  return 40;
}

/**
 * Lays out a directed graph deterministically; isolated agents land on the outer circle. The graph's node keys are the
 * agents' indices: graphology keeps neighbours in plain objects, where an agent named `__proto__` or `hasOwnProperty`
 * breaks it.
 */
export function computeLayout(agents: readonly string[], edges: readonly (readonly [string, string])[]): Positions {
  const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const n = agents.length;
  const index = new Map(agents.map((id, i) => [id, String(i)]));
  agents.forEach((_, i) => {
    // Seeded start: a circle (golden-angle spiral for big graphs keeps the first iterations cheap).
    const angle = n > 200 ? i * 2.399963229728653 : (2 * Math.PI * i) / Math.max(1, n);
    const radius = n > 200 ? Math.sqrt(i + 1) * 10 : 100;
    graph.addNode(String(i), { x: Math.cos(angle) * radius, y: Math.sin(angle) * radius });
  });
  for (const [fromId, toId] of edges) {
    const from = index.get(fromId);
    const to = index.get(toId);
    if (from !== undefined && to !== undefined && from !== to && !graph.hasEdge(from, to)) graph.addEdge(from, to);
  }
  if (graph.size > 0 && n > 2) {
    const settings = { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: n > 300, gravity: 1, scalingRatio: n > 300 ? 20 : 10 };
    forceAtlas2.assign(graph, { iterations: iterationsFor(n), settings });
  }
  const out: Positions = new Array(n * 2);
  agents.forEach((_, i) => {
    out[2 * i] = round2(graph.getNodeAttribute(String(i), 'x') as number);
    out[2 * i + 1] = round2(graph.getNodeAttribute(String(i), 'y') as number);
  });
  return out;
}

function round2(v: number): number {
  return Number.isFinite(v) ? Math.round(v * 100) / 100 : 0;
}
