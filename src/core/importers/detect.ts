// Content-based format detection: looks at the first kilobytes of a file (never its name) and says which format
// and layout it is, so "Analyze Trace" and `analyze` open any supported file directly.
import { InputError } from '../errors';
import { asObject } from './common';
import { FOREIGN_FORMATS, FORMATS as FORMATS_BY_NAME, type ImportFormat } from './registry';
import type { Layout } from './types';

/** A detected format and how to read it. */
export interface Detected {
  format: ImportFormat;
  layout: Layout;
}

/** How many of the first lines may hold a format's banner. */
const BANNER_LINES = 20;

/** How many bytes of the file detection needs. */
export const DETECT_HEAD_BYTES = 64 * 1024;


/** Classifies one parsed JSON record by the fields that only its format has. */
export function classifyRecord(value: unknown): ImportFormat | undefined {
  const o = asObject(value);
  if (!o) return undefined;
  if (o.type === 'header' || o.type === 'message' || o.type === 'label') return 'agent-trace';
  return FOREIGN_FORMATS.find(([, spec]) => spec.detect.record(o))?.[0];
}

/** Detects the format from the head of a file; `complete` says the head is the whole file. */
export function detectFormat(head: string, complete = false): Detected | undefined {
  const text = head.replace(/^\uFEFF/, '');
  const lines = text.split('\n');
  if (!complete && lines.length > 1) lines.pop(); // the last line may be cut
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return undefined;
  const firstLine = lines[first].trim();
  // A log's marker may follow a few lines of other loggers (httpx's "HTTP Request: …" before autogen-core's events).
  const opening = lines.slice(first, first + BANNER_LINES).map((l) => l.trim());
  const banner = FOREIGN_FORMATS.find(([, spec]) => opening.some((line) => spec.detect.banner?.test(line)));
  if (banner) return { format: banner[0], layout: 'lines' };
  // A native line opens with its type; a header longer than the head (thousands of agents) is cut, so match the opening.
  if (/^\{\s*"type"\s*:\s*"(?:header|message|label)"/.test(firstLine)) return { format: 'agent-trace', layout: 'lines' };
  if (firstLine.startsWith('{')) {
    try {
      const format = classifyRecord(JSON.parse(firstLine));
      // A record on its own line: JSON Lines (a one-line document reads the same way).
      if (format) return { format, layout: format !== 'agent-trace' && FORMATS_BY_NAME[format].detect.loneObjectIsDocument ? jsonLinesOr(lines, first) : 'lines' };
    } catch {
      // Not one record per line: a pretty-printed or very long document.
    }
  }
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  const signed = FOREIGN_FORMATS.find(([, spec]) => spec.detect.signature.test(text));
  return signed ? { format: signed[0], layout: 'document' } : undefined;
}

/** For formats whose lone top-level object may nest runs: one object is a document, several lines are JSON Lines. */
function jsonLinesOr(lines: string[], first: number): Layout {
  return lines.slice(first + 1).some((l) => l.trim() !== '') ? 'lines' : 'document';
}

/** Python's ConsoleSpanExporter output as it prints by default: pretty-printed spans one after another. */
const CONSOLE_SPANS = /"context"\s*:\s*\{\s*"trace_id"\s*:\s*"0x/;

/** The error for a file we cannot place (`head`: its first bytes, to say what it looks like). */
export function unknownFormatError(file?: string, head = ''): InputError {
  if (CONSOLE_SPANS.test(head)) {
    return new InputError(
      'unknown-format',
      'this looks like OpenTelemetry ConsoleSpanExporter output, pretty-printed: write one span a line (ConsoleSpanExporter(formatter=lambda span: span.to_json(indent=None) + "\\n")) or export OTLP (an OTLP exporter to agent-immune serve, or its file exporter)',
      file,
      1,
    );
  }
  const known = KNOWN_UNREAD.find(([keys]) => keys.every((key) => key.test(head)));
  if (known) return new InputError('unknown-format', `this looks like ${known[1]}, which is not read: export the run as OTLP JSON (an OTLP exporter to agent-immune serve, or the OpenTelemetry Collector's file exporter), or pass --from FORMAT`, file, 1);
  // One line: the formats and how each is told are in `analyze --help` and docs/importers.md (listing them here made 1,500 characters).
  return new InputError('unknown-format', `cannot tell the trace format from the content: it is none of the ${FOREIGN_FORMATS.length + 1} formats read (\`--help\` lists them and the keys each is detected by); pass --from FORMAT to name one`, file, 1);
}

/** Trace exports users have that no importer reads, told by keys in their first bytes (each a plain search, run in
 * linear time on any head), so the error names them. */
const KNOWN_UNREAD: readonly [RegExp[], string][] = [
  [[/"traceID"\s*:/, /"spanID"\s*:/, /"operationName"\s*:/], 'a lone Jaeger trace (the Jaeger UI\'s download, {"data": [...]} around its traces, is read)'],
];
