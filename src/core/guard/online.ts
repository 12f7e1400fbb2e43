// The guard online: a run that grows round by round is decided one round at a time, with the same per-round step,
// features and conclusion as `analyzeTrace`, so the analysis after round k equals the analysis of the run cut after
// round k. Work per new round is that round's outputs; a run whose agents, edges or earlier rounds changed (a late span,
// a new agent) is decided again from round 0.
import { defaultConfig, type ProjectConfig } from '../config';
import type { MonitorFinding } from '../monitor/types';
import { monitorRun, type DocumentMemo } from '../monitor/monitor';
import { compileAnswerPatterns } from '../text/answer';
import type { Trace } from '../trace/types';
import { concludeAnalysis, decideRound, monitorConfigOf, startProgress, traceFacts, type GuardProgress } from './analyze';
import { EmbeddedScorer, embeddedWeights } from './embeddedScorer';
import { extendFeatures, prepareFeatures, sharedWordHashes, type FeatureContext } from './features';
import { EmbeddedFilter } from './filter';
import { buildRunModel } from './model';
import type { Analysis, RehabFilter, RunModel } from './types';

/** Options of an online guard: the project config and the rehabilitation filter (embedded by default). */
export interface OnlineGuardOptions {
  config?: ProjectConfig;
  filter?: RehabFilter;
}

/** Counters a caller can show: rounds decided one by one, and how often the run had to be decided again from round 0. */
export interface OnlineGuardStats {
  roundsDecided: number;
  restarts: number;
}

/** One run's guard, fed successive views of the run (each with all its closed rounds). */
export class OnlineGuard {
  readonly stats: OnlineGuardStats = { roundsDecided: 0, restarts: 0 };
  private readonly config: ProjectConfig;
  private readonly patterns: RegExp[];
  private readonly filter: RehabFilter;
  private model: RunModel | undefined;
  private features: FeatureContext | undefined;
  private progress: GuardProgress | undefined;
  private memo: DocumentMemo = new Map();

  constructor(options: OnlineGuardOptions = {}) {
    this.config = options.config ?? defaultConfig();
    this.patterns = compileAnswerPatterns(this.config.answer.patterns);
    this.filter = options.filter ?? new EmbeddedFilter();
  }

  /** Rounds decided so far. */
  get rounds(): number {
    return this.progress?.rounds.length ?? 0;
  }

  /** Brings the guard up to `trace` (its closed rounds only) and returns the analysis; undefined while it has no round. */
  async update(trace: Trace, signal?: AbortSignal): Promise<Analysis | undefined> {
    const analysis = await this.advance(buildRunModel(trace), signal);
    return analysis && traceFacts(analysis, trace);
  }

  /** Brings the guard up to `model` and returns the analysis of its rounds; undefined while it has none. */
  async advance(model: RunModel, signal?: AbortSignal): Promise<Analysis | undefined> {
    if (model.rounds === 0) return undefined;
    if (!this.model || !this.continues(model)) this.restart(model);
    else if (model.rounds > this.model.rounds) this.features = extendFeatures(this.features!, model, this.patterns);
    this.model = model;
    const progress = this.progress!;
    const scorer = new EmbeddedScorer(this.features!);
    for (let k = progress.rounds.length; k < model.rounds; k++) {
      signal?.throwIfAborted();
      decideRound(model, progress, scorer.scoreRoundSync(k), this.config.guard, this.features!);
      this.stats.roundsDecided++;
    }
    return concludeAnalysis(model, progress, { config: this.config, patterns: this.patterns, scorer: scorer.name, filter: this.filter, alerts: this.alerts(model), signal });
  }

  private alerts(model: RunModel): MonitorFinding[] {
    const features = this.features!;
    return monitorRun(model, monitorConfigOf(this.config.sections.monitor), (i, k) => sharedWordHashes(features, i, k), this.memo);
  }

  private restart(model: RunModel): void {
    if (this.model) this.stats.restarts++;
    this.features = prepareFeatures(model, this.patterns, embeddedWeights().style);
    this.progress = startProgress(model, this.features);
    this.memo = new Map();
  }

  /** True when `model` extends the current one: same agents and edges, and the decided rounds' outputs and their recipients unchanged. */
  private continues(model: RunModel): boolean {
    const known = this.model!;
    if (model.rounds < known.rounds || model.topologyKind !== known.topologyKind || !sameList(model.agents, known.agents)) return false;
    if (!model.inNeighbors.every((ins, i) => sameList(ins, known.inNeighbors[i]))) return false;
    const sameRecipients = (to: number[] | undefined, now: number[] | undefined) => to === now || (to !== undefined && now !== undefined && sameList(to, now));
    if (!model.recipients.every((row, i) => known.recipients[i].every((to, k) => sameRecipients(to, row[k])))) return false;
    return model.outputs.every((row, i) => known.outputs[i].every((text, k) => row[k] === text));
  }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
