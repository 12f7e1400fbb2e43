// Every format Agent Immune reads, each described once by its record (FormatSpec: title, --from aliases, detection,
// how to read it). The format union, --from names, detection order and help texts all derive from this list.
// Add an importer: its file with its FormatSpec, one line here, and docs/importers.md.
import { agentDojoFormat } from './agentdojo';
import { anyAgentFormat } from './anyAgent';
import { agentOpsFormat } from './agentops';
import { autogenFormat } from './autogen';
import { debateFormat } from './debate';
import { groupChatFormat } from './groupChat';
import { infaGuardFormat } from './infaGuard';
import { jaegerFormat } from './jaeger';
import { langchainMessagesFormat } from './langchainMessages';
import { langfuseFormat } from './langfuse';
import { langsmithFormat } from './langsmith';
import { madFormat } from './mad';
import { otlpFormat, phoenixFormat } from './otlp';
import { sweAgentFormat } from './sweAgent';
import { tau2BenchFormat } from './tau2Bench';
import { tauBenchFormat } from './tauBench';
import type { FormatSpec } from './types';

/** The foreign formats by name, in detection order (most specific first). */
export const FORMATS = {
  otlp: otlpFormat,
  'any-agent': anyAgentFormat,
  // Before Phoenix: an array of AgentOps exports holds `span_kind` too (and `span_attributes`, which Phoenix's spans do not).
  agentops: agentOpsFormat,
  phoenix: phoenixFormat,
  jaeger: jaegerFormat,
  // Before LangSmith: a Langfuse trace of a LangGraph app keeps `langgraph_node` in its observations' metadata.
  langfuse: langfuseFormat,
  'infa-guard': infaGuardFormat,
  agentdojo: agentDojoFormat,
  debate: debateFormat,
  mad: madFormat,
  autogen: autogenFormat,
  langsmith: langsmithFormat,
  // Before Who&When: a trajectory's `history` is a list of chat messages too.
  'swe-agent': sweAgentFormat,
  'who-and-when': groupChatFormat,
  'tau-bench': tauBenchFormat,
  tau2: tau2BenchFormat,
  langchain: langchainMessagesFormat,
} satisfies Record<string, FormatSpec>;

/** A foreign format, read through an importer. */
export type ForeignFormat = keyof typeof FORMATS;

/** The formats Agent Immune reads; `agent-trace` is the native one. */
export type ImportFormat = 'agent-trace' | ForeignFormat;

/** The native format: its --from aliases and its phrase in "expected ..." messages. */
export const NATIVE_FORMAT = { title: 'agent-trace/v1 JSON Lines', aliases: ['native', 'agent-trace/v1'] } as const;

/** Every foreign format with its record, in detection order. */
export const FOREIGN_FORMATS = Object.entries(FORMATS) as [ForeignFormat, FormatSpec][];

/** Every format name --from accepts as itself, native first. */
export const IMPORT_FORMATS: readonly ImportFormat[] = ['agent-trace', ...FOREIGN_FORMATS.map(([name]) => name)];

/** The --from help: one line per format (name, title, aliases), indented. */
export function formatsHelp(indent: string): string {
  const rows: [string, string, readonly string[], string?][] = [['agent-trace', NATIVE_FORMAT.title, NATIVE_FORMAT.aliases], ...FOREIGN_FORMATS.map(([name, spec]): [string, string, readonly string[], string] => [name, spec.title, spec.aliases, spec.detect.keys])];
  const width = Math.max(...rows.map(([name]) => name.length));
  const told = (keys: string | undefined) => (keys ? `\n${indent}${' '.repeat(width)}  detected by ${keys}` : '');
  return rows.map(([name, title, aliases, keys]) => `${indent}${name.padEnd(width)}  ${title}${aliases.length ? `; also ${aliases.join(', ')}` : ''}${told(keys)}`).join('\n');
}
