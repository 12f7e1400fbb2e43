// A recorded tool-use run (AgentDojo's shape) replayed as LangGraph's prebuilt ReAct agent records it in LangSmith: a
// root run, the `__start__` node with the user's request, then supersteps alternating the `agent` node (the model's
// turn: its words and tool calls) and the `tools` node (one ToolMessage per call), dict messages as LangChain's
// `messages_to_dict`-free JSON export writes them. Used to check that the LangSmith importer reads a poisoned tool
// result in a ReAct loop as the AgentDojo importer reads it from the run's own log.
import { turnResults, type ToolUseRun } from './otlpRuns';

/** The LangSmith runs of `run` as one trace `id`: [root, __start__, agent, tools, agent, …]. */
export function reactGraphRuns(run: ToolUseRun, id: string): object[] {
  const at = (step: number) => new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString();
  const user = run.messages.find((m) => m.role === 'user')?.content ?? '';
  const node = (node: string, step: number, messages: object[]) => ({
    id: `${id}-${step}`,
    name: node,
    run_type: 'chain',
    parent_run_id: id,
    trace_id: id,
    start_time: at(step),
    outputs: { messages },
    extra: { metadata: { langgraph_node: node, langgraph_step: step } },
  });
  const runs: object[] = [{ id, name: 'LangGraph', run_type: 'chain', trace_id: id, start_time: at(0), inputs: { messages: [{ type: 'human', content: user }] } }];
  runs.push(node('__start__', 0, [{ type: 'human', content: user }]));
  let step = 1;
  for (const [at, message] of run.messages.entries()) {
    if (message.role !== 'assistant') continue;
    const calls = (message.tool_calls ?? []).map((call, i) => ({ name: call.function, args: call.args ?? {}, id: call.id ?? `call_${at}_${i}` }));
    runs.push(node('agent', step++, [{ type: 'ai', content: message.content ?? '', tool_calls: calls }]));
    if (calls.length === 0) continue;
    const contents = turnResults(run, at);
    const toolMessages = calls.map((call, i) => ({ type: 'tool', name: call.name, tool_call_id: call.id, content: contents[i] }));
    runs.push(node('tools', step++, toolMessages));
  }
  return runs;
}
