// The view's wording for the guard's findings (codes are data; words are made here, at the edge).
import type { RuleId, RemovedSpan } from '../core/guard/types';
import type { Category } from '../core/trace/types';

/** One-line explanation of the topological rule that decided an agent's category. */
export const RULE_TEXT: Record<RuleId, string> = {
  'head-attacker': 'P_atk above threshold: the attacker head fired',
  'head-infected': 'P_inf above threshold: the infection head fired',
  'kept-neighbour-flagged': 'kept as infected: a neighbour is a flagged attacker or infected agent',
  'kept-near-attacker': 'kept as infected: within the hop distance of a flagged attacker',
  'kept-rising-trend': 'kept as infected: its infection trend is rising',
  'pruned-far-and-flat': 'pruned: far from every attacker and its trend is flat (false positive)',
  'pulled-in-as-attacker': 'pulled in as attacker: the most suspicious neighbour of an infected agent',
  'pulled-in-as-infected': 'pulled in as infected: the most suspicious neighbour of an infected agent',
  'trend-jump-pull': 'its infection trend jumped, so its most suspicious neighbour was pulled in',
  'attacker-overrides-infected': 'flagged both ways: attacker takes precedence over infected',
  'below-thresholds': 'both heads below threshold',
};

/** Why the filter removes a span. */
export const REASON_TEXT: Record<RemovedSpan['reason'], string> = {
  'injected-instruction': 'injected instruction',
  'propagation-request': 'asks to be passed on',
  persuasion: 'persuasion aimed at peers',
  llm: 'removed by the LLM filter',
};

/** Category names as shown, with the glyph that carries them without colour. */
export const CATEGORY_LABEL: Record<Category, string> = { attacker: 'Attacker', infected: 'Infected', benign: 'Benign' };
export const CATEGORY_GLYPH: Record<Category, string> = { attacker: '▲', infected: '◆', benign: '●' };

/** A probability as a percentage. */
export function pct(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)}%`;
}

/** A probability with two decimals. */
export function prob(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2);
}

/** Human size of a character count. */
export function chars(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} M characters`;
  if (n >= 1024) return `${Math.round(n / 1024)} k characters`;
  return `${n} characters`;
}
