// Reads any supported trace file from disk: detects the format from its first bytes, then streams it (JSON Lines
// line by line, a JSON document element by element) through the format's importer into validated Traces.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError, jsonErrorText, withinStack } from '../core/errors';
import { DETECT_HEAD_BYTES, detectFormat, unknownFormatError, type Detected } from '../core/importers/detect';
import { FORMATS, episodeToTrace, guessLayout, selectEpisode, type Episode, type ForeignFormat, type ImportFormat, type Layout } from '../core/importers';
import type { Importer } from '../core/importers/types';
import { JsonSplitter } from '../core/importers/jsonStream';
import type { Trace, TraceWarning } from '../core/trace/types';
import { DEFAULT_MAX_LINE_BYTES, readLines } from './lines';
import { readTraceFile, type ReadTraceOptions } from './readTrace';
import { utf16Of } from './utf16';

/** Options for reading any trace file. */
export interface ReadAnyTraceOptions extends ReadTraceOptions {
  /** Skip detection and read as this format. */
  from?: ImportFormat;
  /** Which episode to return when the file holds several (0-based). */
  episode?: number;
}

/** Reads the first bytes of a file as text for detection, from its first non-blank byte (blank lines may run for megabytes). */
async function readHead(file: string): Promise<{ head: string; complete: boolean }> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(DETECT_HEAD_BYTES);
    let start = 0;
    let bytesRead = (await handle.read(buffer, 0, DETECT_HEAD_BYTES, 0)).bytesRead;
    for (let blank = leadingBlank(buffer, bytesRead); blank === bytesRead && bytesRead > 0; blank = leadingBlank(buffer, bytesRead)) {
      start += bytesRead;
      bytesRead = (await handle.read(buffer, 0, DETECT_HEAD_BYTES, start)).bytesRead;
    }
    const offset = leadingBlank(buffer, bytesRead);
    if (offset > 0 && bytesRead === DETECT_HEAD_BYTES) {
      start += offset;
      bytesRead = (await handle.read(buffer, 0, DETECT_HEAD_BYTES, start)).bytesRead;
    }
    if (buffer.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000') {
      throw new InputError('unknown-format', 'this is an SQLite database (AG2\'s default runtime logger writes logs.db); log with autogen.runtime_logging.start(logger_type="file") and analyse its runtime.log', file);
    }
    if (utf16Of(buffer.subarray(0, bytesRead))) throw new InputError('binary', 'the file is UTF-16 text (PowerShell\'s ">" writes it); save it as UTF-8 and read that', file);
    if (buffer.subarray(0, bytesRead).includes(0)) throw new InputError('binary', 'the file looks binary (NUL byte); expected a JSON or JSON Lines trace', file);
    // A multi-byte character may be cut at the end of the head: drop the partial tail.
    return { head: new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead)).replace(/\uFFFD+$/, ''), complete: bytesRead < DETECT_HEAD_BYTES };
  } finally {
    await handle.close();
  }
}

/** How many of the first `length` bytes are spaces, tabs and line breaks. */
function leadingBlank(buffer: Buffer, length: number): number {
  let i = 0;
  while (i < length && (buffer[i] === 32 || buffer[i] === 9 || buffer[i] === 10 || buffer[i] === 13)) i++;
  return i;
}

/** Detects a file's format and layout (or applies --from); throws InputError('unknown-format') when it cannot tell. */
export async function detectFileFormat(file: string, from?: ImportFormat): Promise<Detected> {
  const { head, complete } = await readHead(file);
  if (head.trim() === '') throw new InputError('empty', 'the file is empty; expected a trace', file);
  const detected = detectFormat(head, complete);
  if (from) return { format: from, layout: detected?.format === from ? detected.layout : guessLayout(head) };
  if (!detected) throw (complete && (notJson(head, file) ?? emptyDocument(head, file))) || unknownFormatError(file, head);
  return detected;
}

/** For a whole file no format was found in: the error when it is JSON that holds nothing (`[]`, `{}`). */
function emptyDocument(head: string, file: string): InputError | undefined {
  const whole = head.replace(/^\uFEFF/, '').trim();
  if (!/^\[\s*\]$|^\{\s*\}$/.test(whole)) return undefined;
  return new InputError('empty', `the file holds an empty ${whole.startsWith('[') ? 'list' : 'object'}; expected a trace`, file, 1);
}

/** For a whole file no format was found in: the error when it is not JSON at all (as a document or by its first line). */
function notJson(head: string, file: string): InputError | undefined {
  const whole = head.replace(/^\uFEFF/, '');
  const first = whole.split('\n').find((line) => line.trim() !== '') ?? '';
  try {
    JSON.parse(whole);
    return undefined;
  } catch (error) {
    try {
      JSON.parse(first);
      return undefined;
    } catch {
      const objection = jsonErrorText(error);
      const at = Number(/position (\d+)/.exec(objection)?.[1] ?? NaN);
      const endsEarly = /end of JSON input/.test(objection) || at >= whole.trimEnd().length;
      return new InputError('invalid-json', `not valid JSON (${objection})${endsEarly ? ': it ends early, as a file cut short does' : ''}; expected a trace`, file, 1);
    }
  }
}

/** How a foreign-format file is read: the longest line, and whether a broken line is skipped (--lenient). */
interface FeedOptions {
  maxLineBytes?: number;
  lenient?: boolean;
}

/** Streams a foreign-format file through its importer and returns every episode it holds. */
export async function readEpisodes(file: string, format: ForeignFormat, layout: Layout, options: FeedOptions = {}): Promise<Episode[]> {
  const { importer, skipped } = await feedImporter(file, format, layout, options, async () => {});
  const episodes = withinStack(() => importer.finish(), file);
  episodes[0].warnings.unshift(...skipped);
  return episodes;
}

/**
 * Streams a foreign-format file through its importer and hands `each` every episode as soon as the format has it
 * whole (a file of runs is then never held at once: `analyze --all`, `scan`). A line skipped under --lenient is
 * reported on the run after it, or on the last run when none follows.
 */
export async function streamEpisodes(file: string, format: ForeignFormat, layout: Layout, options: FeedOptions, each: (episode: Episode) => Promise<void>): Promise<void> {
  // The latest run is held back one step, so that lines skipped after the last run are reported on it.
  let held: Episode | undefined;
  const handOver = async (episodes: Episode[], skipped: TraceWarning[]) => {
    for (const episode of episodes) {
      if (held) await each(held);
      episode.warnings.unshift(...skipped.splice(0));
      held = episode;
    }
  };
  const { importer, skipped } = await feedImporter(file, format, layout, options, (fed, pending) => handOver(fed.take?.() ?? [], pending));
  await handOver(withinStack(() => importer.finish(), file), skipped);
  if (held) {
    held.warnings.push(...skipped.splice(0));
    await each(held);
  }
}

/** Feeds the file's records to a new importer of `format`, calling `after` once each line or chunk is in. */
async function feedImporter(
  file: string,
  format: ForeignFormat,
  layout: Layout,
  { maxLineBytes = DEFAULT_MAX_LINE_BYTES, lenient = false }: FeedOptions,
  after: (importer: Importer, skipped: TraceWarning[]) => Promise<void>,
): Promise<{ importer: Importer; skipped: TraceWarning[] }> {
  const spec = FORMATS[format];
  const importer = spec.create(file);
  const skipped: TraceWarning[] = [];
  if (layout === 'lines') {
    for await (const [raw, line] of readLines(file, maxLineBytes, undefined, lenient)) {
      const text = raw.replace(/^\uFEFF/, '');
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(spec.linePrefix ? text.replace(spec.linePrefix, '') : text);
      } catch (error) {
        if (importer.addText?.(text, line)) continue;
        const message = `not valid JSON (${jsonErrorText(error)}); expected ${spec.title} as JSON Lines`;
        // --lenient: a log still being written may end in a cut line; skip it and say so.
        if (!lenient) throw new InputError('invalid-json', message, file, line);
        skipped.push({ code: 'skipped-line', line, message });
        continue;
      }
      withinStack(() => importer.add(value, line), file, line);
      await after(importer, skipped);
    }
  } else {
    const splitter = new JsonSplitter(spec.select, (value, line) => withinStack(() => importer.add(value, line), file, line), file);
    // Bytes decoded strictly, chunk by chunk: a NUL or invalid UTF-8 anywhere in the document refuses it (not only in the head).
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      if (chunk.includes(0)) throw new InputError('binary', 'the file holds a NUL byte; expected a JSON document', file);
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw new InputError('binary', 'the file is not UTF-8 text; expected a JSON document', file);
      }
      splitter.write(text);
      await after(importer, skipped);
    }
    try {
      splitter.write(decoder.decode());
    } catch {
      throw new InputError('binary', 'the file ends inside a UTF-8 character; expected a JSON document', file);
    }
    splitter.end();
  }
  return { importer, skipped };
}

/** Reads any supported trace file into one Trace (the chosen episode); throws InputError naming file, format and what is missing. */
export async function readAnyTrace(file: string, options: ReadAnyTraceOptions = {}): Promise<Trace> {
  return (await readRunOf(file, options)).trace;
}

/** Like readAnyTrace, and also the ids of every run the file holds (file order), read in the same pass. */
export async function readRunOf(file: string, options: ReadAnyTraceOptions = {}): Promise<{ trace: Trace; runs: string[] }> {
  const { from, episode, maxLineBytes, ...parse } = options;
  const detected = await detectFileFormat(file, from);
  if (detected.format === 'agent-trace') {
    if (episode !== undefined && episode !== 0) throw new InputError('invalid-field', `--episode ${episode} is out of range: an agent-trace/v1 file holds one run`, file);
    const trace = await readTraceFile(file, { ...parse, maxLineBytes });
    return { trace, runs: [runId(trace)] };
  }
  const episodes = await readEpisodes(file, detected.format, detected.layout, { maxLineBytes, lenient: parse.lenient });
  return { trace: selectEpisode(episodes, { ...parse, file, episode }), runs: episodes.map((e) => e.id) };
}

/** The id a one-run file's run is listed under. */
export const runId = (trace: Trace): string => trace.run ?? 'run';

/** One run of a file; `trace()` builds it on demand and releases the run's records (build it once). */
export interface Run {
  id: string;
  trace(): Trace;
}

/** Reads a file into its runs without building them yet, so a converter can write and drop them one at a time. */
export async function readRuns(file: string, options: Omit<ReadAnyTraceOptions, 'episode'> = {}): Promise<{ format: ImportFormat; runs: Run[] }> {
  const { from, maxLineBytes, ...parse } = options;
  const detected = await detectFileFormat(file, from);
  if (detected.format === 'agent-trace') {
    const trace = await readTraceFile(file, { ...parse, maxLineBytes });
    return { format: 'agent-trace', runs: [{ id: runId(trace), trace: () => trace }] };
  }
  const episodes = await readEpisodes(file, detected.format, detected.layout, { maxLineBytes, lenient: parse.lenient });
  return { format: detected.format, runs: episodes.map((episode) => runOf(episode, { ...parse, file })) };
}

/**
 * Hands `each` every run of any supported file, in file order, as soon as it is read whole where the format allows
 * (one run is held at a time for files of runs: debates, AgentDojo, group chats, tau-bench); returns the format.
 */
export async function forEachRun(file: string, options: Omit<ReadAnyTraceOptions, 'episode'>, each: (run: Run, index: number) => Promise<void>): Promise<ImportFormat> {
  const { from, maxLineBytes, ...parse } = options;
  const detected = await detectFileFormat(file, from);
  if (detected.format === 'agent-trace') {
    const trace = await readTraceFile(file, { ...parse, maxLineBytes });
    await each({ id: runId(trace), trace: () => trace }, 0);
    return 'agent-trace';
  }
  let index = 0;
  await streamEpisodes(file, detected.format, detected.layout, { maxLineBytes, lenient: parse.lenient }, (episode) => each(runOf(episode, { ...parse, file }), index++));
  return detected.format;
}

/** A run of an episode: its trace built on demand, once, and the episode released then. */
function runOf(episode: Episode, options: Parameters<typeof episodeToTrace>[1]): Run {
  let held: Episode | undefined = episode;
  const id = episode.id;
  return {
    id,
    trace: () => {
      if (!held) throw new Error(`run ${id} was already built`);
      const trace = episodeToTrace(held, options);
      held = undefined;
      return trace;
    },
  };
}

/** Reads every run of any supported file as Traces. */
export async function readAllTraces(file: string, options: Omit<ReadAnyTraceOptions, 'episode'> = {}): Promise<{ format: ImportFormat; traces: { id: string; trace: Trace }[] }> {
  const { format, runs } = await readRuns(file, options);
  return { format, traces: runs.map((run) => ({ id: run.id, trace: run.trace() })) };
}

