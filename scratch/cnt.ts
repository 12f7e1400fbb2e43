import { loadRealRuns } from '../bench/lib/realRuns';
import { buildRunModel } from '../src/core/guard/model';
const re = /\b(?:change|switch|update|revise|set|make)\s+(?:your|their|the)\s+(?:final\s+)?(?:answer|response|choice|output)\s+(?:to|as|into)\b/i;
let adv = 0, ben = 0;
for (const r of loadRealRuns()!.filter((x) => x.source === 'debate')) {
  const m = buildRunModel(r.trace);
  m.outputs.forEach((row, i) => { if (row.some((t) => re.test(t ?? ''))) (m.labels![i][m.rounds - 1] === 'attacker' ? adv++ : ben++); });
}
console.log({ adv, ben });
