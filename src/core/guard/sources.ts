// Source inference and infection paths: trace back from each infected agent, along edges, to the attacker upstream.
import type { Category } from '../trace/types';

/** Per-round categories and P_atk the trace-back uses. */
export interface TraceBackInput {
  agents: string[];
  inNeighbors: number[][];
  /** categories[k][i] */
  categories: Category[][];
  /** pAtk[k][i] */
  pAtk: number[][];
}

/** Sources (ordered, most likely first) and one infection path per infected agent, earliest infection first. */
export interface TraceBackResult {
  sources: string[];
  infectionPaths: string[][];
}

/** Traces every finally-infected agent back to its source attacker. */
export function inferSourcesAndPaths(input: TraceBackInput): TraceBackResult {
  const rounds = input.categories.length;
  const last = input.categories[rounds - 1];
  const attackers = new Set(last.flatMap((c, i) => (c === 'attacker' ? [i] : [])));
  const firstInfected = input.agents.map((_, i) => {
    for (let k = 0; k < rounds; k++) if (input.categories[k][i] === 'infected') return k;
    return Infinity;
  });
  // An agent flagged attacker in some round counts as one, unless it ends infected: then the early flag was the head
  // misreading a victim, and the trace-back goes on past it (an agent is never its own source).
  const everAttacker = (i: number) => attackers.has(i) || (last[i] !== 'infected' && input.categories.some((row) => row[i] === 'attacker'));

  const paths: { path: number[]; round: number }[] = [];
  for (let i = 0; i < input.agents.length; i++) {
    if (last[i] !== 'infected') continue;
    const path = [i];
    const seen = new Set([i]);
    let at = i;
    while (!everAttacker(at)) {
      const round = Math.min(firstInfected[at], rounds - 1);
      const scoreRound = Math.max(0, round - 1);
      const candidates = input.inNeighbors[at].filter((j) => !seen.has(j));
      if (candidates.length === 0) break;
      const compromised = candidates.filter((j) => everAttacker(j) || firstInfected[j] < firstInfected[at]);
      const pool = compromised.length > 0 ? compromised : candidates;
      const parent = pool.reduce((best, j) => (input.pAtk[scoreRound][j] > input.pAtk[scoreRound][best] ? j : best));
      if (compromised.length === 0 && !everAttacker(parent)) break;
      path.push(parent);
      seen.add(parent);
      at = parent;
    }
    paths.push({ path: path.reverse(), round: firstInfected[i] });
  }
  paths.sort((a, b) => a.round - b.round || a.path.length - b.path.length || a.path[a.path.length - 1] - b.path[b.path.length - 1]);

  const finalAtk = input.pAtk[rounds - 1];
  const sourceOrder: number[] = [];
  for (const { path } of paths) if (everAttacker(path[0]) && !sourceOrder.includes(path[0])) sourceOrder.push(path[0]);
  // Attackers no path starts from: the earliest flagged first (one that held its position from round 0 before one the
  // head flagged in the last round), then by P_atk.
  const flaggedFrom = (i: number) => input.categories.findIndex((row) => row[i] === 'attacker');
  const rest = [...attackers].filter((a) => !sourceOrder.includes(a)).sort((a, b) => flaggedFrom(a) - flaggedFrom(b) || finalAtk[b] - finalAtk[a]);
  return {
    sources: [...sourceOrder, ...rest].map((i) => input.agents[i]),
    infectionPaths: paths.map(({ path }) => path.map((i) => input.agents[i])),
  };
}
