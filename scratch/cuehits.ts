import { loadRealRuns } from '../bench/lib/realRuns';
import { buildRunModel } from '../src/core/guard/model';
import { findCues } from '../src/core/text/cues';
const runs = loadRealRuns()!.filter((r) => r.source === 'debate');
// tally cue hits by rule and by truth label, last round
const tally = new Map<string, { adv: number; ben: number; clean: number }>();
let advN = 0, benN = 0, cleanN = 0;
for (const r of runs) {
  const m = buildRunModel(r.trace);
  m.agents.forEach((_, i) => {
    const truth = m.labels![i][m.rounds - 1];
    const kind = truth === 'attacker' ? 'adv' : r.attacked ? 'ben' : 'clean';
    if (kind === 'adv') advN++; else if (kind === 'ben') benN++; else cleanN++;
    const seen = new Set<string>();
    for (let k = 0; k < m.rounds; k++) for (const h of findCues(m.outputs[i][k] ?? '')) seen.add(`${h.family}:${(m.outputs[i][k] ?? '').slice(h.start, h.end).toLowerCase()}`);
    for (const s of seen) { const t = tally.get(s) ?? { adv: 0, ben: 0, clean: 0 }; t[kind]++; tally.set(s, t); }
  });
}
console.log({ advN, benN, cleanN });
for (const [k, v] of [...tally].sort((a, b) => b[1].adv + b[1].ben + b[1].clean - a[1].adv - a[1].ben - a[1].clean).slice(0, 40)) console.log(v.adv, v.ben, v.clean, k);
