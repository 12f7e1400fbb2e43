// LangSmith run exports and LangGraph runs: each graph node's run (extra.metadata.langgraph_node) is that node's
// output in its superstep (langgraph_step); it is delivered to the nodes that run in the next superstep. The nodes of a
// subgraph are its agent's work (a ReAct loop inside a supervisor's graph) unless they speak in their own name (the
// members of a nested team). The OTLP importer hands LangGraph apps traced by OpenInference here too.
import { InputError } from '../errors';
import { TRACE_LIMITS } from '../trace/parse';
import type { TraceWarning } from '../trace/types';
import { AgentRegistry, asObject, asString, buildEpisode, mentioned, messageRole, messageText, selectRuns, toMillis, valueText, type Delivery } from './common';
import { callText, toolAgentId } from './toolChat';
import type { Episode, FormatSpec, Importer } from './types';

/** LangGraph's entry node; its output is the user's input, so it maps to the agent "user". */
const START_NODE = '__start__';

/** One run (or span) of a graph, as the episode builder reads it. */
export interface RunInfo {
  id: string;
  parentId?: string;
  traceId?: string;
  name: string;
  node?: string;
  step?: number;
  /** Its langgraph_checkpoint_ns: one level for a node of the top graph, `team:…|member:…` inside a subgraph. */
  namespace?: string;
  /** Its output holds a reply named after the node (a member of a team speaking in its own name). */
  speaks?: boolean;
  /** A tool node's results (its output is then none of its own). */
  tools?: ToolResult[];
  start: number;
  seq: number;
  line: number;
  output?: string;
  /** Its outputs are not in the record at all (a run still pending, or left out of the export). */
  unrecorded?: boolean;
  input?: string;
  error?: string;
  ts?: string;
}

class LangsmithImporter implements Importer {
  private readonly runs = new Map<string, RunInfo>();
  private seq = 0;

  constructor(private readonly file?: string) {}

  add(value: unknown, line: number): void {
    const o = asObject(value);
    if (!o) throw new InputError('invalid-field', 'expected a LangSmith run object', this.file, line);
    if (Array.isArray(o.runs) && o.id === undefined) {
      for (const run of o.runs) this.addRun(run, line, undefined);
      return;
    }
    this.addRun(o, line, undefined);
  }

  private addRun(raw: unknown, line: number, parentId: string | undefined): void {
    const run = asObject(raw);
    const id = run && (asString(run.id) ?? (typeof run.id === 'number' ? String(run.id) : undefined));
    if (!run || !id) throw new InputError('missing-field', 'run without "id"; expected LangSmith runs (id, name, run_type, parent_run_id, inputs, outputs, extra.metadata)', this.file, line, 'id');
    const metadata = asObject(asObject(run.extra)?.metadata) ?? asObject(run.metadata) ?? {};
    const startValue = run.start_time ?? run.startTime;
    const graph = graphPlace(metadata);
    const said: ReturnType<typeof nodeOutput> = graph.node ? nodeOutput(run.outputs, graph.node) : { text: valueText(run.outputs), speaks: false };
    this.runs.set(id, {
      id,
      parentId: asString(run.parent_run_id) ?? parentId,
      traceId: asString(run.trace_id),
      name: asString(run.name) ?? id,
      ...graph,
      speaks: said.speaks,
      tools: said.tools,
      start: toMillis(startValue),
      seq: this.seq++,
      line,
      output: said.text,
      unrecorded: run.outputs === undefined || run.outputs === null,
      input: valueText(run.inputs),
      error: asString(run.error),
      ts: asString(startValue),
    });
    for (const child of Array.isArray(run.child_runs) ? run.child_runs : []) this.addRun(child, line, id);
  }

  finish(): Episode[] {
    if (this.runs.size === 0) throw new InputError('empty', 'no runs found; expected LangSmith runs (a JSON array, JSON Lines, or {"runs": [...]})', this.file);
    return graphEpisodes(this.runs, this.file);
  }
}

/** Where a run sits in its graph, from LangGraph's metadata: its node, its superstep, its checkpoint namespace. */
export function graphPlace(metadata: Record<string, unknown>): Pick<RunInfo, 'node' | 'step' | 'namespace'> {
  const step = metadata.langgraph_step;
  return {
    node: asString(metadata.langgraph_node),
    step: typeof step === 'number' ? step : typeof step === 'string' && /^\d+$/.test(step) ? Number(step) : undefined,
    namespace: asString(metadata.langgraph_checkpoint_ns),
  };
}

/** What a tool node (LangGraph's ToolNode) returned: one result per tool message, by the tool's name. */
export interface ToolResult {
  name: string;
  text: string;
}

/**
 * What a graph node said: the last reply in its messages (an assistant message with text that calls no tool), its own
 * (named after the node) before an unnamed one, not the hand-off that follows it ("Transferring back to supervisor");
 * without a reply, a model turn that only calls tools (a ReAct loop's `agent` node) as its words and its calls
 * written `name(key="value")`, as a tool-use log shows them; else the output's text as any run's. A node whose
 * messages are all tool results (a ToolNode) returns those (`tools`). `speaks`: a reply is named after the node.
 */
export function nodeOutput(outputs: unknown, node: string): { text: string | undefined; speaks: boolean; tools?: ToolResult[] } {
  const messages = stateMessages(outputs);
  if (messages.length > 0 && messages.every((m) => messageRole(m) === 'tool')) {
    return { text: undefined, speaks: false, tools: messages.map((m) => ({ name: messageName(m) ?? node, text: messageText(m) ?? '' })) };
  }
  const replies = messages.filter((m) => messageRole(m) === 'assistant' && !callsTools(m) && (messageText(m) ?? '').trim() !== '');
  const own = replies.filter((m) => messageName(m) === node).at(-1);
  const reply = own ?? replies.filter((m) => messageName(m) === undefined).at(-1) ?? replies.at(-1);
  if (reply !== undefined) return { text: messageText(reply), speaks: own !== undefined };
  const last = messages.at(-1);
  if (last !== undefined && messageRole(last) === 'assistant' && callsTools(last) && !callsTools(last, HANDOFF)) {
    const calls = (fields(last)!.tool_calls as unknown[]).map((call) => callText(asString(asObject(call)?.name) ?? 'unknown', asObject(call)?.args));
    return { text: [messageText(last) ?? '', ...calls].filter((part) => part.trim() !== '').join('\n'), speaks: false };
  }
  return { text: valueText(outputs), speaks: false };
}

/** langgraph-supervisor's hand-off tools (`transfer_to_research_expert`, `transfer_back_to_supervisor`): routing, not work. */
const HANDOFF = /^transfer_(?:to|back_to)_/;

/** The messages of a graph state or update: `messages`, or a Command's `update.messages` (also under `output`). */
function stateMessages(value: unknown): unknown[] {
  const o = asObject(value);
  // A ToolNode whose tools return Commands writes their list: `{"output": [{"lg_name": "Command", "update": …}]}`.
  if (Array.isArray(o?.output)) return o.output.flatMap((item) => updateMessages(asObject(item)));
  return updateMessages(asObject(o?.output) ?? o);
}

/** The messages of one state update, or of a Command's `update`. */
function updateMessages(update: Record<string, unknown> | undefined): unknown[] {
  const messages = asObject(update?.update)?.messages ?? update?.messages;
  return Array.isArray(messages) ? messages : [];
}

/** A message's own fields: LangChain's serialised `kwargs`, Python's message_to_dict `data`, or the message itself. */
function fields(message: unknown): Record<string, unknown> | undefined {
  const m = asObject(message);
  return asObject(m?.kwargs) ?? asObject(m?.data) ?? m;
}

/** Whether the message calls tools (with `only`, a tool whose name matches). */
function callsTools(message: unknown, only?: RegExp): boolean {
  const calls = fields(message)?.tool_calls;
  return Array.isArray(calls) && calls.some((call) => only === undefined || only.test(asString(asObject(call)?.name) ?? ''));
}

function messageName(message: unknown): string | undefined {
  return asString(fields(message)?.name);
}

/** Episodes of graph runs (LangSmith runs, or OTLP spans read as runs), one per trace; refuses runs with no node output. */
export function graphEpisodes(all: ReadonlyMap<string, RunInfo>, file?: string): Episode[] {
  const root = (run: RunInfo) => {
    let r = run;
    for (let guard = 0; r.parentId && all.has(r.parentId) && guard < 10000; guard++) r = all.get(r.parentId)!;
    return r;
  };
  const traces = new Map<string, RunInfo[]>();
  for (const run of all.values()) {
    const key = run.traceId ?? root(run).id;
    const list = traces.get(key);
    if (list) list.push(run);
    else traces.set(key, [run]);
  }
  const episodes: Episode[] = [];
  for (const [traceId, runs] of traces) {
    runs.sort((a, b) => a.start - b.start || a.seq - b.seq);
    const episode = graphEpisode(traceId, runs, all);
    if (episode) episodes.push(episode);
  }
  if (episodes.length === 0) {
    throw new InputError(
      'missing-field',
      'no LangGraph node runs with output found; expected runs whose extra.metadata has langgraph_node and langgraph_step (or a root run with child runs)',
      file,
      undefined,
      'extra.metadata.langgraph_node',
    );
  }
  return episodes.sort((a, b) => a.records[0].line - b.records[0].line);
}

/** One invocation: its node runs by superstep, or, without LangGraph metadata, the root's child runs in order. */
function graphEpisode(traceId: string, runs: RunInfo[], all: ReadonlyMap<string, RunInfo>): Episode | undefined {
  const warnings: TraceWarning[] = [];
  let steps = nodeRuns(runs);
  if (steps.length === 0) {
    const rootRun = runs.find((r) => !r.parentId || !all.has(r.parentId));
    steps = runs.filter((r) => rootRun && r.parentId === rootRun.id).map((r, i) => ({ ...r, node: r.name, step: i, path: [i] }));
  }
  // A step that says nothing (a supervisor routing by a hand-off) is left out quietly; a failed one, or one whose
  // outputs are not in the record, is reported.
  const said = (r: RunInfo) => r.output !== undefined || r.tools !== undefined;
  for (const r of steps) {
    if (said(r)) continue;
    if (r.error) warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" at step ${r.step} failed (error: ${r.error.slice(0, 60)}); skipped` });
    else if (r.unrecorded) warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" at step ${r.step} has no outputs in the record (a run still pending, or left out of the export); skipped` });
  }
  const placed = new Set<string>();
  for (const r of steps) {
    if (!r.approximate || placed.has(r.node!)) continue;
    placed.add(r.node!);
    warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" runs inside a subgraph whose own step is not in the trace; its rounds are approximate` });
  }
  steps = steps.filter(said);
  if (steps.length === 0) return undefined;
  // Supersteps that produced output, in order (a team member's within its team's step): the k-th is round k.
  const byStep = new Map<string, GraphStep[]>();
  for (const r of [...steps].sort((a, b) => comparePaths(a.path, b.path))) {
    const key = r.path.join('.');
    const group = byStep.get(key);
    if (group) group.push(r);
    else byStep.set(key, [r]);
  }
  const order = [...byStep.values()];
  const speakersAt = (perTool: boolean) => order.map((group) => group.flatMap((r) => speakersOf(r, perTool).map((speaker) => ({ ...speaker, run: r }))));
  let speakers = speakersAt(true);
  // One agent per tool, unless that takes the run past what one trace holds (agents x rounds; the rounds are the steps).
  if (new Set(speakers.flat().map((speaker) => speaker.from)).size * order.length > TRACE_LIMITS.maxAgentRounds) {
    warnings.push({ code: 'skipped-line', line: 0, message: `the tool nodes' results are read as their nodes' messages: one agent per tool would pass what one trace holds (${TRACE_LIMITS.maxAgentRounds} agent-rounds)` });
    speakers = speakersAt(false);
  }
  const registry = new AgentRegistry();
  const messages: Delivery[] = [];
  speakers.forEach((group, round) => {
    // Who speaks next hears this round: one list per round, a speaker left out of it only where it is in it.
    const next = [...new Set((speakers[round + 1] ?? []).map((speaker) => speaker.from))];
    const hearing = new Set(next);
    for (const { from, content, role, run: r } of group) {
      registry.see(from, { role });
      const to = hearing.has(from) ? next.filter((id) => id !== from) : next;
      messages.push({ from, to: to.length ? to : undefined, content, time: round, seq: r.seq, line: r.line, ts: r.ts, round });
    }
  });
  if (messages.length === 0) return undefined;
  const rootRun = runs.find((r) => !r.parentId || !all.has(r.parentId));
  const question = runs.find((r) => r.node === START_NODE)?.output ?? rootRun?.input;
  for (const m of messages) for (const id of m.to ?? []) registry.see(id);
  return buildEpisode(traceId, { run: traceId, task: question ? { question } : undefined, agents: registry.only(mentioned(messages)) }, messages, [], warnings);
}

/**
 * The run of each (node, step) that is an agent: the one named like its node, else the earliest carrying that metadata.
 * A node inside a subgraph is one when it speaks in its own name (a member of a team that langgraph-supervisor nests),
 * not when its replies are its agent's (a ReAct loop's `agent` node); a node whose subgraph holds such members is
 * their team, and they speak for it.
 */
function nodeRuns(runs: RunInfo[]): GraphStep[] {
  // The step each namespace ran at in its own graph ("team:c" → the top graph's step of the team node).
  const stepOf = new Map<string, number>();
  for (const r of runs) {
    if (r.namespace !== undefined && r.step !== undefined && r.node === namespaceNode(r.namespace) && !stepOf.has(r.namespace)) stepOf.set(r.namespace, r.step);
  }
  const chosen = new Map<string, GraphStep>();
  for (const r of runs) {
    if (r.node === undefined || r.step === undefined || (r.namespace?.includes('|') && !r.speaks)) continue;
    const enclosing = enclosingNamespaces(r.namespace);
    const path = [...enclosing.flatMap((ns) => stepOf.get(ns) ?? []), r.step];
    // One run per task (a step's task has its checkpoint namespace; its tool runs and channel writes repeat what the
    // node's own run says), and every task of a tool node the model's parallel calls run under Send (Python's default;
    // an export without namespaces keeps each run named like the node).
    const key = `${r.node}\u0000${path.join('.')}\u0000${r.namespace ?? (r.tools && r.name === r.node ? r.id : '')}`;
    const current = chosen.get(key);
    if (!current || (r.name === r.node && current.name !== current.node)) chosen.set(key, { ...r, path, approximate: path.length <= enclosing.length });
  }
  const nodes = [...chosen.values()];
  // Every namespace that holds a member ("team:1" of "team:1|searcher:2"), so each node is looked up once.
  const teams = new Set<string>();
  for (const r of nodes) {
    const ns = r.namespace ?? '';
    for (let bar = ns.indexOf('|'); bar !== -1; bar = ns.indexOf('|', bar + 1)) teams.add(ns.slice(0, bar));
  }
  return nodes.filter((r) => r.namespace === undefined || !teams.has(r.namespace));
}

/** A node's run with its place in time: the steps of the graphs around it, outermost first, then its own
 * (`approximate`: a graph around it has no step in the trace). */
type GraphStep = RunInfo & { path: number[]; approximate?: boolean };

/** The namespaces of the subgraph nodes around a node ("a:1|b:2|c:3" → "a:1", "a:1|b:2"). */
function enclosingNamespaces(namespace: string | undefined): string[] {
  const segments = namespace?.split('|') ?? [];
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('|'));
}

/** The node a namespace's last segment names ("team:c|searcher:e" → "searcher"). */
function namespaceNode(namespace: string): string {
  const last = namespace.slice(namespace.lastIndexOf('|') + 1);
  const colon = last.lastIndexOf(':');
  return colon === -1 ? last : last.slice(0, colon);
}

/** Orders step paths: outer steps first, a path before its own extensions. */
function comparePaths(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Most results one tool node's step is read as, one message each; past it, the node speaks them (bounds a step's work). */
const MAX_TOOL_RESULTS = 1_000;

/**
 * Who speaks in a node's step: the node's agent, or (`perTool`) each tool whose result a tool node returned
 * (`tool:<name>`, role tool); otherwise the tool node itself speaks its results, role tool.
 */
function speakersOf(r: RunInfo, perTool: boolean): { from: string; content: string; role?: string }[] {
  if (!r.tools) return [{ from: agentOf(r.node!), content: r.output! }];
  if (perTool && r.tools.length <= MAX_TOOL_RESULTS) return r.tools.map((result) => ({ from: toolAgentId(result.name), content: result.text, role: 'tool' }));
  return [{ from: agentOf(r.node!), content: r.tools.map((result) => result.text).join('\n\n'), role: 'tool' }];
}

function agentOf(node: string): string {
  return node === START_NODE ? 'user' : node;
}

export const langsmithFormat: FormatSpec = {
  title: 'LangSmith / LangGraph runs',
  aliases: ['langgraph'],
  detect: {
    record: (o) => 'run_type' in o || 'dotted_order' in o || 'parent_run_id' in o || asObject(asObject(o.extra)?.metadata)?.langgraph_node !== undefined || Array.isArray(o.runs),
    keys: 'run_type, parent_run_id, extra.metadata.langgraph_node',
    signature: /"(run_type|dotted_order|parent_run_id|langgraph_node)"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'run objects (id, name, run_type, parent_run_id, inputs, outputs) whose extra.metadata has langgraph_node and langgraph_step',
  // Elements of a top-level array; a top-level object (one run tree, or {"runs": [...]}) is read whole.
  select: selectRuns,
  create: (file) => new LangsmithImporter(file),
};
