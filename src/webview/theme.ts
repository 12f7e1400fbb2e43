// Colours of the view: the Okabe-Ito colour-blind-safe palette for categories, everything else from the editor theme
// (--vscode-* variables, with fallbacks for the standalone report). Read once per theme change.
import type { Category } from '../core/trace/types';

/** The resolved colours the renderer uses. */
export interface Theme {
  fill: Record<Category, string>;
  ring: Record<Category, string>;
  edge: string;
  edgePath: string;
  edgeDim: string;
  label: string;
  background: string;
  focus: string;
  dimmed: string;
  kind: 'light' | 'dark' | 'high-contrast';
  /** Resolved font family for canvas labels (canvas fonts cannot use var()). */
  font: string;
}

/** Category colours (Okabe & Ito 2008): vermillion, orange, sky blue — distinct for the common colour vision deficiencies. */
export const CATEGORY_COLOURS: Record<Category, string> = { attacker: '#D55E00', infected: '#E69F00', benign: '#56B4E9' };

/** Glyph shape codes for the node program. */
export const CATEGORY_SHAPE: Record<Category, number> = { benign: 0, infected: 1, attacker: 2 };

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(name).trim();
  return value && /^(#[0-9a-f]{3,8}|rgba?\([^)]*\))$/i.test(value) ? value : fallback;
}

/** Parses #rgb, #rrggbb or rgb()/rgba() into [r, g, b]; undefined when unknown. */
export function parseRgb(colour: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})(?:[0-9a-f]{2})?$/i.exec(colour.trim());
  if (hex) {
    const h = hex[1].length === 3 ? hex[1].replace(/./g, (c) => c + c) : hex[1];
    return [0, 2, 4].map((j) => parseInt(h.slice(j, j + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(colour.trim());
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : undefined;
}

/** Mixes colour a into b by t (0 = b, 1 = a) as an opaque #rrggbb (sigma blends opaque colours reliably). */
export function mix(a: string, b: string, t: number): string {
  const x = parseRgb(a) ?? [128, 128, 128];
  const y = parseRgb(b) ?? [128, 128, 128];
  return '#' + x.map((v, j) => Math.round(v * t + y[j] * (1 - t)).toString(16).padStart(2, '0')).join('');
}

/** Reads the current theme from the document. */
export function readTheme(doc: Document = document): Theme {
  const body = doc.body;
  const kind = body.classList.contains('vscode-high-contrast') || body.classList.contains('vscode-high-contrast-light') ? 'high-contrast' : body.classList.contains('vscode-light') ? 'light' : body.classList.contains('vscode-dark') ? 'dark' : matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  const style = getComputedStyle(body);
  const dark = kind !== 'light';
  const label = cssVar(style, '--vscode-editor-foreground', dark ? '#d4d4d4' : '#1f1f1f');
  const background = cssVar(style, '--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff');
  return {
    fill: CATEGORY_COLOURS,
    // Rings: a dark rim in light themes, a light rim in dark themes, so the score ring reads on either.
    ring: dark
      ? { attacker: '#FFD2B8', infected: '#FFF1C2', benign: '#D8F0FF' }
      : { attacker: '#6B2F00', infected: '#7A5400', benign: '#0B4F75' },
    edge: mix(label, background, kind === 'high-contrast' ? 0.65 : dark ? 0.4 : 0.5),
    edgePath: CATEGORY_COLOURS.attacker,
    edgeDim: mix(label, background, 0.12),
    label,
    background,
    focus: cssVar(style, '--vscode-focusBorder', '#007fd4'),
    dimmed: mix(label, background, 0.2),
    kind,
    font: style.fontFamily || 'system-ui, sans-serif',
  };
}
