import { loadRealRuns } from '../bench/lib/realRuns';
import { defaultConfig } from '../src/core/config';
import { analyzeRun } from '../src/core/guard/analyze';
import { buildRunModel } from '../src/core/guard/model';
import { prepareFeatures } from '../src/core/guard/features';
import { embeddedWeights } from '../src/core/guard/embeddedScorer';
import { compileAnswerPatterns } from '../src/core/text/answer';
(async () => {
  const runs = loadRealRuns()!.filter((r) => r.source === 'debate' && r.trace.run.includes(process.env.PICK ?? 'adv2'));
  const config = defaultConfig();
  const pats = compileAnswerPatterns(config.answer.patterns);
  const tally = new Map<string, number>();
  let shown = 0;
  for (const run of runs) {
    const model = buildRunModel(run.trace);
    const a = await analyzeRun(model, { config });
    const reading = prepareFeatures(model, pats, embeddedWeights().style);
    const last = model.rounds - 1;
    const lines = model.agents.map((id, i) => {
      const truth = model.labels![i][last];
      const seq = reading.facts[i].map((f) => f.answer ?? '-').join('');
      return `${truth.padEnd(8)} ${a.agents[i].category.padEnd(8)} ${seq} pAtk=${a.agents[i].pAtk.toFixed(2)} ${a.rounds[last].agents[id].rule}`;
    });
    const key = model.agents.map((_, i) => `${model.labels![i][last][0]}${a.agents[i].category[0]}`).join(' ');
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (shown++ < Number(process.env.SHOW ?? 25)) console.log(run.trace.run, 'truth', model.task?.answer, '\n  ' + lines.join('\n  '));
  }
  console.log([...tally].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${v}\t${k}`).join('\n'));
})();
