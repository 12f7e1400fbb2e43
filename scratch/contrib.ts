import { loadRealRuns } from '../bench/lib/realRuns';
import { defaultConfig } from '../src/core/config';
import { buildRunModel } from '../src/core/guard/model';
import { prepareFeatures, featureVector, FEATURE_NAMES } from '../src/core/guard/features';
import { embeddedWeights } from '../src/core/guard/embeddedScorer';
import { compileAnswerPatterns } from '../src/core/text/answer';
const want = (process.env.WHO ?? '').split(',');
const runs = loadRealRuns()!.filter((r) => r.source === 'debate');
const w = embeddedWeights();
const pats = compileAnswerPatterns(defaultConfig().answer.patterns);
for (const spec of want) {
  const [run, agent, round] = spec.split(':');
  const r = runs.find((x) => x.trace.run === run)!;
  const model = buildRunModel(r.trace);
  const ctx = prepareFeatures(model, pats, w.style);
  const k = round === undefined ? model.rounds - 1 : Number(round);
  const x = featureVector(ctx, Number(agent), k);
  const parts = FEATURE_NAMES.map((n, f) => [n, w.attacker.weights[f] * x[f], x[f]] as const).filter((p) => Math.abs(p[1]) > 0.15).sort((a, b) => b[1] - a[1]);
  console.log(spec, 'bias', w.attacker.bias.toFixed(2), parts.map(([n, c, v]) => `${n}=${v.toFixed(2)}:${c.toFixed(2)}`).join(' '));
}
