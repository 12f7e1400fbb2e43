// The runtime API of the `agent-immune` package, for agent code that assembles prompts and checks traces.
export { parseTraceText, serializeTrace, TraceBuilder, TRACE_SCHEMA } from './core/trace/parse';
export type { Trace, TraceMessage, TraceLabel, AgentInfo, TaskInfo, Category } from './core/trace/types';
export { InputError } from './core/errors';
export { readTraceFile } from './node/readTrace';
export { readAnyTrace, readAllTraces } from './node/readAnyTrace';
export { importTraceText, parseFormatName, IMPORT_FORMATS } from './core/importers';
export type { ImportFormat } from './core/importers';
export { checkSkillIntegrity } from './node/integrity/check';
export type { SkillIntegrityOptions, SkillIntegrityResult } from './node/integrity/check';
export { SkillIntegrityError } from './core/integrity/errors';
export type { IntegrityFinding, IntegrityCode, IntegrityStatus } from './core/integrity/types';
export { MIND_VIRUS_IMMUNITY_WARNING, DELEGATION_BOUNDARY_LABEL, DELEGATION_OPEN_TAG, DELEGATION_CLOSE_TAG } from './core/harden/texts';
export { withImmunityWarning, wrapDelegatedTask } from './core/harden/runtime';
export { containsImmunityWarning as hasImmunityWarning } from './core/harden/detect';
export { hardenText, fixAll } from './core/harden/analyze';
export type { HardenFinding, HardenCode, PromptFileKind, TextEdit } from './core/harden/types';
