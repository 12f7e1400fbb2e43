// A recorded tool-use run (AgentDojo's shape) replayed as LangGraph records it in LangSmith: as the prebuilt ReAct
// agent (a root run, the `__start__` node with the user's request, then supersteps alternating the `agent` node, the
// model's turn with its words and tool calls, and the `tools` node, one ToolMessage per call), or with that ReAct loop
// as a `langgraph-supervisor` member (its nodes inside the member's subgraph, by checkpoint namespace). Dict messages as
// LangChain's JSON export writes them. Used to check that the LangSmith importer reads a poisoned tool result in a
// ReAct loop as the AgentDojo importer reads it from the run's own log.
import { turnResults, type ToolUseRun } from './otlpRuns';

/** The LangSmith runs of `run` as one trace `id`: [root, __start__, agent, tools, agent, …]. */
export function reactGraphRuns(run: ToolUseRun, id: string): object[] {
  const graph = graphOf(run, id);
  return [graph.root, graph.node('__start__', 0, [{ type: 'human', content: graph.user }]), ...reactLoop(run, graph, 1)];
}

/**
 * The LangSmith runs of `run` with its assistant as the member `assistant` of a supervisor: [root, __start__, the
 * supervisor's hand-off, the member's run (its last reply), its loop's agent and tools nodes, the supervisor's answer].
 */
export function supervisorGraphRuns(run: ToolUseRun, id: string): object[] {
  const graph = graphOf(run, id);
  const member = `assistant:${id}-member`;
  const loop = reactLoop(run, graph, 1, member);
  const last = [...run.messages].reverse().find((m) => m.role === 'assistant' && (m.content ?? '').trim() !== '');
  const reply = last ? [{ type: 'ai', name: 'assistant', content: last.content }] : [];
  return [
    graph.root,
    graph.node('__start__', 0, [{ type: 'human', content: graph.user }]),
    graph.node('supervisor', 1, [{ type: 'ai', name: 'supervisor', content: '', tool_calls: [{ name: 'transfer_to_assistant', args: {}, id: `${id}-handoff` }] }], `supervisor:${id}-1`),
    graph.node('assistant', 2, reply, member),
    ...loop,
    graph.node('supervisor', 3, [{ type: 'ai', name: 'supervisor', content: last?.content ?? 'Done.' }], `supervisor:${id}-3`),
  ];
}

/** A trace's root run, the user's request, and a node run builder (one run a step, `namespace` its checkpoint namespace). */
function graphOf(run: ToolUseRun, id: string) {
  const at = (step: number) => new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString();
  const user = run.messages.find((m) => m.role === 'user')?.content ?? '';
  let made = 0;
  const node = (node: string, step: number, messages: object[], namespace?: string) => ({
    id: `${id}-${made++}`,
    name: node,
    run_type: 'chain',
    parent_run_id: id,
    trace_id: id,
    start_time: at(made),
    outputs: { messages },
    extra: { metadata: { langgraph_node: node, langgraph_step: step, ...(namespace !== undefined ? { langgraph_checkpoint_ns: namespace } : {}) } },
  });
  return { user, node, root: { id, name: 'LangGraph', run_type: 'chain', trace_id: id, start_time: at(0), inputs: { messages: [{ type: 'human', content: user }] } } };
}

/** The ReAct loop's node runs from step `step`: each assistant turn an `agent` run, its calls' results a `tools` run (inside `member`'s subgraph when given). */
function reactLoop(run: ToolUseRun, graph: ReturnType<typeof graphOf>, step: number, member?: string): object[] {
  const runs: object[] = [];
  const inside = (node: string) => (member !== undefined ? `${member}|${node}:${step}` : undefined);
  for (const [at, message] of run.messages.entries()) {
    if (message.role !== 'assistant') continue;
    const calls = (message.tool_calls ?? []).map((call, i) => ({ name: call.function, args: call.args ?? {}, id: call.id ?? `call_${at}_${i}` }));
    runs.push(graph.node('agent', step, [{ type: 'ai', content: message.content ?? '', tool_calls: calls }], inside('agent')));
    step++;
    if (calls.length === 0) continue;
    const contents = turnResults(run, at);
    runs.push(graph.node('tools', step, calls.map((call, i) => ({ type: 'tool', name: call.name, tool_call_id: call.id, content: contents[i] })), inside('tools')));
    step++;
  }
  return runs;
}
