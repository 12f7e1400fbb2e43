// What an importer is: it is fed JSON values (or text lines) read from a foreign trace file and returns episodes,
// each a list of agent-trace/v1 records that TraceBuilder validates like any native file.
import type { TraceWarning } from '../trace/types';

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
  /** One JSON value: a line of a JSON Lines file, or an element the document splitter selected. */
  add(value: unknown, line: number): void;
  /** A line that is not JSON; returns false when the format has no such lines (the reader then rejects it). */
  addText?(text: string, line: number): boolean;
  /** The episodes complete so far, handed over and forgotten (formats whose every record is a run): a reader that
   * takes them as it goes never holds the whole file. `finish` then returns the rest. */
  take?(): Episode[];
  /** All episodes in file order (not taken yet); throws InputError when the file holds nothing this format can analyse. */
  finish(): Episode[];
}

/** How a format is told from the content of a file (never its name). */
export interface FormatDetection {
  /** True for a parsed JSON record only this format has (by its distinguishing fields). */
  record(o: Record<string, unknown>): boolean;
  /** The keys that give it away, for the --from help: "resourceSpans". */
  keys: string;
  /** Matches the head of a document too large to parse from its first kilobytes. */
  signature: RegExp;
  /** A line among the first few that is not JSON but marks the format (a log banner). */
  banner?: RegExp;
  /** A lone top-level object (one line, nothing after) is a document that may nest runs, not JSON Lines. */
  loneObjectIsDocument: boolean;
}

/** Everything about one foreign format, in one record (registry.ts lists them): names, detection, reading. */
export interface FormatSpec {
  /** Human name used in messages and help ("OTLP JSON (OpenTelemetry GenAI / OpenInference)"). */
  title: string;
  /** Other names --from accepts (lower case): "otel", "ag2". */
  aliases: readonly string[];
  detect: FormatDetection;
  /** What a file of this format must contain, for "expected ..." messages. */
  expects: string;
  /** In the document layout: which values (objects or arrays) the splitter hands to `add` (e.g. each span). */
  select(path: JsonPath, isArray: boolean): boolean;
  /** In the lines layout: a prefix the writer may put before each line's JSON (a logging format), removed before parsing. */
  linePrefix?: RegExp;
  create(file?: string): Importer;
}
