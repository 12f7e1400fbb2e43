// The runtime API of the `agent-immune` package, for agent code that assembles prompts and checks traces.
export { parseTraceText, serializeTrace, TraceBuilder, TRACE_SCHEMA } from './core/trace/parse';
export type { Trace, TraceMessage, TraceLabel, AgentInfo, TaskInfo, Category } from './core/trace/types';
export { InputError } from './core/errors';
export { readTraceFile } from './node/readTrace';
export { checkSkillIntegrity } from './node/integrity/check';
export type { SkillIntegrityOptions, SkillIntegrityResult } from './node/integrity/check';
export { SkillIntegrityError } from './core/integrity/errors';
export type { IntegrityFinding, IntegrityCode, IntegrityStatus } from './core/integrity/types';
