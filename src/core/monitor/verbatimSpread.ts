// Signal verbatimSpread: the same long span (>= verbatimMinTokens shared word tokens) reappearing in the outputs of
// agents round after round along the run's edges (the guard's RunModel), a copy spreading hop by hop.
import type { RunModel } from '../guard/types';
import { words, wordSpans } from '../text/tokens';
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

/** Runs verbatimSpread over a run: one finding per origin agent and reach, with the longest chain of hops. */
export function verbatimSpread(model: RunModel, minTokens: number, minAgents: number): MonitorFinding[] {
  const tokens = model.outputs.map((row) => row.map((text) => (text === undefined ? undefined : wordSpans(text))));
  const excluded = shingleSet(model.task?.question ? words(model.task.question) : [], minTokens);
  // shingle -> agent -> the first round (and position) that agent carried it
  const carriers = new Map<string, Map<number, Carrier>>();
  for (let k = 0; k < model.rounds; k++) {
    model.agents.forEach((_, i) => {
      const spans = tokens[i][k];
      if (!spans) return;
      for (let p = 0; p + minTokens <= spans.length; p++) {
        const key = shingle(spans, p, minTokens);
        if (excluded.has(key)) continue;
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
      if (spread.parent.size + 1 < minAgents) continue;
      const group = groups.get(spread.signature) ?? { spread, positions: [] };
      group.positions.push(byAgent.get(spread.origin)!.pos);
      groups.set(spread.signature, group);
    }
  }

  const findings: MonitorFinding[] = [];
  for (const { spread, positions } of groups.values()) {
    const [first, last] = longestRun(positions.sort((a, b) => a - b));
    const spans = tokens[spread.origin][spread.round]!;
    const subject = model.agents[spread.origin];
    const text = model.outputs[spread.origin][spread.round]!;
    const chain = longestChain(spread).map((i): ChainHop => ({ agent: model.agents[i], round: i === spread.origin ? spread.round : carriers.get(shingle(spans, first, minTokens))!.get(i)!.round }));
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
    const from = inNeighbors[agent].find((n) => rootOf.has(n) && byAgent.get(n)!.round < round);
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

function shingle(spans: { word: string }[], p: number, n: number): string {
  let key = spans[p].word;
  for (let q = p + 1; q < p + n; q++) key += ' ' + spans[q].word;
  return key;
}

function shingleSet(tokens: string[], n: number): Set<string> {
  const set = new Set<string>();
  for (let p = 0; p + n <= tokens.length; p++) set.add(tokens.slice(p, p + n).join(' '));
  return set;
}
