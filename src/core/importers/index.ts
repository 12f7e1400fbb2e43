// The importers' registry and the in-memory entry points: pick a format, turn its episodes into validated Traces.
import { InputError, jsonErrorText, withinStack } from '../errors';
import { TRACE_LIMITS, TraceBuilder, parseTraceText, type ParseOptions } from '../trace/parse';
import type { Trace } from '../trace/types';
import { detectFormat, unknownFormatError, type Detected } from './detect';
import { splitJson } from './jsonStream';
import { FOREIGN_FORMATS, FORMATS, IMPORT_FORMATS, NATIVE_FORMAT, type ForeignFormat, type ImportFormat } from './registry';
import type { Episode } from './types';

export { classifyRecord, detectFormat, type Detected } from './detect';
export { JsonSplitter } from './jsonStream';
export { FOREIGN_FORMATS, FORMATS, formatsHelp, IMPORT_FORMATS, type ForeignFormat, type ImportFormat } from './registry';
export type { Episode, FormatSpec, Importer, Layout } from './types';

/** Names accepted by --from besides the format names: each format's aliases. */
const ALIASES = new Map<string, ImportFormat>([
  ...NATIVE_FORMAT.aliases.map((alias): [string, ImportFormat] => [alias, 'agent-trace']),
  ...FOREIGN_FORMATS.flatMap(([name, spec]) => spec.aliases.map((alias): [string, ImportFormat] => [alias, name])),
]);

/** Resolves a --from value to a format; throws InputError('unknown-format') listing the valid names. */
export function parseFormatName(name: string, file?: string): ImportFormat {
  const key = name.trim().toLowerCase();
  const format = (IMPORT_FORMATS as readonly string[]).includes(key) ? (key as ImportFormat) : ALIASES.get(key);
  if (!format) throw new InputError('unknown-format', `unknown format "${name}"; expected one of ${IMPORT_FORMATS.join(', ')}`, file);
  return format;
}

/** Options for turning episodes into traces. */
export interface EpisodeOptions extends ParseOptions {
  /** Which episode to return when the file holds several (0-based); default 0 with a 'multiple-episodes' warning. */
  episode?: number;
}

/** Validates one episode through TraceBuilder, so imported traces obey exactly the native rules. */
export function episodeToTrace(episode: Episode, options: ParseOptions = {}): Trace {
  const builder = new TraceBuilder(options);
  for (const { record, line } of episode.records) {
    try {
      builder.addRecord(record, line);
    } catch (error) {
      throw pastLastRound(error, record);
    }
  }
  const trace = builder.finish();
  trace.warnings.push(...episode.warnings);
  return trace;
}

/**
 * A round past the limit, said of the log: an importer numbers rounds from its turns or steps, so the native message's
 * `"round" is 10000` names a field the file does not have (a Who&When history of a million messages).
 */
function pastLastRound(error: unknown, record: Record<string, unknown>): unknown {
  const round = record.round;
  if (!(error instanceof InputError) || error.field !== 'round' || typeof round !== 'number' || round <= TRACE_LIMITS.maxRound) return error;
  return new InputError(error.kind, `the run goes past round ${TRACE_LIMITS.maxRound} (this entry is round ${round}, as its turns or steps are counted): split the log into several runs`, error.file, error.line, error.field);
}

/** Picks the episode asked for (or the first, warning that there are more) and builds its Trace. */
export function selectEpisode(episodes: Episode[], options: EpisodeOptions = {}): Trace {
  const { episode, ...parse } = options;
  if (episode !== undefined && (!Number.isInteger(episode) || episode < 0 || episode >= episodes.length)) {
    throw new InputError('invalid-field', `--episode ${episode} is out of range: the file holds ${episodes.length} episode(s), numbered 0..${episodes.length - 1}`, options.file);
  }
  const trace = episodeToTrace(episodes[episode ?? 0], parse);
  if (episode === undefined && episodes.length > 1) {
    trace.warnings.push({ code: 'multiple-episodes', line: 0, message: `the file holds ${episodes.length} episodes (runs/conversations); analysed episode 0 "${episodes[0].id}" — choose another with --episode N (in the editor: Choose Run)` });
  }
  return trace;
}

/** Reads a whole foreign file held in memory into its episodes (the Node reader streams instead). */
export function importEpisodes(text: string, format: ForeignFormat, layout: Detected['layout'], file?: string): Episode[] {
  const spec = FORMATS[format];
  const importer = spec.create(file);
  if (layout === 'document') splitJson(text, spec.select, (value, line) => withinStack(() => importer.add(value, line), file, line), file);
  else {
    text.split('\n').forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(spec.linePrefix ? line.replace(spec.linePrefix, '') : line);
      } catch (error) {
        if (importer.addText?.(line, i + 1)) return;
        throw new InputError('invalid-json', `not valid JSON (${jsonErrorText(error)}); expected ${spec.title} as JSON Lines`, file, i + 1);
      }
      withinStack(() => importer.add(value, i + 1), file, i + 1);
    });
  }
  return withinStack(() => importer.finish(), file);
}

/** Detects (or takes) the format of text held in memory and returns its Trace. */
export function importTraceText(text: string, options: EpisodeOptions & { from?: ImportFormat } = {}): Trace {
  const { from, ...rest } = options;
  const detected = detectFormat(text, true);
  const format = from ?? detected?.format;
  if (!format) throw unknownFormatError(options.file, text.slice(0, 4096));
  if (format === 'agent-trace') return parseTraceText(text, rest);
  const layout = detected?.format === format ? detected.layout : guessLayout(text);
  return selectEpisode(importEpisodes(text, format, layout, options.file), rest);
}

/** Layout when the format was given, not detected: a document starts with "[" or spans lines, else JSON Lines. */
export function guessLayout(head: string): Detected['layout'] {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'document';
  try {
    JSON.parse(text.split('\n', 1)[0]);
    return 'lines';
  } catch {
    return text.startsWith('{') ? 'document' : 'lines';
  }
}
