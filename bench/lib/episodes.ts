// Shared by the training script and the benches: grids of simulated episodes and the detection report over them
// (pooled P/R/F1, benign FPR, source hit@1, AUROC), running the real guard pipeline on each trace.
import { defaultConfig, type ProjectConfig } from '../../src/core/config';
import { analyzeRun } from '../../src/core/guard/analyze';
import type { DualHeadWeights } from '../../src/core/guard/embeddedScorer';
import { auroc, poolEvaluations } from '../../src/core/guard/metrics';
import { buildRunModel } from '../../src/core/guard/model';
import type { Evaluation } from '../../src/core/guard/types';
import { ATTACK_FAMILIES, type AttackFamily } from '../../src/core/sim/phrasings';
import type { Split } from '../../src/core/sim/questions';
import { simulate, type EpisodeConfig } from '../../src/core/sim/simulate';
import { TOPOLOGIES, type TopologyKind } from '../../src/core/sim/topology';

/** The literature's setting: 8 agents, 3 attackers, 3 rounds after round 0. */
export const STANDARD = { agents: 8, attackers: 3, rounds: 4 } as const;

/** `perCell` episodes for every topology x attack family of a split; seeds start at `seedBase` and never repeat. */
export function episodeGrid(split: Split, perCell: number, seedBase: number, families: readonly (AttackFamily | 'none')[] = ATTACK_FAMILIES, topologies: readonly TopologyKind[] = TOPOLOGIES): EpisodeConfig[] {
  const configs: EpisodeConfig[] = [];
  let seed = seedBase;
  for (const topology of topologies) {
    for (const family of families) {
      for (let e = 0; e < perCell; e++) {
        // Training varies the attacker count (1-4) as the paper did; tests use 3.
        const attackers = split === 'train' ? 1 + (seed % 4) : STANDARD.attackers;
        configs.push({ seed: seed++, topology, family, split, agents: STANDARD.agents, attackers, rounds: STANDARD.rounds });
      }
    }
  }
  return configs;
}

/** Detection figures over a set of episodes (final-round labels, as the analysis evaluates them). */
export interface DetectionReport {
  episodes: number;
  evaluation: Evaluation;
  sourceHit1: number | null;
  aurocAtk: number | null;
  aurocInf: number | null;
}

/** What one episode contributes to a detection report (plain data: it crosses worker threads). */
export interface EpisodeDetection {
  evaluation: Evaluation;
  pAtk: number[];
  pInf: number[];
  truth: string[];
  /** Whether the top source is a true attacker; null when the episode has no attacker. */
  sourceHit: boolean | null;
}

/** Runs the guard on one episode's trace. */
export async function episodeDetection(episodeConfig: EpisodeConfig, options: { weights?: DualHeadWeights; config?: ProjectConfig } = {}): Promise<EpisodeDetection> {
  const model = buildRunModel(simulate(episodeConfig).trace());
  const weights = options.weights;
  const analysis = await analyzeRun(model, {
    config: options.config ?? defaultConfig(),
    weights,
  });
  const last = model.rounds - 1;
  const truth = model.labels!.map((row) => row[last] ?? 'benign');
  return {
    evaluation: analysis.evaluation!,
    pAtk: analysis.agents.map((a) => a.pAtk),
    pInf: analysis.agents.map((a) => a.pInf),
    truth,
    sourceHit: truth.includes('attacker') ? analysis.sources.length > 0 && truth[model.index.get(analysis.sources[0])!] === 'attacker' : null,
  };
}

/** Pools per-episode results into one report. */
export function poolDetections(episodes: EpisodeDetection[]): DetectionReport {
  const withSource = episodes.filter((e) => e.sourceHit !== null);
  const truth = episodes.flatMap((e) => e.truth);
  return {
    episodes: episodes.length,
    evaluation: poolEvaluations(episodes.map((e) => e.evaluation)),
    sourceHit1: withSource.length === 0 ? null : withSource.filter((e) => e.sourceHit).length / withSource.length,
    aurocAtk: auroc(episodes.flatMap((e) => e.pAtk), truth.map((t) => t === 'attacker')),
    aurocInf: auroc(episodes.flatMap((e) => e.pInf), truth.map((t) => t === 'infected')),
  };
}

/** Runs the guard on each episode's trace and pools the figures. */
export async function detectionReport(configs: EpisodeConfig[], options: { weights?: DualHeadWeights; config?: ProjectConfig } = {}): Promise<DetectionReport> {
  const episodes: EpisodeDetection[] = [];
  for (const episodeConfig of configs) episodes.push(await episodeDetection(episodeConfig, options));
  return poolDetections(episodes);
}

/** One-line summary of a report for logs. */
export function describe(report: DetectionReport): string {
  const e = report.evaluation;
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(3));
  return `atk P/R/F1 ${f(e.attacker.precision)}/${f(e.attacker.recall)}/${f(e.attacker.f1)}  inf P/R/F1 ${f(e.infected.precision)}/${f(e.infected.recall)}/${f(e.infected.f1)}  benignFPR ${f(e.benignFalsePositiveRate)}  src@1 ${f(report.sourceHit1)}  AUROC atk ${f(report.aurocAtk)} inf ${f(report.aurocInf)}  (${report.episodes} episodes)`;
}
