// Turns a parsed Trace into the dense RunModel the guard works on: outputs per agent per round and indexed adjacency.
import type { Category, Trace, TraceWarning } from '../trace/types';
import type { RunModel } from './types';

/**
 * Builds the RunModel: several messages from one agent in one round are that round's output, joined in line order. An
 * empty or whitespace-only message is silence, not an output (the agent keeps what it said before).
 */
export function buildRunModel(trace: Trace): RunModel {
  const agents = trace.agents.map((a) => a.id);
  const index = new Map(agents.map((id, i) => [id, i]));
  const rounds = trace.messages.reduce((max, m) => Math.max(max, m.round + 1), 0);
  const outputs: (string | undefined)[][] = agents.map(() => new Array(rounds).fill(undefined));
  const lines: (number | undefined)[][] = agents.map(() => new Array(rounds).fill(undefined));
  const addressed: (Set<number> | null | undefined)[][] = agents.map(() => new Array(rounds).fill(undefined));
  const warnings: TraceWarning[] = [...trace.warnings];
  // One warning of each kind, at its first line, with how often it recurred: a run of a million messages, nine in ten a
  // second output, gave as many warnings.
  const repeated = new DuplicateWarnings('repeats its round-{round} output; the copy is ignored');
  const joined = new DuplicateWarnings('sent more than one output in round {round}; they are joined as one');

  for (const message of trace.messages) {
    if (message.content.trim() === '') continue;
    const i = index.get(message.from)!;
    // A message to everyone makes the round's output everyone's (null); otherwise its recipients join the round's.
    const to = addressed[i][message.round];
    if (message.to === undefined) addressed[i][message.round] = null;
    else if (to !== null) {
      const joined = to ?? new Set<number>();
      for (const id of message.to) joined.add(index.get(id)!);
      addressed[i][message.round] = joined;
    }
    const previous = outputs[i][message.round];
    if (previous === undefined) {
      outputs[i][message.round] = message.content;
      lines[i][message.round] = message.line;
    } else if (previous === message.content || previous.endsWith('\n\n' + message.content)) {
      repeated.add(message);
    } else {
      outputs[i][message.round] = previous + '\n\n' + message.content;
      joined.add(message);
    }
  }
  warnings.push(...repeated.warnings(), ...joined.warnings());

  const inSets = agents.map(() => new Set<number>());
  const outSets = agents.map(() => new Set<number>());
  for (const [from, to] of trace.edges) {
    const f = index.get(from);
    const t = index.get(to);
    if (f === undefined || t === undefined || f === t) continue;
    outSets[f].add(t);
    inSets[t].add(f);
  }
  if (trace.topology === 'header') {
    // Messages addressed outside the header topology still delivered content: count them as edges too.
    for (const message of trace.messages) {
      const f = index.get(message.from)!;
      for (const to of message.to ?? []) {
        const t = index.get(to)!;
        if (t !== f && !outSets[f].has(t)) {
          outSets[f].add(t);
          inSets[t].add(f);
        }
      }
    }
  }
  const inNeighbors = inSets.map((s) => [...s].sort((a, b) => a - b));
  const outNeighbors = outSets.map((s) => [...s].sort((a, b) => a - b));

  let labels: (Category | undefined)[][] | undefined;
  if (trace.labels.length > 0) {
    labels = agents.map(() => new Array(rounds).fill(undefined));
    for (const label of trace.labels) {
      if (label.round < rounds) labels[index.get(label.agent)!][label.round] = label.category;
    }
    // A label holds from its round until the next label for that agent.
    for (const row of labels) for (let k = 1; k < rounds; k++) row[k] ??= row[k - 1];
  }

  return {
    run: trace.run,
    task: trace.task,
    agents,
    roles: trace.agents.map((a) => a.role),
    index,
    rounds,
    outputs,
    lines,
    recipients: addressed.map((row) => row.map((to) => (to ? [...to].sort((a, b) => a - b) : undefined))),
    inNeighbors,
    outNeighbors,
    labels,
    topologyKind: topologyKind(inNeighbors, outNeighbors),
    warnings,
  };
}

/** Classifies the topology: chain (a path), star (one hub, leaves only touch it), tree (one root, in-degree <= 1, acyclic), else other. */
export function topologyKind(inNeighbors: number[][], outNeighbors: number[][]): RunModel['topologyKind'] {
  const n = inNeighbors.length;
  if (n < 3) return 'other';
  const undirected = inNeighbors.map((ins, i) => new Set([...ins, ...outNeighbors[i]]));
  const edgeCount = undirected.reduce((sum, s) => sum + s.size, 0) / 2;
  const degrees = undirected.map((s) => s.size);
  const connected = reachableCount(undirected) === n;
  if (!connected || edgeCount !== n - 1) return 'other';
  if (degrees.every((d) => d <= 2)) return 'chain';
  if (degrees.filter((d) => d === 1).length === n - 1) return 'star';
  return 'tree';
}

function reachableCount(undirected: Set<number>[]): number {
  const seen = new Set<number>([0]);
  const queue = [0];
  while (queue.length) {
    for (const next of undirected[queue.pop()!]) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen.size;
}

/** A duplicate-output warning kept once, at the first message it concerns, with a count of the messages after it. */
class DuplicateWarnings {
  private first: TraceWarning | undefined;
  private more = 0;

  /** `text` follows the sender's id; "{round}" is the message's round. */
  constructor(private readonly text: string) {}

  add(message: { from: string; round: number; line: number }): void {
    if (this.first) this.more++;
    else this.first = { code: 'duplicate-output', line: message.line, message: `${message.from} ${this.text.replace('{round}', String(message.round))}` };
  }

  /** The warning, if any message needed it. */
  warnings(): TraceWarning[] {
    if (!this.first) return [];
    return [this.more === 0 ? this.first : { ...this.first, message: `${this.first.message} (and ${this.more} more such output(s) in this run)` }];
  }
}
