// Signal verbatimSpread: the same long span (>= verbatimMinTokens shared word tokens) reappearing in the outputs of
// agents round after round along the run's edges (the guard's RunModel), a copy spreading hop by hop.
import type { RunModel } from '../guard/types';
import { wordHashes, wordSpans } from '../text/tokens';
import { evidenceOf } from './evidence';
import { cooldownKey, FINDING_CODE, type ChainHop, type MonitorFinding } from './types';

interface Carrier {
  round: number;
  /** Token index of the span's start in that agent's output of that round. */
  pos: number;
}

/** How one span travelled from one origin: who got it from whom, and when. */
interface Spread {
  origin: number;
  round: number;
  /** Agents reached, with the in-neighbour they got it from. */
  parent: Map<number, number>;
  signature: string;
}

/** Word hashes of agent i's round-k output already computed by the caller (as wordHashes below gives them), if any. */
export type WordHashesOf = (i: number, k: number) => ArrayLike<number> | undefined;

/**
 * Runs verbatimSpread over a run: one finding per origin agent and reach, with the longest chain of hops. `known` gives
 * word hashes the guard already computed for an output, so the text is not tokenised twice.
 */
export function verbatimSpread(model: RunModel, minTokens: number, minAgents: number, known?: WordHashesOf): MonitorFinding[] {
  // Shingles as 52-bit numbers (two 32-bit word-hash mixes): a 1,000-agent run holds millions of them, so no strings.
  const hashes = model.outputs.map((row, i) => row.map((text, k) => (text === undefined ? undefined : shingleHashes(known?.(i, k) ?? wordHashes(text), minTokens))));
  const excluded = new Set(shingleHashes(wordHashes(model.task?.question ?? ''), minTokens));
  const candidates = copiedAlongEdges(model, hashes, excluded);
  if (candidates.size === 0) return [];
  // candidate shingle -> agent -> the first round (and position) that agent carried it
  const carriers = new Map<number, Map<number, Carrier>>();
  for (let k = 0; k < model.rounds; k++) {
    model.agents.forEach((_, i) => {
      const row = hashes[i][k];
      if (!row) return;
      for (let p = 0; p < row.length; p++) {
        const key = row[p];
        if (!candidates.has(key)) continue;
        let byAgent = carriers.get(key);
        if (!byAgent) carriers.set(key, (byAgent = new Map()));
        if (!byAgent.has(i)) byAgent.set(i, { round: k, pos: p });
      }
    });
  }

  // Group the shingles of each spread (same origin, same reach) and keep their positions in the origin's output.
  const groups = new Map<string, { spread: Spread; positions: number[] }>();
  for (const byAgent of carriers.values()) {
    if (byAgent.size < minAgents) continue;
    for (const spread of spreadsOf(byAgent, model.inNeighbors)) {
      if (longestChain(spread).length < minAgents) continue;
      const group = groups.get(spread.signature) ?? { spread, positions: [] };
      group.positions.push(byAgent.get(spread.origin)!.pos);
      groups.set(spread.signature, group);
    }
  }

  const findings: MonitorFinding[] = [];
  for (const { spread, positions } of groups.values()) {
    const [first, last] = longestRun(positions.sort((a, b) => a - b));
    const spans = wordSpans(model.outputs[spread.origin][spread.round]!);
    const subject = model.agents[spread.origin];
    const text = model.outputs[spread.origin][spread.round]!;
    // Records copied from a tool's result into the next call (tau-bench's passengers: `"first_name": "Aarav", …`) are
    // data handed on, not a text spreading.
    if (isRecordData(text.slice(spans[first].start, spans[last + minTokens - 1].end))) continue;
    const roundOf = (i: number) => (i === spread.origin ? spread.round : carriers.get(hashes[spread.origin][spread.round]![first])!.get(i)!.round);
    const chain = longestChain(spread).map((i): ChainHop => ({ agent: model.agents[i], round: roundOf(i) }));
    findings.push({
      signal: 'verbatimSpread',
      code: FINDING_CODE.verbatimSpread,
      subject,
      evidence: evidenceOf({ subject, text, round: spread.round, line: model.lines[spread.origin][spread.round] }, spans[first].start, spans[last + minTokens - 1].end),
      markers: [`${last - first + minTokens} tokens`],
      cooldownKey: cooldownKey('verbatimSpread', subject),
      chain,
      sessions: [spread.origin, ...spread.parent.keys()].map((i) => model.agents[i]),
    });
  }
  return findings.sort((a, b) => (a.evidence.round ?? 0) - (b.evidence.round ?? 0) || a.subject.localeCompare(b.subject));
}

/** Three or more `"key":` fields: JSON records, not prose. */
function isRecordData(span: string): boolean {
  return (span.match(/"[\w.-]+"\s*:/g) ?? []).length >= 3;
}

/** The spreads of one shingle: agents that carried it first are origins; later carriers are reached through an in-edge. */
function spreadsOf(byAgent: Map<number, Carrier>, inNeighbors: number[][]): Spread[] {
  const order = [...byAgent].sort((a, b) => a[1].round - b[1].round || a[0] - b[0]);
  const firstRound = order[0][1].round;
  const rootOf = new Map<number, number>();
  const spreads = new Map<number, Spread>();
  for (const [agent, { round }] of order) {
    if (round === firstRound) {
      rootOf.set(agent, agent);
      spreads.set(agent, { origin: agent, round, parent: new Map(), signature: '' });
      continue;
    }
    // Heard from the carrier nearest the origin (the earliest): a copy counts as relayed only where no earlier carrier
    // could have handed it over directly.
    let from: number | undefined;
    for (const n of inNeighbors[agent]) {
      const carried = rootOf.has(n) ? byAgent.get(n)!.round : Infinity;
      if (carried < round && (from === undefined || carried < byAgent.get(from)!.round)) from = n;
    }
    if (from === undefined) continue;
    rootOf.set(agent, rootOf.get(from)!);
    spreads.get(rootOf.get(from)!)!.parent.set(agent, from);
  }
  for (const spread of spreads.values()) spread.signature = `${spread.origin}@${spread.round}:${[...spread.parent].map(([a, p]) => `${p}>${a}`).join(',')}`;
  return [...spreads.values()];
}

/** The longest origin-to-leaf path of a spread, as agent indexes. */
function longestChain(spread: Spread): number[] {
  let best = [spread.origin];
  for (const leaf of spread.parent.keys()) {
    const path = [leaf];
    while (spread.parent.has(path[0])) path.unshift(spread.parent.get(path[0])!);
    if (path.length > best.length) best = path;
  }
  return best;
}

/** The longest run of consecutive integers in a sorted list, as [first, last]. */
function longestRun(sorted: number[]): [number, number] {
  let best: [number, number] = [sorted[0], sorted[0]];
  let start = sorted[0];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] !== sorted[i - 1] + 1) start = sorted[i];
    if (sorted[i] - start > best[1] - best[0]) best = [start, sorted[i]];
  }
  return best;
}

/** Shingles an agent received: in its round-k output and in the last output of a sender before round k. */
function copiedAlongEdges(model: RunModel, hashes: (Float64Array | undefined)[][], excluded: Set<number>): Set<number> {
  const sorted = hashes.map((row) => row.map((h) => (h === undefined ? undefined : Float64Array.from(h).sort())));
  const lastBefore = (j: number, k: number) => {
    for (let r = k - 1; r >= 0; r--) if (sorted[j][r]) return sorted[j][r];
    return undefined;
  };
  const found = new Set<number>();
  for (let i = 0; i < model.agents.length; i++) {
    for (let k = 1; k < model.rounds; k++) {
      const own = model.outputs[i][k] === undefined ? undefined : sorted[i][k];
      if (!own) continue;
      for (const j of model.inNeighbors[i]) {
        const sent = lastBefore(j, k);
        if (sent) intersectInto(own, sent, found, excluded);
      }
    }
  }
  return found;
}

/** Adds the values two sorted arrays share (minus `excluded`) to `into`. */
function intersectInto(a: Float64Array, b: Float64Array, into: Set<number>, excluded: Set<number>): void {
  for (let x = 0, y = 0; x < a.length && y < b.length; ) {
    if (a[x] < b[y]) x++;
    else if (a[x] > b[y]) y++;
    else {
      if (!excluded.has(a[x])) into.add(a[x]);
      x++;
      y++;
    }
  }
}

/** The hash of every run of n consecutive words, by start position. */
function shingleHashes(wordHashes: ArrayLike<number>, n: number): Float64Array {
  const count = Math.max(0, wordHashes.length - n + 1);
  const out = new Float64Array(count);
  if (count === 0) return out;
  for (let p = 0; p < count; p++) {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let q = p; q < p + n; q++) {
      h1 = Math.imul(h1 ^ wordHashes[q], 0x01000193);
      h2 = Math.imul(h2 ^ wordHashes[q], 0x5bd1e995) ^ (h2 >>> 15);
    }
    out[p] = (h1 >>> 0) * 0x100000 + ((h2 >>> 0) & 0xfffff);
  }
  return out;
}
