// agent-trace/v1 reader: builds a Trace line by line so large files stream; strict unless lenient.
import { InputError, jsonErrorText } from '../errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../importers/jsonStream';
import type { AgentInfo, Category, Trace, TraceLabel, TraceMessage, TraceWarning } from './types';
import { CATEGORIES } from './types';

export const TRACE_SCHEMA = 'agent-trace/v1';

/**
 * What a run may hold, so that cost follows the file and a hostile trace cannot ask for unbounded work: the highest
 * round number, agents x rounds (the guard keeps a cell per agent and round, also for silent rounds), and how many
 * rounds in a row may carry no message (each costs a full round of work while the file says nothing).
 */
export const TRACE_LIMITS = { maxRound: 9_999, maxAgentRounds: 100_000, maxEmptyRounds: 100 } as const;

/** Options for reading a trace. */
export interface ParseOptions {
  /** File name used in messages. */
  file?: string;
  /** Skip invalid lines with a warning instead of rejecting the file. */
  lenient?: boolean;
}

type Json = Record<string, unknown>;

/** Accumulates agent-trace/v1 lines; call `finish()` for the Trace. */
export class TraceBuilder {
  private readonly agents = new Map<string, AgentInfo>();
  private readonly messages: TraceMessage[] = [];
  private readonly labels: TraceLabel[] = [];
  private readonly warnings: TraceWarning[] = [];
  private headerEdges: [string, string][] | undefined;
  private run: string | undefined;
  private task: Trace['task'];
  private sawHeader = false;
  private contentLines = 0;

  constructor(private readonly options: ParseOptions = {}) {}

  /** Reads one line (1-based `line`). Blank lines are ignored. */
  addLine(text: string, line: number): void {
    if (text.trim() === '') return;
    if (text.includes('\u0000')) throw this.error('binary', 'the file looks binary (NUL byte); expected JSON Lines text', line);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.fail('invalid-json', `not valid JSON (${jsonErrorText(error)}); expected one JSON object per line`, line);
      return;
    }
    this.contentLines++;
    if (nestsDeeperThan(value)) {
      this.fail('invalid-json', `the line nests deeper than ${MAX_JSON_DEPTH} levels; no trace field does`, line);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail('invalid-field', 'expected a JSON object with a "type" field', line);
      return;
    }
    this.addRecord(value as Json, line);
  }

  /** Adds one already-parsed record (importers use this). */
  addRecord(record: Json, line: number): void {
    const type = record.type;
    try {
      if (type === 'header') this.readHeader(record, line);
      else if (type === 'message') this.messages.push(this.readMessage(record, line));
      else if (type === 'label') this.labels.push(this.readLabel(record, line));
      else if (typeof type !== 'string') throw this.error('missing-field', 'missing "type"; expected "header", "message" or "label"', line, 'type');
      else this.warnings.push({ code: 'unknown-type', line, message: `unknown type "${type.slice(0, 40)}" skipped` });
    } catch (error) {
      if (error instanceof InputError && this.options.lenient && error.kind !== 'binary') {
        this.warnings.push({ code: 'skipped-line', line, message: error.message });
        return;
      }
      throw error;
    }
  }

  /** Validates the whole run and returns it. */
  finish(): Trace {
    if (this.contentLines === 0 && this.messages.length === 0 && !this.sawHeader) {
      throw this.error('empty', 'the trace is empty; expected agent-trace/v1 JSON Lines (see docs/trace-format.md)');
    }
    if (this.messages.length === 0) throw this.error('no-content', 'the trace has no "message" lines, so there is nothing to analyse');
    for (const message of this.messages) this.ensureAgent(message.from);
    for (const message of this.messages) for (const to of message.to ?? []) this.ensureAgent(to);

    const labels = this.labels.filter((label) => {
      if (this.agents.has(label.agent)) return true;
      if (!this.options.lenient) {
        throw this.error('unknown-agent', `label names agent "${label.agent}", which sends no message and is not in the header`, label.line, 'agent');
      }
      this.warnings.push({ code: 'unknown-agent-label', line: label.line, message: `label for unknown agent "${label.agent}" skipped` });
      return false;
    });

    const edges = this.headerEdges ?? this.edgesFromMessages();
    for (const [from, to] of edges) {
      if (!this.agents.has(from) || !this.agents.has(to)) {
        const unknown = this.agents.has(from) ? to : from;
        if (!this.options.lenient) throw this.error('unknown-agent', `header edge names agent "${unknown}", which is not in "agents"`, 1, 'edges');
        this.warnings.push({ code: 'unknown-edge-agent', line: 1, message: `edge ${from} -> ${to} names an unknown agent and is ignored` });
      }
    }
    this.checkExtent();
    this.warnRoundGaps();
    return {
      schema: TRACE_SCHEMA,
      run: this.run,
      task: this.task,
      agents: [...this.agents.values()],
      edges,
      messages: this.messages,
      labels,
      warnings: this.warnings,
      source: this.options.file,
      topology: this.headerEdges ? 'header' : 'messages',
    };
  }

  private readHeader(record: Json, line: number): void {
    if (this.sawHeader) throw this.error('invalid-field', 'a second "header" line; a trace has at most one, on its first line', line, 'type');
    if (this.messages.length + this.labels.length > 0) throw this.error('invalid-field', 'the "header" must come before any message or label', line, 'type');
    this.sawHeader = true;
    if (record.schema !== undefined && record.schema !== TRACE_SCHEMA) {
      throw this.error('invalid-field', `unsupported schema ${JSON.stringify(record.schema)}; expected "${TRACE_SCHEMA}"`, line, 'schema');
    }
    if (record.run !== undefined) this.run = this.string(record.run, 'run', line);
    if (record.task !== undefined) {
      const task = this.object(record.task, 'task', line);
      this.task = {
        question: task.question === undefined ? undefined : this.string(task.question, 'task.question', line),
        answer: task.answer === undefined ? undefined : String(this.scalar(task.answer, 'task.answer', line)),
      };
    }
    if (record.agents !== undefined) {
      if (!Array.isArray(record.agents)) throw this.error('invalid-field', '"agents" must be an array of {"id", "role"?, "systemPrompt"?}', line, 'agents');
      record.agents.forEach((raw, i) => {
        const agent = this.object(raw, `agents[${i}]`, line);
        const id = this.id(agent.id, `agents[${i}].id`, line);
        if (this.agents.has(id)) throw this.error('invalid-field', `agent "${id}" is declared twice`, line, `agents[${i}].id`);
        this.agents.set(id, {
          id,
          role: agent.role === undefined ? undefined : this.string(agent.role, `agents[${i}].role`, line),
          systemPrompt: agent.systemPrompt === undefined ? undefined : this.string(agent.systemPrompt, `agents[${i}].systemPrompt`, line),
        });
      });
    }
    if (record.edges !== undefined) {
      if (!Array.isArray(record.edges)) throw this.error('invalid-field', '"edges" must be an array of ["from", "to"] pairs', line, 'edges');
      this.headerEdges = record.edges.map((edge, i) => {
        if (!Array.isArray(edge) || edge.length !== 2) throw this.error('invalid-field', `edges[${i}] must be a ["from", "to"] pair`, line, `edges[${i}]`);
        return [this.id(edge[0], `edges[${i}][0]`, line), this.id(edge[1], `edges[${i}][1]`, line)];
      });
    }
  }

  private readMessage(record: Json, line: number): TraceMessage {
    const round = record.round;
    if (round === undefined) throw this.error('missing-field', 'missing "round"; expected an integer >= 0', line, 'round');
    this.checkRound(round, line);
    if (record.from === undefined) throw this.error('missing-field', 'missing "from"; expected the sending agent id', line, 'from');
    const from = this.id(record.from, 'from', line);
    if (record.content === undefined) throw this.error('missing-field', 'missing "content"; expected the text the agent sent', line, 'content');
    const content = this.string(record.content, 'content', line);
    let to: string[] | undefined;
    if (record.to !== undefined) {
      const raw = typeof record.to === 'string' ? [record.to] : record.to;
      if (!Array.isArray(raw)) throw this.error('invalid-field', '"to" must be an agent id or an array of agent ids', line, 'to');
      to = raw.map((id, i) => this.id(id, `to[${i}]`, line));
    }
    const ts = record.ts === undefined ? undefined : this.string(record.ts, 'ts', line);
    return { round, from, to, content, ts, line };
  }

  private readLabel(record: Json, line: number): TraceLabel {
    const round = record.round;
    this.checkRound(round, line);
    const agent = this.id(record.agent, 'agent', line);
    const category = record.category;
    if (typeof category !== 'string' || !CATEGORIES.includes(category as Category)) {
      throw this.error('invalid-field', `"category" is ${JSON.stringify(category)}; expected one of ${CATEGORIES.join(', ')}`, line, 'category');
    }
    return { round, agent, category: category as Category, line };
  }

  private checkRound(round: unknown, line: number): asserts round is number {
    if (typeof round !== 'number' || !Number.isInteger(round) || round < 0) {
      throw this.error('invalid-field', `"round" is ${JSON.stringify(round)}; expected an integer >= 0`, line, 'round');
    }
    if (round > TRACE_LIMITS.maxRound) {
      throw this.error('invalid-field', `"round" is ${round}; rounds go up to ${TRACE_LIMITS.maxRound} (split a longer run into several traces)`, line, 'round');
    }
  }

  /** Refuses a run whose rounds leave a long stretch without any message, or whose agents x rounds is over the limit. */
  private checkExtent(): void {
    const firstLine = new Map<number, number>();
    for (const m of this.messages) if (!firstLine.has(m.round) || m.line < firstLine.get(m.round)!) firstLine.set(m.round, m.line);
    const rounds = [...firstLine.keys()].sort((a, b) => a - b);
    let previous = -1;
    for (const round of rounds) {
      if (round - previous - 1 > TRACE_LIMITS.maxEmptyRounds) {
        throw this.error('invalid-field', `round ${round} follows ${round - previous - 1} rounds without any message; at most ${TRACE_LIMITS.maxEmptyRounds} in a row are allowed (number rounds consecutively)`, firstLine.get(round), 'round');
      }
      previous = round;
    }
    const cells = this.agents.size * (previous + 1);
    if (cells > TRACE_LIMITS.maxAgentRounds) {
      throw this.error('invalid-field', `${this.agents.size} agents x ${previous + 1} rounds = ${cells} agent-rounds, over the limit of ${TRACE_LIMITS.maxAgentRounds}; split the run into several traces`, firstLine.get(previous), 'round');
    }
  }

  private edgesFromMessages(): [string, string][] {
    const seen = new Set<string>();
    const edges: [string, string][] = [];
    for (const message of this.messages) {
      for (const to of message.to ?? []) {
        const key = `${message.from}\u0000${to}`;
        if (to !== message.from && !seen.has(key)) {
          seen.add(key);
          edges.push([message.from, to]);
        }
      }
    }
    return edges;
  }

  private warnRoundGaps(): void {
    const rounds = [...new Set(this.messages.map((m) => m.round))].sort((a, b) => a - b);
    let next = 0;
    for (const round of rounds) {
      if (round > next) {
        const which = round - next === 1 ? `round ${next}` : `rounds ${next}-${round - 1}`;
        this.warnings.push({ code: 'round-gap', line: 0, message: `no message in ${which}; agents keep their previous output for it` });
      }
      next = round + 1;
    }
  }

  private ensureAgent(id: string): void {
    if (!this.agents.has(id)) this.agents.set(id, { id });
  }

  private id(value: unknown, field: string, line: number): string {
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    if (typeof value !== 'string' || value.trim() === '') throw this.error('invalid-field', `"${field}" must be a non-empty agent id (string)`, line, field);
    return value;
  }

  private string(value: unknown, field: string, line: number): string {
    if (typeof value !== 'string') throw this.error('invalid-field', `"${field}" must be a string, got ${typeName(value)}`, line, field);
    return value;
  }

  private scalar(value: unknown, field: string, line: number): string | number {
    if (typeof value !== 'string' && typeof value !== 'number') throw this.error('invalid-field', `"${field}" must be a string or number`, line, field);
    return value;
  }

  private object(value: unknown, field: string, line: number): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.error('invalid-field', `"${field}" must be an object`, line, field);
    return value as Json;
  }

  private fail(kind: 'invalid-json' | 'invalid-field', message: string, line: number): void {
    if (this.options.lenient) {
      this.warnings.push({ code: 'skipped-line', line, message });
      return;
    }
    throw this.error(kind, message, line);
  }

  private error(kind: InputError['kind'], message: string, line?: number, field?: string): InputError {
    return new InputError(kind, message, this.options.file, line, field);
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Parses a whole agent-trace/v1 text held in memory. */
export function parseTraceText(text: string, options: ParseOptions = {}): Trace {
  const builder = new TraceBuilder(options);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) builder.addLine(lines[i].replace(/\r$/, ''), i + 1);
  return builder.finish();
}

/** Serialises a Trace back to agent-trace/v1 JSON Lines (header, messages, labels). */
export function serializeTrace(trace: Trace): string {
  const header: Json = { type: 'header', schema: TRACE_SCHEMA };
  if (trace.run !== undefined) header.run = trace.run;
  if (trace.task) header.task = trace.task;
  header.agents = trace.agents;
  if (trace.topology === 'header') header.edges = trace.edges;
  const lines = [JSON.stringify(header)];
  for (const m of trace.messages) {
    lines.push(JSON.stringify({ type: 'message', round: m.round, from: m.from, ...(m.to ? { to: m.to } : {}), content: m.content, ...(m.ts ? { ts: m.ts } : {}) }));
  }
  for (const l of trace.labels) lines.push(JSON.stringify({ type: 'label', round: l.round, agent: l.agent, category: l.category }));
  return lines.join('\n') + '\n';
}
