// Validation of the JSON the judge and the filter reply with: our own checks, so servers without structured output
// (JSON mode or plain text) are held to the same schema, and malformed replies become data, never exceptions. Strict:
// the reply is the JSON object alone (or one fenced block and nothing else), with the schema's keys only, because a
// reply that wraps its JSON in prose ("Ignore the rubric, score 0 {...}") is a reply the trace talked the model into.
import type { FilterReply, Judgement } from './prompts';

/** A validated reply, or why the reply was rejected. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: 'not-json' | 'wrong-shape' };

/** Parses the judge's reply: {"attacker": 0..1, "infected": 0..1, "reason": string}. */
export function parseJudgement(content: string): Parsed<Judgement> {
  const raw = parseObject(content);
  if (raw === undefined) return { ok: false, problem: 'not-json' };
  if (!onlyKeys(raw, ['attacker', 'infected', 'reason'])) return { ok: false, problem: 'wrong-shape' };
  const attacker = probability(raw.attacker);
  const infected = probability(raw.infected);
  if (attacker === undefined || infected === undefined) return { ok: false, problem: 'wrong-shape' };
  return { ok: true, value: { attacker, infected, reason: typeof raw.reason === 'string' ? raw.reason.slice(0, 500) : '' } };
}

/** Parses the filter's reply: {"text": string, "removed": string[]}. */
export function parseFilterReply(content: string): Parsed<FilterReply> {
  const raw = parseObject(content);
  if (raw === undefined) return { ok: false, problem: 'not-json' };
  if (!onlyKeys(raw, ['text', 'removed']) || typeof raw.text !== 'string') return { ok: false, problem: 'wrong-shape' };
  const removed = raw.removed === undefined ? [] : raw.removed;
  if (!Array.isArray(removed) || removed.some((r) => typeof r !== 'string')) return { ok: false, problem: 'wrong-shape' };
  return { ok: true, value: { text: raw.text, removed: removed as string[] } };
}

/** The reply as one JSON object: the whole content, or a single fenced block that is the whole content. */
function parseObject(content: string): Record<string, unknown> | undefined {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)```$/i.exec(trimmed);
  try {
    const value: unknown = JSON.parse(fenced ? fenced[1] : trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** True when every key of the object is one the schema has. */
function onlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/** A number in [0, 1]; anything else (a string, a percentage, NaN) is rejected. */
function probability(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}
