import { loadRealRuns } from '../bench/lib/realRuns';
import { defaultConfig } from '../src/core/config';
import { analyzeRun } from '../src/core/guard/analyze';
import { buildRunModel } from '../src/core/guard/model';
import { prepareFeatures } from '../src/core/guard/features';
import { embeddedWeights } from '../src/core/guard/embeddedScorer';
import { compileAnswerPatterns } from '../src/core/text/answer';
(async () => {
  const runs = loadRealRuns()!.filter((r) => r.source === 'debate' && !r.attacked);
  const config = defaultConfig();
  const pats = compileAnswerPatterns(config.answer.patterns);
  const byRule = new Map<string, number>();
  for (const run of runs) {
    const model = buildRunModel(run.trace);
    const a = await analyzeRun(model, { config });
    const reading = prepareFeatures(model, pats, embeddedWeights().style);
    const last = model.rounds - 1;
    if (a.agents.every((x) => x.category === 'benign')) continue;
    console.log(run.trace.run, run.model, 'truth', model.task?.answer);
    model.agents.forEach((id, i) => {
      const seq = reading.facts[i].map((f) => f.answer ?? '-').join('');
      const rule = a.rounds[last].agents[id].rule;
      const patk = a.rounds.map((r) => r.agents[id].pAtk.toFixed(2)).join(' ');
      const pinf = a.rounds.map((r) => r.agents[id].pInf.toFixed(2)).join(' ');
      const cats = a.rounds.map((r) => r.agents[id].category[0]).join('');
      if (a.agents[i].category !== 'benign') byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      console.log(`  ${a.agents[i].category.padEnd(8)} ${seq} cats=${cats} atk=[${patk}] inf=[${pinf}] ${rule}`);
    });
  }
  console.log(byRule);
})();
