// The live receiver's state, pure: spans as they arrive are grouped per trace with the OTLP importer's own grouping
// (runs = conversations or traces, causal rounds), every closed round goes through the online guard, and what changed
// is handed out as events. Time comes in as arguments, so the idle rules are tested without waiting.
import { InputError, withinStack } from '../errors';
import { defaultConfig, type ProjectConfig } from '../config';
import { OnlineGuard } from '../guard/online';
import type { Analysis } from '../guard/types';
import { episodeToTrace, type Episode } from '../importers';
import { asObject, asString } from '../importers/common';
import { otlpFormat, otlpList } from '../importers/otlp';
import type { Importer } from '../importers/types';
import type { MonitorFinding } from '../monitor/types';
import type { Category } from '../trace/types';

/** Limits that keep the receiver's memory bounded, and when rounds and runs count as closed. */
export interface LiveLimits {
  /** A run's last round closes after this long without a new span of its trace (or when the trace's root span arrives). */
  roundIdleMs: number;
  /** A trace without a new span for this long is closed: its runs are written out and dropped from memory. */
  runIdleMs: number;
  /** Most traces held open at once; past it the least recently active one is closed. */
  maxOpenTraces: number;
  /** Most spans kept per trace; spans past it are rejected (partial success). */
  maxSpansPerTrace: number;
  /** Most request bytes (decompressed) held in open traces; past it the least recently active traces are closed. */
  maxHeldBytes: number;
  /** A span whose parent has not arrived waits this long for it (children are exported before their parents, and a
   * parent that ended just after them comes in the exporter's next batch); a parent that arrives later still counts, and
   * makes the guard decide the run again. */
  parentWaitMs: number;
}

/** Closed runs whose analysis stays in memory for GET /v1/runs/{id}; older ones are listed with their summary only. */
const KEPT_CLOSED_ANALYSES = 20;

export const DEFAULT_LIVE_LIMITS: Readonly<LiveLimits> = Object.freeze({
  roundIdleMs: 2000,
  runIdleMs: 5 * 60_000,
  maxOpenTraces: 1000,
  maxSpansPerTrace: 100_000,
  maxHeldBytes: 512 * 1024 * 1024,
  parentWaitMs: 100,
});

/** A run as listed by GET /v1/runs and the editor's tree. */
export interface RunSummary {
  id: string;
  traceId: string;
  state: 'open' | 'closed';
  spans: number;
  /** Rounds decided (closed rounds). */
  rounds: number;
  agents: number;
  attackers: string[];
  infected: string[];
  alerts: number;
  /** When the run's trace last received a span (ms since epoch). */
  updatedAt: number;
  /** Why the run's records could not be analysed, when they could not. */
  error?: string;
}

/** What the receiver tells its listeners (the NDJSON/SSE stream, the alert log, the editor). */
export type LiveEvent =
  | { type: 'run'; run: RunSummary }
  | { type: 'round'; run: string; round: number; attackers: string[]; infected: string[]; changed: { agent: string; category: Category; was: Category | null }[]; restarted: boolean }
  | { type: 'alert'; run: string; alert: MonitorFinding }
  | { type: 'closed'; run: string; summary: RunSummary; records: Episode['records'] };

/** What one export request did: spans kept, spans rejected and why (the OTLP partial success). */
export interface IngestResult {
  accepted: number;
  rejected: number;
  errors: string[];
}

interface LiveRun {
  id: string;
  guard: OnlineGuard;
  analysis?: Analysis;
  episode?: Episode;
  /** The rounds the episode holds (read once per update: the receiver asks after every request). */
  episodeRounds: number;
  /** Categories of each decided round, to tell which changed. */
  categories: Category[][];
  alertKeys: Set<string>;
  summary: RunSummary;
  /** The run's records could not be read as a trace (its spans are kept; the message says why). */
  error?: string;
}

interface TraceGroup {
  traceId: string;
  importer: Importer;
  spans: number;
  /** Request bytes its spans came in (its share of each request), counted against maxHeldBytes. */
  bytes: number;
  updatedAt: number;
  /** The root span (no parent) arrived: the trace has ended, so its last round is closed. */
  ended: boolean;
  dirty: boolean;
  /** When its spans were last read into runs (every update re-reads all of them). */
  readAt: number;
  /** Its runs by conversation id (each listed under its own id: LiveRun.id). */
  runs: Map<string, LiveRun>;
  /** Span ids handed to the importer. */
  fed: Set<string>;
  /** Spans waiting for their parent, by parent id, in arrival order, and since when each parent is awaited. */
  waiting: Map<string, { span: Record<string, unknown>; line: number }[]>;
  waitingSince: Map<string, number>;
  /** Ids of the spans waiting: a parent among them has arrived, and its children go in when it does. */
  held: Set<string>;
  /** Parents waited for in vain: their children are taken as they come. */
  absent: Set<string>;
}

/** The receiver's runs: feed export requests, then `process()` decides the rounds they closed. */
export class LiveRuns {
  private readonly traces = new Map<string, TraceGroup>();
  private readonly closed = new Map<string, { summary: RunSummary; analysis?: Analysis; records?: Episode['records'] }>();
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly config: ProjectConfig;
  private readonly limits: LiveLimits;
  private requests = 0;
  /** Request bytes held in open traces (the sum of their `bytes`). */
  private heldBytes = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: { config?: ProjectConfig; limits?: Partial<LiveLimits> } = {}) {
    this.config = options.config ?? defaultConfig();
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
  }

  /** Subscribes to events; returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Adds the spans of one ExportTraceServiceRequest (OTLP JSON shape); spans that cannot be read are rejected, the rest
   * kept. `bytes`, the request's size, counts against maxHeldBytes, shared out over the traces its spans went to.
   */
  ingest(request: unknown, now: number, bytes = 0): IngestResult {
    const result: IngestResult = { accepted: 0, rejected: 0, errors: [] };
    const body = asObject(request);
    if (!body) throw new InputError('invalid-field', 'expected an ExportTraceServiceRequest object');
    // Every list is checked before any span is kept: a malformed request is refused whole (400), never half-read (`"spans": {…}` was a 500).
    const scopes = otlpList(body.resourceSpans, 'resourceSpans').flatMap((rs) => otlpList(asObject(rs)?.scopeSpans, 'scopeSpans'));
    const spans = scopes.flatMap((ss) => otlpList(asObject(ss)?.spans, 'spans'));
    const line = ++this.requests;
    const share = spans.length > 0 ? bytes / spans.length : 0;
    for (const span of spans) {
      const group = this.ingestSpan(span, line, now, result);
      if (group) {
        group.bytes += share;
        this.heldBytes += share;
      }
    }
    // Past the byte budget, the least recently active traces are closed and written out, as past maxOpenTraces.
    while (this.heldBytes > this.limits.maxHeldBytes && this.traces.size > 1) this.evict(this.leastActive());
    return result;
  }

  /** Takes one span in; returns the trace it went to (undefined when rejected). */
  private ingestSpan(raw: unknown, line: number, now: number, result: IngestResult): TraceGroup | undefined {
    const span = asObject(raw);
    const traceId = asString(span?.traceId);
    const reject = (why: string) => {
      result.rejected++;
      if (result.errors.length < 5) result.errors.push(why);
    };
    if (!span || !traceId || !asString(span.spanId)) return void reject('span without traceId/spanId');
    const group = this.traces.get(traceId) ?? this.openTrace(traceId, now);
    if (group.spans >= this.limits.maxSpansPerTrace) return void reject(`trace ${traceId} holds the most spans kept per trace (${this.limits.maxSpansPerTrace})`);
    const parent = asString(span.parentSpanId);
    group.spans++;
    group.updatedAt = now;
    result.accepted++;
    // A child is exported before its parent: it waits for the parent, whose agent name decides who sent its input.
    if (parent && !group.fed.has(parent) && !group.absent.has(parent)) {
      group.held.add(asString(span.spanId)!);
      const list = group.waiting.get(parent);
      if (list) list.push({ span, line });
      else {
        group.waiting.set(parent, [{ span, line }]);
        group.waitingSince.set(parent, now);
      }
      return group;
    }
    if (!this.feed(group, span, line)) {
      group.spans--;
      result.accepted--;
      reject('span the OTLP importer cannot read');
      return undefined;
    }
    return group;
  }

  /** Hands a span to the importer, then the spans that waited for it; false when the importer refuses it. */
  private feed(group: TraceGroup, span: Record<string, unknown>, line: number): boolean {
    try {
      withinStack(() => group.importer.add(span, line));
    } catch (error) {
      if (error instanceof InputError) return false;
      throw error;
    }
    const id = asString(span.spanId)!;
    group.fed.add(id);
    group.dirty = true;
    if (!asString(span.parentSpanId)) group.ended = true;
    this.release(group, id);
    return true;
  }

  /** Feeds the spans that waited for `parent`, in the order they arrived. */
  private release(group: TraceGroup, parent: string): void {
    const children = group.waiting.get(parent);
    if (!children) return;
    group.waiting.delete(parent);
    group.waitingSince.delete(parent);
    for (const { span, line } of children) {
      group.held.delete(asString(span.spanId)!);
      if (!this.feed(group, span, line)) group.spans--;
    }
  }

  /** Gives up on parents awaited past the limit (or all of them): their children go in as they are. A parent that has
   * arrived but waits for its own parent is not given up on: its children go in with it. */
  private releaseOverdue(group: TraceGroup, now: number, all: boolean): void {
    if (group.waitingSince.size === 0) return;
    for (const [parent, since] of [...group.waitingSince]) {
      if (!all && (now - since < this.limits.parentWaitMs || group.held.has(parent))) continue;
      if (!group.waitingSince.has(parent)) continue; // went in with its own parent, just now
      group.absent.add(parent);
      this.release(group, parent);
    }
  }

  private openTrace(traceId: string, now: number): TraceGroup {
    if (this.traces.size >= this.limits.maxOpenTraces) this.evict(this.leastActive());
    const group: TraceGroup = {
      traceId, importer: otlpFormat.create(), spans: 0, bytes: 0, updatedAt: now, ended: false, dirty: false, readAt: -Infinity,
      runs: new Map(), fed: new Set(), waiting: new Map(), waitingSince: new Map(), held: new Set(), absent: new Set(),
    };
    this.traces.set(traceId, group);
    return group;
  }

  /** The open trace that received a span longest ago. */
  private leastActive(): TraceGroup {
    return [...this.traces.values()].reduce((a, b) => (b.updatedAt < a.updatedAt ? b : a));
  }

  /** Closes a trace to keep memory bounded: its runs are decided and written out in the background. */
  private evict(group: TraceGroup): void {
    this.traces.delete(group.traceId);
    this.heldBytes -= group.bytes;
    // Listed as closed at once, so its ids stay taken (and fetchable) while it is written out.
    for (const run of group.runs.values()) this.closed.set(run.id, { summary: { ...run.summary, state: 'closed' }, analysis: run.analysis });
    // Nobody awaits an eviction: a trace that fails to finalize is dropped with its spans, not an unhandled rejection.
    this.enqueue(() => this.finalize(group)).catch(() => undefined);
  }

  /** Decides the rounds closed since the last call (new spans, idle traces) and closes traces idle past the limit. */
  process(now: number): Promise<void> {
    return this.enqueue(() => this.processNow(now));
  }

  /** Runs jobs one after another: a run's guard is never updated by two jobs at once. */
  private enqueue(job: () => Promise<void>): Promise<void> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async processNow(now: number): Promise<void> {
    for (const group of [...this.traces.values()]) {
      // Evicted while an earlier one was decided: it is closed and written out already.
      if (this.traces.get(group.traceId) !== group) continue;
      const idle = now - group.updatedAt;
      const roundIdle = idle >= this.limits.roundIdleMs;
      this.releaseOverdue(group, now, roundIdle);
      if (idle >= this.limits.runIdleMs) await this.closeTrace(group);
      else if (!group.ended && roundIdle && this.hasOpenRound(group)) await this.update(group, true, now);
      else if (group.dirty && (group.ended || roundIdle || now >= rereadDue(group))) await this.update(group, group.ended || roundIdle, now);
    }
  }

  /** When `process()` next has something to do without a new span (a parent given up on, a last round or a trace gone
   * idle); undefined with no open trace. The receiver sleeps until then. */
  nextDeadline(): number | undefined {
    let next = Infinity;
    for (const group of this.traces.values()) {
      next = Math.min(next, group.updatedAt + this.limits.runIdleMs);
      for (const [parent, since] of group.waitingSince) if (!group.held.has(parent)) next = Math.min(next, since + this.limits.parentWaitMs);
      if (group.waiting.size > 0 || (!group.ended && this.hasOpenRound(group))) next = Math.min(next, group.updatedAt + this.limits.roundIdleMs);
      if (group.dirty) next = Math.min(next, rereadDue(group));
    }
    return next === Infinity ? undefined : next;
  }

  private hasOpenRound(group: TraceGroup): boolean {
    for (const run of group.runs.values()) if (run.error === undefined && run.episodeRounds > run.guard.rounds) return true;
    return false;
  }

  private async update(group: TraceGroup, lastRoundClosed: boolean, now: number): Promise<void> {
    group.dirty = false;
    group.readAt = now;
    let episodes: Episode[];
    try {
      episodes = withinStack(() => group.importer.finish());
    } catch (error) {
      if (error instanceof InputError) return; // no agent span or no content yet
      throw error;
    }
    for (const episode of episodes) {
      let run = group.runs.get(episode.id);
      if (!run) {
        run = this.newRun(this.freeId(episode.id), group);
        group.runs.set(episode.id, run);
      }
      run.episode = asRecorded(episode);
      const all = (run.episodeRounds = roundsOf(episode));
      await this.decide(run, group, lastRoundClosed ? all : all - 1);
    }
  }

  /**
   * The id a new run is listed under: its conversation's, or with `#2`, `#3` … when a run of another trace (an earlier
   * turn of a multi-turn chat, one trace each) already has it, so that every run can be fetched by its id.
   */
  private freeId(id: string): string {
    if (!this.has(id)) return id;
    let n = 2;
    while (this.has(`${id}#${n}`)) n++;
    return `${id}#${n}`;
  }

  /** The open run listed as `id`. */
  private openRun(id: string): LiveRun | undefined {
    for (const group of this.traces.values()) for (const run of group.runs.values()) if (run.id === id) return run;
    return undefined;
  }

  private newRun(id: string, group: TraceGroup): LiveRun {
    const summary: RunSummary = { id, traceId: group.traceId, state: 'open', spans: group.spans, rounds: 0, agents: 0, attackers: [], infected: [], alerts: 0, updatedAt: group.updatedAt };
    return { id, guard: new OnlineGuard({ config: this.config }), episodeRounds: 0, categories: [], alertKeys: new Set(), summary };
  }

  private async decide(run: LiveRun, group: TraceGroup, closedRounds: number): Promise<void> {
    const before = run.guard.rounds;
    const restartsBefore = run.guard.stats.restarts;
    const firstSight = run.summary.rounds === 0 && run.analysis === undefined;
    if (closedRounds > 0) {
      try {
        const trace = episodeToTrace(prefix(run.episode!, closedRounds));
        trace.source = `live:${run.id}`;
        run.analysis = (await run.guard.update(trace)) ?? run.analysis;
        run.error = run.summary.error = undefined;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        run.error = run.summary.error = error.message;
      }
    }
    const analysis = run.analysis;
    Object.assign(run.summary, { spans: group.spans, updatedAt: group.updatedAt }, analysis ? summaryOf(analysis) : {});
    if (firstSight || run.guard.rounds !== before) this.emit({ type: 'run', run: { ...run.summary } });
    if (!analysis) return;
    const restarted = run.guard.stats.restarts > restartsBefore;
    const from = restarted ? 0 : before;
    if (restarted) run.categories = run.categories.slice(0, 0);
    for (let k = from; k < analysis.rounds.length; k++) {
      const row = analysis.agents.map((a) => analysis.rounds[k].agents[a.id].category);
      const previous = k > 0 ? run.categories[k - 1] : undefined;
      run.categories[k] = row;
      const ids = analysis.agents.map((a) => a.id);
      this.emit({
        type: 'round',
        run: run.id,
        round: k,
        attackers: ids.filter((_, i) => row[i] === 'attacker'),
        infected: ids.filter((_, i) => row[i] === 'infected'),
        changed: ids.flatMap((agent, i) => (previous?.[i] === row[i] ? [] : [{ agent, category: row[i], was: previous?.[i] ?? null }])),
        restarted: restarted && k === from,
      });
    }
    for (const alert of freshAlerts(run.alertKeys, analysis.alerts ?? [])) this.emit({ type: 'alert', run: run.id, alert: withoutLine(alert) });
  }

  private async closeTrace(group: TraceGroup): Promise<void> {
    this.traces.delete(group.traceId);
    this.heldBytes -= group.bytes;
    await this.finalize(group);
  }

  /** Decides a removed trace's last round and hands out its runs' recordings. */
  private async finalize(group: TraceGroup): Promise<void> {
    this.releaseOverdue(group, Infinity, true);
    await this.update(group, true, Infinity);
    for (const run of group.runs.values()) {
      run.summary.state = 'closed';
      this.closed.delete(run.id);
      this.closed.set(run.id, { summary: { ...run.summary }, analysis: run.analysis, records: run.analysis && decidedRecords(run) });
      this.emit({ type: 'closed', run: run.id, summary: { ...run.summary }, records: run.episode?.records ?? [] });
    }
    // Closed runs stay listed (bounded like the open traces); only the latest keep their analysis in memory.
    while (this.closed.size > this.limits.maxOpenTraces) this.closed.delete(this.closed.keys().next().value!);
    for (const entry of [...this.closed.values()].slice(0, -KEPT_CLOSED_ANALYSES)) entry.analysis = entry.records = undefined;
  }

  /** Closes every open trace now (shutdown): each run's last round is decided and its recording handed out. */
  closeAll(): Promise<void> {
    return this.enqueue(async () => {
      for (const group of [...this.traces.values()]) if (this.traces.get(group.traceId) === group) await this.closeTrace(group);
    });
  }

  /** Every run, open ones first, most recently active first. */
  list(): RunSummary[] {
    const open = [...this.traces.values()].flatMap((g) => [...g.runs.values()].map((r) => ({ ...r.summary })));
    const closed = [...this.closed.values()].map((c) => c.summary).filter((c) => !open.some((o) => o.id === c.id));
    return [...open.sort((a, b) => b.updatedAt - a.updatedAt), ...closed.reverse()];
  }

  /** The analysis of a run after its closed rounds (undefined when unknown, not decided yet, or closed long ago). */
  analysis(id: string): Analysis | undefined {
    const run = this.openRun(id);
    return run ? run.analysis : this.closed.get(id)?.analysis;
  }

  /** The recording of the rounds a run's analysis covers (agent-trace/v1 records: header, then those rounds' messages);
   * undefined when `analysis(id)` is. */
  recording(id: string): Episode['records'] | undefined {
    const run = this.openRun(id);
    return run ? run.analysis && decidedRecords(run) : this.closed.get(id)?.records;
  }

  /** True when the run is known (open or closed). */
  has(id: string): boolean {
    return this.closed.has(id) || this.openRun(id) !== undefined;
  }

  /** Counters for the bench and the status line: open traces and the spans they hold. */
  size(): { traces: number; spans: number } {
    let spans = 0;
    for (const group of this.traces.values()) spans += group.spans;
    return { traces: this.traces.size, spans };
  }

  private emit(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function roundsOf(episode: Episode): number {
  let max = -1;
  for (const { record } of episode.records) if (record.type === 'message' && typeof record.round === 'number') max = Math.max(max, record.round);
  return max + 1;
}

/**
 * An episode whose records are numbered by their lines in its recording (header first, a record a line), not by the
 * request that brought their spans: the run's analysis then names the recording's lines, as `analyze` on it does.
 */
function asRecorded(episode: Episode): Episode {
  return { ...episode, records: episode.records.map(({ record }, i) => ({ record, line: i + 1 })) };
}

/**
 * An alert as it is raised, once, while the run goes on: without a line, since spans arriving later (a parent after its
 * children) move outputs down the recording. The run's analysis (`GET /v1/runs/{id}`) names the lines as they stand.
 */
function withoutLine(alert: MonitorFinding): MonitorFinding {
  const evidence = { ...alert.evidence };
  delete evidence.line;
  return { ...alert, evidence };
}

/** The records of the rounds the run's analysis decided. */
function decidedRecords(run: LiveRun): Episode['records'] {
  return prefix(run.episode!, run.analysis!.rounds.length).records;
}

/** The episode with only rounds < `rounds` (its header, those rounds' messages). */
function prefix(episode: Episode, rounds: number): Episode {
  return { ...episode, records: episode.records.filter(({ record }) => typeof record.round !== 'number' || record.round < rounds) };
}

function summaryOf(analysis: Analysis): Pick<RunSummary, 'rounds' | 'agents' | 'attackers' | 'infected' | 'alerts'> {
  return {
    rounds: analysis.rounds.length,
    agents: analysis.agents.length,
    attackers: analysis.agents.filter((a) => a.category === 'attacker').map((a) => a.id),
    infected: analysis.agents.filter((a) => a.category === 'infected').map((a) => a.id),
    alerts: analysis.alerts?.length ?? 0,
  };
}

/**
 * The alerts of a re-decided run not raised before (noting them in `seen`): one per signal and subject, as `scan`'s
 * cooldown keeps them, so the same spread found a round further on (new evidence, a longer chain) is no new alert.
 */
export function freshAlerts(seen: Set<string>, alerts: readonly MonitorFinding[]): MonitorFinding[] {
  const fresh: MonitorFinding[] = [];
  for (const alert of alerts) {
    if (seen.has(alert.cooldownKey)) continue;
    seen.add(alert.cooldownKey);
    fresh.push(alert);
  }
  return fresh;
}

/**
 * When a trace's new spans are next read in: every update re-reads all its spans (about 0.2 ms a span for a crew's), so
 * a long trace fed a few spans per request was re-read per request (10 spans/s by 2,400 spans). Waiting 1 ms per span
 * it holds since the last read keeps that under a fifth of the time, the total linear; a closed round or the trace's
 * end is read at once.
 */
function rereadDue(group: TraceGroup): number {
  return group.readAt + group.spans * REREAD_MS_PER_SPAN;
}

const REREAD_MS_PER_SPAN = 1;
