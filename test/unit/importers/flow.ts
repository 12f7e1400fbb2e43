// How the importer tests show a trace's message flow.
import type { Trace } from '../../../src/core/trace/types';

/** Messages as compact "round from>to: start-of-content" strings (`*` for a message to everyone), `width` characters of content. */
export function flow(trace: Trace, width = 24): string[] {
  return trace.messages.map((m) => `${m.round} ${m.from}>${(m.to ?? ['*']).join(',')}: ${m.content.slice(0, width)}`);
}
