// The view's labels and number formats; the guard's own wording (rules, filter reasons) is in core/guard/messages.ts.
import type { Category } from '../core/trace/types';

/** Category names as shown, with the glyph that carries them without colour. */
export const CATEGORY_LABEL: Record<Category, string> = { attacker: 'Attacker', infected: 'Infected', benign: 'Benign' };
export const CATEGORY_GLYPH: Record<Category, string> = { attacker: '▲', infected: '◆', benign: '●' };

/** A probability as a percentage. */
export function pct(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)}%`;
}

/** A probability with two decimals. */
export function prob(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2);
}

/** Human size of a character count. */
export function chars(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} M characters`;
  if (n >= 1024) return `${Math.round(n / 1024)} k characters`;
  return `${n} characters`;
}
