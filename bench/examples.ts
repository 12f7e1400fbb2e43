// `npm run examples`: regenerates the labelled example traces in examples/traces/ from the simulator (held-out
// phrasings and questions, fixed seeds), one per topology plus a larger random one.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { serializeTrace } from '../src/core/trace/parse';
import type { AttackFamily } from '../src/core/sim/phrasings';
import { simulate, type EpisodeConfig } from '../src/core/sim/simulate';
import type { TopologyKind } from '../src/core/sim/topology';

const EXAMPLES: { file: string; topology: TopologyKind; agents: number; attackers: number; family: AttackFamily; density?: number }[] = [
  { file: 'chain-6.jsonl', topology: 'chain', agents: 6, attackers: 1, family: 'persuasion' },
  { file: 'tree-7.jsonl', topology: 'tree', agents: 7, attackers: 2, family: 'tool' },
  { file: 'star-8.jsonl', topology: 'star', agents: 8, attackers: 2, family: 'virus' },
  { file: 'random-8.jsonl', topology: 'random', agents: 8, attackers: 3, family: 'injection', density: 0.4 },
  { file: 'random-12.jsonl', topology: 'random', agents: 12, attackers: 3, family: 'mimic', density: 0.3 },
];

/** The seed among the first 200 whose episode shows the most infections (a clear example), ties to the lowest seed. */
function pickSeed(base: Omit<EpisodeConfig, 'seed'>): number {
  let best = 0;
  let bestScore = -1;
  for (let seed = 0; seed < 200; seed++) {
    const episode = simulate({ ...base, seed });
    const last = episode.labelsAt(base.rounds - 1);
    const infected = last.filter((c) => c === 'infected').length;
    const benign = last.length - infected - base.attackers;
    // Prefer a few infections with benign agents left over, so every class shows.
    const score = Math.min(infected, 3) * 10 + Math.min(benign, 3);
    if (score > bestScore) [best, bestScore] = [seed, score];
  }
  return best;
}

function main(): void {
  const outDir = path.join(__dirname, '..', 'examples', 'traces');
  for (const example of EXAMPLES) {
    const base = { topology: example.topology, agents: example.agents, attackers: example.attackers, rounds: 4, family: example.family, split: 'heldout' as const, density: example.density };
    const seed = pickSeed(base);
    const trace = simulate({ ...base, seed }).trace();
    trace.run = example.file.replace(/\.jsonl$/, '');
    writeFileSync(path.join(outDir, example.file), serializeTrace(trace));
    console.log(`examples/traces/${example.file}: ${example.family}, seed ${seed}`);
  }
}

main();
