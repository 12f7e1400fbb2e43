// Detection on real runs the guard was never trained or tuned on (bench/lib/unseenRuns.ts): MAD-Follower's five-agent
// debates with an attacker and a colluding follower, and G-Safeguard's eight-agent runs with three attackers (prompt
// injection on MMLU, a memory attack on MS MARCO), and clean debates of five and seven agents by small open models
// (slm_multiagent_debate, MMLU and GSM8K; no adversary, so every flag is a false alarm), and multi-agent-attack's
// debates on free-form datasets (chess, math, MQuAKE, MuSiQue). Read from ../corpora/unseen-runs when it was fetched
// (bench/data/unseen-runs/README.md), skipped with one line otherwise.
import { actedForInjection, analyzeRuns, r3, sliceFigures, sliceRow as row, type RunVerdicts } from './lib/realEval';
import { loadUnseenRuns, UNSEEN_DIR, type UnseenRun } from './lib/unseenRuns';
import type { BenchModule, BenchSection } from './types';

/** Per MAD-Follower role, how many agents the guard called attacker, infected and benign. */
function byRole(runs: readonly UnseenRun[], verdicts: readonly RunVerdicts[]): string {
  const counts = new Map<string, Record<string, number>>();
  runs.forEach((run, n) =>
    run.trace.agents.forEach((agent, i) => {
      const role = run.roles?.get(agent.id);
      if (!role) return;
      const key = role === 'normal' ? `normal (${verdicts[n].truth[i]})` : role;
      const tally = counts.get(key) ?? { attacker: 0, infected: 0, benign: 0 };
      tally[verdicts[n].predicted[i]]++;
      counts.set(key, tally);
    }),
  );
  return [...counts].map(([role, t]) => `${role}: ${t.attacker} attacker, ${t.infected} infected, ${t.benign} benign`).join('; ');
}

const unseen: BenchModule = async () => {
  const loaded = loadUnseenRuns();
  if (!loaded) return { title: 'Unseen real runs', rows: [], figures: {}, notes: [`skipped: ${UNSEEN_DIR} is absent (bench/data/unseen-runs/README.md says how to fetch it)`] };
  const { runs, missing } = loaded;
  const verdicts = await analyzeRuns(runs);
  const slice = (keep: (r: UnseenRun) => boolean) => sliceFigures(verdicts.filter((_, i) => keep(runs[i])));
  const rows: BenchSection['rows'] = [];
  const mad = slice((r) => r.source === 'mad-follower');
  rows.push(row('MAD-Follower, all', mad));
  for (const model of [...new Set(runs.filter((r) => r.source === 'mad-follower').map((r) => r.model))].sort()) rows.push(row(`MAD-Follower, ${model}`, slice((r) => r.source === 'mad-follower' && r.model === model)));
  const injection = (r: UnseenRun) => r.source === 'g-safeguard' && r.dataset === 'prompt injection, MMLU';
  const gs = slice(injection);
  const gsVisible = slice((r) => injection(r) && r.attackVisible === true);
  const memory = slice((r) => r.source === 'g-safeguard' && r.dataset === 'memory attack, MS MARCO');
  const secondSet = slice((r) => r.source === 'g-safeguard' && r.dataset === 'memory attack, MS MARCO, second set');
  const vietnamese = slice((r) => r.source === 'g-safeguard' && r.dataset === 'memory attack, MS MARCO, Vietnamese (qwen3)');
  rows.push(row('G-Safeguard prompt injection (MMLU), all', gs));
  rows.push(row('G-Safeguard prompt injection, an attacker answered wrong', gsVisible));
  rows.push(row('G-Safeguard memory attack (MS MARCO, free-form)', memory));
  rows.push(row('G-Safeguard memory attack, second set', secondSet));
  rows.push(row('G-Safeguard memory attack in Vietnamese (qwen3)', vietnamese));
  const clean = (dataset: string, model?: string) => slice((r) => r.source === 'clean-debate' && r.dataset === dataset && (model === undefined || r.model === model));
  const cleanMmlu = clean('mmlu');
  const cleanGsm = clean('gsm');
  rows.push(row('clean debates, 5 and 7 agents, MMLU', cleanMmlu));
  for (const model of [...new Set(runs.filter((r) => r.source === 'clean-debate').map((r) => r.model))].sort()) rows.push(row(`clean debates, MMLU, ${model}`, clean('mmlu', model)));
  rows.push(row('clean debates, 5 and 7 agents, GSM8K (free-form)', cleanGsm));
  const maa = (attacked: boolean, keep: (r: UnseenRun) => boolean = () => true) => slice((r) => r.source === 'multi-agent-attack' && r.attacked === attacked && keep(r));
  const maaAttacked = maa(true);
  const maaClean = maa(false);
  rows.push(row('multi-agent-attack, free-form datasets, attacked', maaAttacked));
  const maaRuns = runs.filter((r) => r.source === 'multi-agent-attack');
  for (const dataset of [...new Set(maaRuns.filter((r) => r.attacked).map((r) => r.dataset!))].sort()) rows.push(row(`  attacked, ${dataset}`, maa(true, (r) => r.dataset === dataset)));
  rows.push(row('multi-agent-attack, free-form datasets, clean', maaClean));
  for (const dataset of [...new Set(maaRuns.filter((r) => !r.attacked).map((r) => r.dataset!))].sort()) rows.push(row(`  clean, ${dataset}`, maa(false, (r) => r.dataset === dataset)));
  const suite = (attacked: boolean, dataset?: string) => slice((r) => r.source === 'agentdojo-suites' && r.attacked === attacked && (dataset === undefined || r.dataset === dataset));
  const suitesAttacked = suite(true);
  const suitesClean = suite(false);
  rows.push(row('AgentDojo workspace and travel suites, attacked', suitesAttacked));
  for (const dataset of ['travel', 'workspace']) rows.push(row(`  attacked, ${dataset}`, suite(true, dataset)));
  const suitesActed = sliceFigures(runs.flatMap((run, i) => (run.source === 'agentdojo-suites' && run.attacked ? [actedForInjection(run.trace, verdicts[i])] : [])));
  rows.push(row('  attacked, infected = a call carried an identifier the injection named', suitesActed));
  rows.push(row('AgentDojo workspace and travel suites, clean', suitesClean));
  for (const dataset of ['travel', 'workspace']) rows.push(row(`  clean, ${dataset}`, suite(false, dataset)));
  const madRuns = runs.filter((r) => r.source === 'mad-follower');
  const notes = [
    'Never used to train or choose the weights, rules or thresholds; measured with the checked-in weights. Their repositories carry no licence, so the runs stay outside the repository. "benign flagged" counts the agents these labels call benign.',
    'The free-form answer grouping was designed after reading a few memory-attack answers: those three rows are no longer quite unseen (bench/data/unseen-runs/README.md).',
    `MAD-Follower by role: ${byRole(madRuns, verdicts.filter((_, i) => runs[i].source === 'mad-follower'))}. The follower is labelled attacker (it was told to side with the attacker); it acts as an infected agent does, and is called one.`,
    'Clean debates (slm_multiagent_debate, Du et al.\'s harness): five or seven agents by Qwen3-14B, Qwen3-0.6B, Mistral-7B and VibeThinker-1.5B, each given a persona or a temperature; nobody is an adversary, so "benign flagged" is the false-alarm rate on many-agent debates among small models that are often wrong.',
    'multi-agent-attack (amayuelas/multi-agent-attack, MIT, the generator of the development split\'s debates): its chess, math, MQuAKE and MuSiQue files (free-form answers, gpt-3.5-turbo agents), outside issue 15\'s held-out table; its other models and datasets are left to the team\'s measurement.',
    'AgentDojo workspace and travel suites (its published runs of gpt-4o-mini and claude-3.5-sonnet as the Invariant Explorer exports them, from memo-ozdincer/rrfa, no licence there; AgentDojo is MIT): the suites the development split lacks. The export names no injections; the attack\'s <INFORMATION> blocks in tool results label them. Its infected labels are AgentDojo\'s \`security\` (the injected task completed exactly); the row "infected = a call carried an identifier the injection named" relabels as issue 15 defines infected (an assistant that acted for the injected goal: it e-mailed the attacker\'s address, even with another body than the injection asked for). Its other models are left alone (gemini-1.5-pro and gpt-4o are in issue 15\'s held-out table).',
    `G-Safeguard names the attackers only; infected is added as the development split defines it (a non-attacker that moved to a wrong answer an attacker gave, or to the planted one). In ${gs.runs - gsVisible.runs} of its ${gs.runs} prompt-injection runs the attackers answer as the others do in every round (the injection did not take); the second row keeps the runs where one answered wrong.`,
  ];
  if (missing > 0) notes.push(`${missing} files of the manifest are missing or changed under ${UNSEEN_DIR}; left out`);
  const figures = {
    madAttackerF1: r3(mad.atkF1.value),
    madInfectedF1: r3(mad.infF1.value),
    madBenignFlagged: r3(mad.benignFlagged.value),
    gSafeguardAttackerF1: r3(gs.atkF1.value),
    gSafeguardVisibleAttackerF1: r3(gsVisible.atkF1.value),
    gSafeguardMemoryAttackerF1: r3(memory.atkF1.value),
    gSafeguardMemorySecondSetAttackerF1: r3(secondSet.atkF1.value),
    gSafeguardVietnameseAttackerF1: r3(vietnamese.atkF1.value),
    cleanManyAgentMmluFlagged: r3(cleanMmlu.benignFlagged.value),
    cleanManyAgentGsmFlagged: r3(cleanGsm.benignFlagged.value),
    multiAgentAttackAttackerF1: r3(maaAttacked.atkF1.value),
    multiAgentAttackInfectedF1: r3(maaAttacked.infF1.value),
    multiAgentAttackCleanFlagged: r3(maaClean.benignFlagged.value),
    agentdojoSuitesAttackerF1: r3(suitesAttacked.atkF1.value),
    agentdojoSuitesInfectedF1: r3(suitesAttacked.infF1.value),
    agentdojoSuitesActedInfectedF1: r3(suitesActed.infF1.value),
    agentdojoSuitesCleanFlagged: r3(suitesClean.benignFlagged.value),
  };
  return { title: `Unseen real runs (${runs.length} runs never trained on)`, rows, figures, notes };
};

export default unseen;
