// Content-based format detection: looks at the first kilobytes of a file (never its name) and says which format
// and layout it is, so "Analyze Trace" and `analyze` open any supported file directly.
import { InputError } from '../errors';
import { asObject } from './common';
import type { ImportFormat, Layout } from './types';

/** A detected format and how to read it. */
export interface Detected {
  format: ImportFormat;
  layout: Layout;
}

/** How many bytes of the file detection needs. */
export const DETECT_HEAD_BYTES = 64 * 1024;

/** The one-line list of what we read, for "expected ..." messages. */
export const SUPPORTED_FORMATS_TEXT =
  'agent-trace/v1 JSON Lines, OTLP JSON with GenAI spans (resourceSpans), an AutoGen/AG2 runtime log (received_message events), ' +
  'LangSmith/LangGraph runs (run_type, parent_run_id, extra.metadata.langgraph_node) INFA-Guard/G-Safeguard episodes (adj_matrix, communication_data) or AgentDojo runs (suite_name, injections, messages)';

/** Classifies one parsed JSON record by the fields that only its format has. */
export function classifyRecord(value: unknown): ImportFormat | undefined {
  const o = asObject(value);
  if (!o) return undefined;
  if (o.type === 'header' || o.type === 'message' || o.type === 'label') return 'agent-trace';
  if ('resourceSpans' in o) return 'otlp';
  if ('adj_matrix' in o || 'communication_data' in o) return 'infa-guard';
  if ('suite_name' in o && 'messages' in o) return 'agentdojo';
  if ('event_name' in o || ('agent_name' in o && 'agent_type' in o) || ('invocation_id' in o && 'request' in o) || ('wrapper_id' in o && 'json_state' in o)) return 'autogen';
  if (o.type === 'Message' && 'payload' in o) return 'autogen';
  if ('run_type' in o || 'dotted_order' in o || 'parent_run_id' in o || asObject(asObject(o.extra)?.metadata)?.langgraph_node !== undefined) return 'langsmith';
  if (Array.isArray(o.runs)) return 'langsmith';
  return undefined;
}

/** Key signatures for a document too large to parse from its head, most specific first. */
const SIGNATURES: [RegExp, ImportFormat][] = [
  [/"resourceSpans"\s*:/, 'otlp'],
  [/"(adj_matrix|communication_data|attacker_idxes)"\s*:/, 'infa-guard'],
  [/"suite_name"\s*:/, 'agentdojo'],
  [/"(run_type|dotted_order|parent_run_id|langgraph_node)"\s*:/, 'langsmith'],
  [/"event_name"\s*:\s*"received_message"/, 'autogen'],
];

/** Detects the format from the head of a file; `complete` says the head is the whole file. */
export function detectFormat(head: string, complete = false): Detected | undefined {
  const text = head.replace(/^\uFEFF/, '');
  const lines = text.split('\n');
  if (!complete && lines.length > 1) lines.pop(); // the last line may be cut
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return undefined;
  const firstLine = lines[first].trim();
  if (/^Started new session with Session ID:/.test(firstLine)) return { format: 'autogen', layout: 'lines' };
  // A native line opens with its type; a header longer than the head (thousands of agents) is cut, so match the opening.
  if (/^\{\s*"type"\s*:\s*"(?:header|message|label)"/.test(firstLine)) return { format: 'agent-trace', layout: 'lines' };
  if (firstLine.startsWith('{')) {
    try {
      const format = classifyRecord(JSON.parse(firstLine));
      // A record on its own line: JSON Lines (a one-line document reads the same way).
      if (format) return { format, layout: format === 'langsmith' || format === 'infa-guard' || format === 'agentdojo' ? jsonLinesOr(lines, first) : 'lines' };
    } catch {
      // Not one record per line: a pretty-printed or very long document.
    }
  }
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  for (const [pattern, format] of SIGNATURES) if (pattern.test(text)) return { format, layout: 'document' };
  return undefined;
}

/** LangSmith / INFA-Guard / AgentDojo: a lone top-level object is a document (it may nest runs); several lines are JSON Lines. */
function jsonLinesOr(lines: string[], first: number): Layout {
  return lines.slice(first + 1).some((l) => l.trim() !== '') ? 'lines' : 'document';
}

/** The error for a file we cannot place. */
export function unknownFormatError(file?: string): InputError {
  return new InputError('unknown-format', `cannot tell the trace format from the content; expected ${SUPPORTED_FORMATS_TEXT} (or pass --from FORMAT)`, file, 1);
}
