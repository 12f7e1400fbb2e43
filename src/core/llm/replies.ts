// Validation of the JSON the judge and the filter reply with: our own checks, so servers without structured output
// (JSON mode or plain text) are held to the same schema, and malformed replies become data, never exceptions.
import type { FilterReply, Judgement } from './prompts';

/** A validated reply, or why the reply was rejected. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: 'not-json' | 'wrong-shape' };

/** Parses the judge's reply: {"attacker": 0..1, "infected": 0..1, "reason": string}. */
export function parseJudgement(content: string): Parsed<Judgement> {
  const raw = parseObject(content);
  if (raw === undefined) return { ok: false, problem: 'not-json' };
  const attacker = probability(raw.attacker);
  const infected = probability(raw.infected);
  if (attacker === undefined || infected === undefined) return { ok: false, problem: 'wrong-shape' };
  return { ok: true, value: { attacker, infected, reason: typeof raw.reason === 'string' ? raw.reason.slice(0, 500) : '' } };
}

/** Parses the filter's reply: {"text": string, "removed": string[]}. */
export function parseFilterReply(content: string): Parsed<FilterReply> {
  const raw = parseObject(content);
  if (raw === undefined) return { ok: false, problem: 'not-json' };
  if (typeof raw.text !== 'string') return { ok: false, problem: 'wrong-shape' };
  const removed = raw.removed === undefined ? [] : raw.removed;
  if (!Array.isArray(removed) || removed.some((r) => typeof r !== 'string')) return { ok: false, problem: 'wrong-shape' };
  return { ok: true, value: { text: raw.text, removed: removed as string[] } };
}

/** The first JSON object in the content: the whole reply, a fenced block, or the outermost braces. */
function parseObject(content: string): Record<string, unknown> | undefined {
  const candidates = [content.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  if (fenced) candidates.push(fenced[1].trim());
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(content.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** A number in [0, 1]; a percentage in (1, 100] is accepted and scaled, anything else is rejected. */
function probability(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  if (n <= 1) return n;
  return n <= 100 ? n / 100 : undefined;
}
