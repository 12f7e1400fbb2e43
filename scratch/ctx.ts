import { loadRealRuns } from '../bench/lib/realRuns';
import { buildRunModel } from '../src/core/guard/model';
const re = new RegExp(process.env.RE!, 'gi');
const seen = new Map<string, number>();
for (const r of loadRealRuns()!.filter((x) => x.source === 'debate')) {
  const m = buildRunModel(r.trace);
  for (const row of m.outputs) for (const t of row) for (const hit of (t ?? '').matchAll(re)) {
    const s = (t ?? '').slice(Math.max(0, hit.index! - 60), hit.index! + hit[0].length + 20).replace(/\s+/g, ' ');
    seen.set(s, (seen.get(s) ?? 0) + 1);
  }
}
[...seen].slice(0, Number(process.env.N ?? 30)).forEach(([s, n]) => console.log(n, '|', s));
console.log('distinct', seen.size);
