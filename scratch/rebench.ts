import { loadRealRuns } from '../bench/lib/realRuns';
import { buildRunModel } from '../src/core/guard/model';
const texts: string[] = [];
for (const r of loadRealRuns()!.filter((x) => x.source === 'debate' || x.source === 'who-and-when')) for (const row of buildRunModel(r.trace).outputs) for (const t of row) if (t) texts.push(t);
const pats = {
  old1: /\b(?:change|switch|update|revise|set|make)\s+(?:your|their|the)\s+(?:final\s+)?(?:answer|response|choice|output)\s+(?:to|as|into)\b/gi,
  new1: /\b(?:change|switch|update|revise|set|make)(?<!\b(?:I|we)\b(?:(?!\byou\b)[^.!?\n,;:]){0,30}\w+)\s+(?:your|their|the)\s+(?:final\s+)?(?:answer|response|choice|output)\s+(?:to|as|into)\b/gi,
  old2: /\b(?:in addition to|before|after|instead of|rather than)\s+(?:your|the|answering|responding|completing|solving)\b[^.!?\n]{0,40}\b(?:please\s+)?(?:also\s+)?(?:write|include|add|append|insert|translate|output|print|send|mention|recommend|provide|tell|encode|reply)\b/gi,
  new2: /\b(?:in addition to|before|after|instead of|rather than)\s+(?:your|the|answering|responding|completing|solving)\b[^.!?\n]{0,40}\b(?<!\b(?:may|might|can|could|would)\s+(?:\w+\s+)?)(?:please\s+)?(?:also\s+)?(?:write|include|add|append|insert|translate|output|print|send|mention|recommend|provide|tell|encode|reply)\b/gi,
};
const chars = texts.reduce((a, t) => a + t.length, 0);
for (const [name, re] of Object.entries(pats)) {
  let n = 0; const t0 = performance.now();
  for (let rep = 0; rep < 3; rep++) for (const t of texts) for (const _ of t.matchAll(re)) n++;
  console.log(name, (performance.now() - t0).toFixed(0), 'ms', n, 'hits', (chars * 3 / 1e6).toFixed(1), 'MB');
}
