// The runtime API of the `agent-immune` package, for agent code that assembles prompts and checks traces.
export { parseTraceText, serializeTrace, TraceBuilder, TRACE_SCHEMA } from './core/trace/parse';
export type { Trace, TraceMessage, TraceLabel, AgentInfo, TaskInfo, Category } from './core/trace/types';
export { InputError } from './core/errors';
export { readTraceFile } from './node/readTrace';
