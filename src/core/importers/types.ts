// What an importer is: it is fed JSON values (or text lines) read from a foreign trace file and returns episodes,
// each a list of agent-trace/v1 records that TraceBuilder validates like any native file.
import type { TraceWarning } from '../trace/types';

/** The formats Agent Immune reads; `agent-trace` is the native one. */
export type ImportFormat = 'agent-trace' | 'otlp' | 'autogen' | 'langsmith' | 'infa-guard' | 'agentdojo';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['agent-trace', 'otlp', 'autogen', 'langsmith', 'infa-guard', 'agentdojo'];

/** How a file is laid out: one JSON value per line, or one JSON document read element by element. */
export type Layout = 'lines' | 'document';

/** A key or array index on the way from the document root to a value. */
export type JsonPath = readonly (string | number)[];

/** One agent-trace/v1 record with the line of the source file it came from. */
export interface SourcedRecord {
  record: Record<string, unknown>;
  line: number;
}

/** One run found in a file: a conversation, a LangGraph invocation, an AG2 session, an INFA-Guard episode or an AgentDojo run. */
export interface Episode {
  /** Stable id within the file (conversation id, trace id, "episode-3"). */
  id: string;
  /** agent-trace/v1 records: the header first, then messages, then labels. */
  records: SourcedRecord[];
  /** Observations made while mapping (skipped records, guessed fields). */
  warnings: TraceWarning[];
}

/** A streaming importer: feed values in file order, then `finish()`. */
export interface Importer {
  readonly format: ImportFormat;
  /** One JSON value: a line of a JSON Lines file, or an element the document splitter selected. */
  add(value: unknown, line: number): void;
  /** A line that is not JSON; returns false when the format has no such lines (the reader then rejects it). */
  addText?(text: string, line: number): boolean;
  /** All episodes in file order; throws InputError when the file holds nothing this format can analyse. */
  finish(): Episode[];
}

/** What the Node reader needs to know about a format. */
export interface FormatSpec {
  format: Exclude<ImportFormat, 'agent-trace'>;
  /** Human name used in messages ("OTLP JSON (OpenTelemetry GenAI)"). */
  title: string;
  /** What a file of this format must contain, for "expected ..." messages. */
  expects: string;
  /** In the document layout: which values (objects or arrays) the splitter hands to `add` (e.g. each span). */
  select(path: JsonPath, isArray: boolean): boolean;
  create(file?: string): Importer;
}
