// LangSmith run exports and LangGraph runs: each graph node's run (extra.metadata.langgraph_node) is that node's
// output in its superstep (langgraph_step); it is delivered to the nodes that run in the next superstep. The nodes of a
// subgraph are its agent's work (a ReAct loop inside a supervisor's graph) unless they speak in their own name (the
// members of a nested team); that work's tool calls and results are read just before the agent's step. The OTLP
// importer hands LangGraph apps traced by OpenInference here too.
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
  /** Its output is a model turn that calls tools (its words and its calls): the tools it calls. */
  calls?: string[];
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

/** A batch as the LangSmith SDK sends it (`{"post": [...], "patch": [...]}`): runs created, and runs updated with their outputs. */
function isBatch(o: Record<string, unknown>): boolean {
  const isRun = (value: unknown) => asObject(value)?.run_type !== undefined || asObject(value)?.dotted_order !== undefined;
  return o.id === undefined && [o.post, o.patch].some((list) => Array.isArray(list) && list.some(isRun));
}

/** A run's id as `addRun` reads it (a string, or a number as its digits). */
function runId(run: Record<string, unknown>): string | undefined {
  return asString(run.id) ?? (typeof run.id === 'number' ? String(run.id) : undefined);
}

class LangsmithImporter implements Importer {
  private readonly runs = new Map<string, RunInfo>();
  private seq = 0;
  /**
   * The runs of the SDK's batches by id, each patch laid over the run it updates (its outputs, end time, error), in
   * whichever batch or line either came: read at the end. Null-prototype records filled key by key, so a hostile
   * "__proto__" stays a key and a thousand patches cost their own keys, not the run's again each time.
   */
  private readonly batched = new Map<string, { run: Record<string, unknown>; line: number }>();

  constructor(private readonly file?: string) {}

  add(value: unknown, line: number): void {
    const o = asObject(value);
    if (!o) throw new InputError('invalid-field', 'expected a LangSmith run object', this.file, line);
    if (Array.isArray(o.runs) && o.id === undefined) {
      for (const run of o.runs) this.addRun(run, line, undefined);
      return;
    }
    if (isBatch(o)) {
      for (const raw of [...(Array.isArray(o.post) ? o.post : []), ...(Array.isArray(o.patch) ? o.patch : [])]) this.addBatched(raw, line);
      return;
    }
    this.addRun(o, line, undefined);
  }

  private addBatched(raw: unknown, line: number): void {
    const update = asObject(raw);
    const id = update && runId(update);
    if (!update || !id) return this.addRun(raw, line, undefined);
    let entry = this.batched.get(id);
    if (!entry) this.batched.set(id, (entry = { run: Object.create(null) as Record<string, unknown>, line }));
    for (const [key, value] of Object.entries(update)) if (value !== null && value !== undefined) entry.run[key] = value;
  }

  private addRun(raw: unknown, line: number, parentId: string | undefined): void {
    const run = asObject(raw);
    const id = run && runId(run);
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
      calls: said.calls,
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
    for (const { run, line } of this.batched.values()) this.addRun(run, line, undefined);
    if (this.runs.size === 0) throw new InputError('empty', 'no runs found; expected LangSmith runs (a JSON array, JSON Lines, {"runs": [...]}, or the SDK\'s {"post": [...], "patch": [...]})', this.file);
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
export function nodeOutput(outputs: unknown, node: string): { text: string | undefined; speaks: boolean; tools?: ToolResult[]; calls?: string[] } {
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
    const called = (fields(last)!.tool_calls as unknown[]).map((call) => ({ name: asString(asObject(call)?.name) ?? 'unknown', args: asObject(call)?.args }));
    const calls = called.map((call) => callText(call.name, call.args));
    return { text: [messageText(last) ?? '', ...calls].filter((part) => part.trim() !== '').join('\n'), speaks: false, calls: called.map((call) => call.name) };
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
  const found = nodeRuns(runs);
  const work = found.work;
  let steps = found.steps;
  if (steps.length === 0) {
    const rootRun = runs.find((r) => !r.parentId || !all.has(r.parentId));
    steps = runs.filter((r) => rootRun && r.parentId === rootRun.id).map((r, i) => ({ ...r, node: r.name, step: i, path: [i] }));
  }
  // A step that says nothing (a supervisor routing by a hand-off) is left out quietly; a failed one, or one whose
  // outputs are not in the record, is reported.
  const said = (r: RunInfo) => r.output !== undefined || r.tools !== undefined;
  for (const r of steps) {
    if (said(r)) continue;
    const skipped = work.has(r.namespace ?? '') ? 'its tool work is read, its reply is missing' : 'skipped';
    if (r.error) warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" at step ${r.step} failed (error: ${r.error.slice(0, 60)}); ${skipped}` });
    else if (r.unrecorded) warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" at step ${r.step} has no outputs in the record (a run still pending, or left out of the export); ${skipped}` });
  }
  const placed = new Set<string>();
  for (const r of steps) {
    if (!r.approximate || placed.has(r.node!)) continue;
    placed.add(r.node!);
    warnings.push({ code: 'skipped-line', line: r.line, message: `node "${r.node}" runs inside a subgraph whose own step is not in the trace; its rounds are approximate` });
  }
  // A step whose agent did tool work is kept for that work, even where the agent said nothing after it.
  steps = steps.filter((r) => said(r) || work.has(r.namespace ?? ''));
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
  const read = graphRounds(order, work, true);
  let rounds = read.rounds;
  if (read.cut) warnings.push({ code: 'skipped-line', line: 0, message: read.cut });
  // One agent per tool, unless that takes the run past what one trace holds (agents x rounds).
  if (new Set(rounds.flatMap((round) => round.speakers.map((speaker) => speaker.from))).size * rounds.length > TRACE_LIMITS.maxAgentRounds) {
    warnings.push({ code: 'skipped-line', line: 0, message: `the tool nodes' results are read as their nodes' messages: one agent per tool would pass what one trace holds (${TRACE_LIMITS.maxAgentRounds} agent-rounds)` });
    rounds = graphRounds(order, work, false).rounds;
  }
  const registry = new AgentRegistry();
  const messages: Delivery[] = [];
  rounds.forEach(({ speakers, audience }, round) => {
    const hearing = new Set(audience);
    for (const { from, content, role, to: own, run: r } of speakers) {
      // The entry node's output is the user's request: the user, who lends no role to another (remediation's donor).
      registry.see(from, { role: role ?? (r.node === START_NODE ? 'user' : undefined) });
      // A graph step's speakers reach who speaks next (not themselves, unless they speak there); tool work has its own.
      const to = own ?? (hearing.has(from) ? audience!.filter((id) => id !== from) : audience!);
      messages.push({ from, to: to.length ? to : undefined, content, time: round, seq: r.seq, line: r.line, ts: r.ts, round });
    }
  });
  if (messages.length === 0) return undefined;
  const rootRun = runs.find((r) => !r.parentId || !all.has(r.parentId));
  const question = runs.find((r) => r.node === START_NODE)?.output ?? rootRun?.input;
  for (const m of messages) for (const id of m.to ?? []) registry.see(id);
  return buildEpisode(traceId, { run: traceId, task: question ? { question } : undefined, agents: registry.only(mentioned(messages)) }, messages, [], warnings);
}

/** Someone speaking in a round: with `to`, its own recipients (tool work); otherwise its round's audience. */
interface Speaker {
  from: string;
  content: string;
  role?: string;
  to?: string[];
  run: RunInfo;
}

/** A round of the episode: a graph step's speakers, heard by `audience`, or (`work`) one inner step of tool work. */
interface Round {
  speakers: Speaker[];
  work?: boolean;
  audience?: string[];
}

/**
 * The rounds of a run: each graph step, preceded by the tool work its agents did inside it (the calls and results of
 * a ReAct member's loop, by the member's own inner steps). A step's speakers are heard by everyone who speaks in the
 * next step and the agents working before it; inside tool work, a call reaches the tools that answer it and a result
 * only the agent that called.
 */
function graphRounds(order: readonly GraphStep[][], work: ReadonlyMap<string, GraphStep[]>, perTool: boolean): { rounds: Round[]; cut?: string } {
  const rounds: Round[] = [];
  for (const group of order) {
    rounds.push(...toolWorkRounds(group, work, perTool));
    rounds.push({ speakers: group.flatMap((r) => (r.output !== undefined || r.tools !== undefined ? speakersOf(r, perTool) : [])) });
  }
  const { rounds: kept, cut } = latestWorkLeftOut(rounds.filter((round) => round.speakers.length > 0));
  let next: string[] = [];
  let working: string[] = [];
  for (let i = kept.length - 1; i >= 0; i--) {
    const round = kept[i];
    if (round.work) {
      for (const speaker of round.speakers) if (speaker.role === undefined) working.push(speaker.from);
      continue;
    }
    round.audience = [...new Set([...next, ...working.reverse()])];
    next = round.speakers.map((speaker) => speaker.from);
    working = [];
  }
  return { rounds: kept, cut };
}

/**
 * The rounds within what one trace holds: where the tool work inside subgraphs would take the run past the most rounds,
 * its latest steps are left out (the earliest kept, as a reader that followed the run live kept them), and `cut` says so.
 */
function latestWorkLeftOut(rounds: Round[]): { rounds: Round[]; cut?: string } {
  const over = rounds.length - (TRACE_LIMITS.maxRound + 1);
  const work = rounds.filter((round) => round.work).length;
  if (over <= 0 || work === 0) return { rounds };
  const dropped = Math.min(over, work);
  let left = work - dropped;
  return {
    rounds: rounds.filter((round) => !round.work || left-- > 0),
    cut: `${dropped} of ${work} steps of tool work inside subgraphs not read (the latest): with them the run has ${rounds.length} rounds, past what one trace holds (${TRACE_LIMITS.maxRound + 1})`,
  };
}

/** The tool work of a graph step's agents, one round per inner step: each call to its tools, each result to its caller. */
function toolWorkRounds(group: readonly GraphStep[], work: ReadonlyMap<string, GraphStep[]>, perTool: boolean): Round[] {
  const byInnerStep = new Map<number, Speaker[]>();
  const speak = (step: number, speakers: Speaker[]) => {
    const at = byInnerStep.get(step);
    if (at) at.push(...speakers);
    else byInnerStep.set(step, speakers);
  };
  for (const r of group) {
    const agent = agentOf(r.node!);
    // The loop's inner steps in order; a turn's calls are answered by the tool node tasks of the next (one per call
    // under Send), else (the tool node failed, the run stopped) they go to the tools they name.
    const steps = innerSteps(work.get(r.namespace ?? '') ?? []);
    steps.forEach(([step, runs], k) => {
      const answering = (steps[k + 1]?.[1] ?? []).filter((w) => w.tools).flatMap((w) => speakersOf(w, perTool).map((speaker) => speaker.from));
      for (const w of runs) {
        const called = answering.length > 0 ? answering : [...new Set(w.calls?.map((name) => (perTool ? toolAgentId(name) : 'tools')))];
        speak(step, w.tools ? speakersOf(w, perTool).map((speaker) => ({ ...speaker, to: [agent] })) : [{ from: agent, content: w.output!, to: called, run: w }]);
      }
    });
  }
  return [...byInnerStep].sort(([a], [b]) => a - b).map(([, speakers]) => ({ speakers, work: true }));
}

/** A loop's runs grouped by inner step, in step order (the runs come sorted by step). */
function innerSteps(loop: readonly GraphStep[]): [number, GraphStep[]][] {
  const steps: [number, GraphStep[]][] = [];
  for (const w of loop) {
    if (steps.at(-1)?.[0] === w.step) steps.at(-1)![1].push(w);
    else steps.push([w.step!, [w]]);
  }
  return steps;
}

/**
 * The run of each (node, step) that is an agent: the one named like its node, else the earliest carrying that metadata.
 * A node inside a subgraph is one when it speaks in its own name (a member of a team that langgraph-supervisor nests),
 * not when its replies are its agent's (a ReAct loop's `agent` node); a node whose subgraph holds such members is
 * their team, and they speak for it. `work`: by an agent's namespace, the tool work inside its subgraph (its tool
 * nodes' results and its turns that call tools, hand-offs aside), in its inner steps' order.
 */
function nodeRuns(runs: RunInfo[]): { steps: GraphStep[]; work: Map<string, GraphStep[]> } {
  // The step each namespace ran at in its own graph ("team:c" → the top graph's step of the team node).
  const stepOf = new Map<string, number>();
  for (const r of runs) {
    if (r.namespace !== undefined && r.step !== undefined && r.node === namespaceNode(r.namespace) && !stepOf.has(r.namespace)) stepOf.set(r.namespace, r.step);
  }
  const chosen = new Map<string, GraphStep>();
  // An agent's tool work inside its subgraph, one run per task (its namespace), the one named like its node first.
  const innerWork = new Map<string, GraphStep>();
  for (const r of runs) {
    if (r.node === undefined || r.step === undefined) continue;
    if (r.namespace?.includes('|') && !r.speaks) {
      const current = innerWork.get(r.namespace);
      if (isToolWork(r) && (!current || (r.name === r.node && current.name !== current.node))) innerWork.set(r.namespace, { ...r, path: [] });
      continue;
    }
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
  const steps = nodes.filter((r) => r.namespace === undefined || !teams.has(r.namespace));
  const agents = new Set(steps.flatMap((r) => (r.namespace === undefined ? [] : [r.namespace])));
  const work = new Map<string, GraphStep[]>();
  for (const [namespace, r] of innerWork) {
    const owner = namespace.slice(0, namespace.lastIndexOf('|'));
    if (!agents.has(owner)) continue;
    const done = r.tools ? { ...r, tools: r.tools.filter((result) => !HANDOFF.test(result.name)) } : r;
    const loop = work.get(owner);
    if (loop) loop.push(done);
    else work.set(owner, [done]);
  }
  for (const loop of work.values()) loop.sort((a, b) => a.step! - b.step! || a.seq - b.seq);
  return { steps, work };
}

/** Whether a run inside a subgraph is its agent's tool work: a tool node's results or a turn that calls tools, not hand-offs. */
function isToolWork(r: RunInfo): boolean {
  return r.calls !== undefined || (r.tools !== undefined && r.tools.some((result) => !HANDOFF.test(result.name)));
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
function speakersOf(r: RunInfo, perTool: boolean): Speaker[] {
  if (!r.tools) return [{ from: agentOf(r.node!), content: r.output!, run: r }];
  if (perTool && r.tools.length <= MAX_TOOL_RESULTS) return r.tools.map((result) => ({ from: toolAgentId(result.name), content: result.text, role: 'tool', run: r }));
  return [{ from: agentOf(r.node!), content: r.tools.map((result) => result.text).join('\n\n'), role: 'tool', run: r }];
}

function agentOf(node: string): string {
  return node === START_NODE ? 'user' : node;
}

export const langsmithFormat: FormatSpec = {
  title: 'LangSmith / LangGraph runs',
  aliases: ['langgraph'],
  detect: {
    record: (o) => 'run_type' in o || 'dotted_order' in o || 'parent_run_id' in o || asObject(asObject(o.extra)?.metadata)?.langgraph_node !== undefined || Array.isArray(o.runs) || isBatch(o),
    keys: 'run_type, parent_run_id, extra.metadata.langgraph_node',
    signature: /"(run_type|dotted_order|parent_run_id|langgraph_node)"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'run objects (id, name, run_type, parent_run_id, inputs, outputs) whose extra.metadata has langgraph_node and langgraph_step',
  // Elements of a top-level array; a top-level object (one run tree, or {"runs": [...]}) is read whole.
  select: selectRuns,
  create: (file) => new LangsmithImporter(file),
};
