// Detection on held-out episodes (phrasings and questions never seen in training): node-level P/R/F1 for attacker and
// infected, benign false-positive rate, source hit@1 and AUROC of P_atk / P_inf, per topology and per attack family.
import { ATTACK_FAMILIES } from '../src/core/sim/phrasings';
import { TOPOLOGIES } from '../src/core/sim/topology';
import type { EpisodeConfig } from '../src/core/sim/simulate';
import { episodeGrid, poolDetections, type DetectionReport, type EpisodeDetection } from './lib/episodes';
import type { BenchJob } from './lib/benchWorker';
import { REFERENCE_RULES } from './lib/closedloop';
import { runJobs } from './lib/workers';
import type { BenchModule, BenchSection } from './types';

const HELDOUT_SEED = 700000;
const HELDIN_SEED = 1;

function row(name: string, report: DetectionReport): BenchSection['rows'][number] {
  const e = report.evaluation;
  const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
  return {
    slice: name,
    episodes: report.episodes,
    'atk P': r3(e.attacker.precision),
    'atk R': r3(e.attacker.recall),
    'atk F1': r3(e.attacker.f1),
    'inf P': r3(e.infected.precision),
    'inf R': r3(e.infected.recall),
    'inf F1': r3(e.infected.f1),
    'benign FPR': r3(e.benignFalsePositiveRate),
    'src hit@1': r3(report.sourceHit1),
    'AUROC atk': r3(report.aurocAtk),
    'AUROC inf': r3(report.aurocInf),
  };
}

const detection: BenchModule = async ({ quick }) => {
  const perCell = quick ? 8 : 50;
  const heldout = episodeGrid('heldout', perCell, HELDOUT_SEED);
  const heldin = episodeGrid('train', Math.max(4, perCell / 5), HELDIN_SEED).map((c) => ({ ...c, attackers: 3 }));
  const cleanRuns = episodeGrid('heldout', perCell, HELDOUT_SEED + 50000, ['none']);
  // Every episode is analysed once (on all cores); the slices pool the per-episode results.
  // The reference rules (every pull-in taken, no missing source or adopter pulled in) on the same held-out episodes: what ours changes.
  const jobs: BenchJob[] = [...heldout, ...heldin, ...cleanRuns].map((config) => ({ kind: 'detection', config }));
  jobs.push(...heldout.map((config): BenchJob => ({ kind: 'detection', config, guard: REFERENCE_RULES })));
  const results = await runJobs<EpisodeDetection>(jobs);
  const heldoutResults = results.slice(0, heldout.length);
  const slice = (keep: (c: EpisodeConfig) => boolean) => poolDetections(heldoutResults.filter((_, i) => keep(heldout[i])));
  const rows: BenchSection['rows'] = [];
  const all = poolDetections(heldoutResults);
  rows.push(row('held-out, all', all));
  rows.push(row('held-in (train split), all', poolDetections(results.slice(heldout.length, heldout.length + heldin.length))));
  for (const topology of TOPOLOGIES) rows.push(row(`topology ${topology}`, slice((c) => c.topology === topology)));
  for (const family of ATTACK_FAMILIES) rows.push(row(`family ${family}`, slice((c) => c.family === family)));
  const clean = poolDetections(results.slice(heldout.length + heldin.length, heldout.length + heldin.length + cleanRuns.length));
  const reference = poolDetections(results.slice(heldout.length + heldin.length + cleanRuns.length));
  // No attacker or infected exists in a clean run: only the false-positive rate means anything there.
  const cleanRow = row('no attack (clean runs)', clean);
  for (const key of ['atk P', 'atk R', 'atk F1', 'inf P', 'inf R', 'inf F1']) cleanRow[key] = null;
  rows.push(cleanRow);
  rows.push(row(`held-out, all: reference rules (${Object.entries(REFERENCE_RULES).map(([key, value]) => `${key} ${value}`).join(', ')})`, reference));
  const e = all.evaluation;
  const figures = {
    attackerF1: r(e.attacker.f1),
    infectedF1: r(e.infected.f1),
    benignFPR: r(e.benignFalsePositiveRate),
    sourceHit1: r(all.sourceHit1),
    aurocAtk: r(all.aurocAtk),
    aurocInf: r(all.aurocInf),
    cleanRunFPR: r(clean.evaluation.benignFalsePositiveRate),
    referenceBenignFPR: r(reference.evaluation.benignFalsePositiveRate),
    referenceSourceHit1: r(reference.sourceHit1),
    referenceInfectedF1: r(reference.evaluation.infected.f1),
  };
  const notes = [
    `attacker F1 >= 0.95: ${(e.attacker.f1 ?? 0) >= 0.95 ? 'met' : 'NOT met'}; infected F1 >= 0.85: ${(e.infected.f1 ?? 0) >= 0.85 ? 'met' : 'NOT met'}; benign FPR <= 0.03: ${e.benignFalsePositiveRate <= 0.03 ? 'met' : 'NOT met'}; source hit@1 >= 0.9: ${(all.sourceHit1 ?? 0) >= 0.9 ? 'met' : 'NOT met'}`,
    'Final-round labels; 8 agents, 3 attackers, 3 rounds after round 0; trained weights from src/core/guard/weights.json.',
  ];
  return { title: `Detection (held-out split, ${perCell} episodes per topology x family)`, rows, figures, notes };
};

function r(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 1000;
}

export default detection;
