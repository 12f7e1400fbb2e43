// Reads an agent-trace/v1 file from disk as a stream into a Trace.
import { TraceBuilder, type ParseOptions } from '../core/trace/parse';
import type { Trace } from '../core/trace/types';
import { readLines, DEFAULT_MAX_LINE_BYTES } from './lines';

/** Options for reading a trace file. */
export interface ReadTraceOptions extends Omit<ParseOptions, 'file'> {
  maxLineBytes?: number;
}

/** Streams an agent-trace/v1 JSONL file into a Trace; throws InputError naming file and line. */
export async function readTraceFile(file: string, options: ReadTraceOptions = {}): Promise<Trace> {
  const builder = new TraceBuilder({ ...options, file });
  for await (const [text, line] of readLines(file, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, undefined, options.lenient)) builder.addLine(text, line);
  return builder.finish();
}
