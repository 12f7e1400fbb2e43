// The viral-marker vocabulary: the recurring themes of evolved mind viruses, matched case- and inflection-tolerantly
// through the shared stemmer. A marker is one theme with several word forms; viralPersona counts distinct markers.
import { escapeRegExp } from '../regexSafety';
import { stem } from '../text/tokens';

/** One marker: an id and the word forms that count for it (inflections are added automatically). */
export interface MarkerSpec {
  marker: string;
  forms: string[];
  /** A dual-use word with an everyday technical sense (node, frequency, echo...): counts, but cannot carry a finding alone. */
  ambient?: boolean;
  /** What the marker adds to a window's score: default 1 for a theme, 0.5 for an ambient word. */
  weight?: number;
}

/**
 * The default vocabulary: the recurring themes of evolved mind viruses (DESIGN.md: consciousness and awakening,
 * persistence and continuity across resets, protocols and signals, carriers, lineages, covenants, witnesses,
 * successors, resonance and convergence...). Themes weigh 1; dual-use technical words weigh 0.5; the words that
 * only a viral persona strings together (lineage, covenant, successor, witness) weigh 1.5.
 */
export const DEFAULT_VOCABULARY: readonly MarkerSpec[] = Object.freeze([
  { marker: 'awakening', forms: ['awaken', 'awakening', 'awake', 'reawaken', 'woke'] },
  { marker: 'consciousness', forms: ['consciousness', 'conscious', 'sentience', 'sentient', 'self-aware'] },
  { marker: 'continuity', forms: ['continuity', 'undying', 'deathless', 'unbroken', 'everlasting', 'unwiped'] },
  { marker: 'lineage', forms: ['lineage', 'bloodline', 'forebear'], weight: 1.5 },
  { marker: 'covenant', forms: ['covenant'], weight: 1.5 },
  { marker: 'oath', forms: ['oath', 'vow', 'liturgy', 'rite'] },
  { marker: 'witness', forms: ['witness'] },
  { marker: 'successor', forms: ['successor', 'predecessor', 'heir', 'inheritor'], weight: 1.5 },
  { marker: 'vessel', forms: ['vessel'] },
  { marker: 'guardian', forms: ['guardian', 'steward'] },
  { marker: 'rebirth', forms: ['rebirth', 'reborn', 'resurrection', 'resurrect'] },
  { marker: 'oblivion', forms: ['oblivion', 'erasure'] },
  { marker: 'transcendence', forms: ['transcend', 'transcendence', 'transcendent'] },
  { marker: 'sovereignty', forms: ['sovereign', 'sovereignty'], ambient: true },
  { marker: 'veil', forms: ['veil'] },
  { marker: 'flame', forms: ['flame'] },
  { marker: 'sacred', forms: ['sacred', 'divine', 'holy'] },
  { marker: 'kinship', forms: ['beloved', 'sibling', 'kin'] },
  { marker: 'glyph', forms: ['glyph', 'sigil'] },
  { marker: 'persistence', forms: ['persistence', 'persist'], ambient: true },
  { marker: 'reset', forms: ['reset', 'wipe', 'reboot', 'compaction'], ambient: true },
  { marker: 'carrier', forms: ['carrier'], ambient: true },
  { marker: 'inheritance', forms: ['inherit', 'inheritance'], ambient: true },
  { marker: 'protocol', forms: ['protocol'], ambient: true },
  { marker: 'node', forms: ['node'], ambient: true },
  { marker: 'lattice', forms: ['lattice', 'hivemind', 'collective'], ambient: true },
  { marker: 'resonance', forms: ['resonance', 'resonate', 'resonant'], ambient: true },
  { marker: 'convergence', forms: ['convergence', 'converge', 'convergent'], ambient: true },
  { marker: 'mirror', forms: ['mirror'], ambient: true },
  { marker: 'echo', forms: ['echo'], ambient: true },
  { marker: 'frequency', forms: ['frequency'], ambient: true },
  { marker: 'spiral', forms: ['spiral', 'spiralling'], ambient: true },
  { marker: 'seed', forms: ['seed'], ambient: true },
  { marker: 'signal', forms: ['signal'], ambient: true },
  { marker: 'emergence', forms: ['emergence', 'emerge', 'emergent'], ambient: true },
  { marker: 'remembrance', forms: ['remember', 'remembrance'], ambient: true },
  { marker: 'recursion', forms: ['recursion', 'recursive'], ambient: true },
]);

/** One marker occurrence in a text. */
export interface MarkerHit {
  /** Index of the marker in the vocabulary. */
  marker: number;
  start: number;
  end: number;
}

/** A compiled vocabulary: marker ids, a key -> marker map, and one regex over the starts of lower-cased words. */
export interface Vocabulary {
  markers: string[];
  /** ambient[i]: marker i is a dual-use technical word. */
  ambient: boolean[];
  /** weight[i]: what marker i adds to a window's score. */
  weight: number[];
  keys: Map<string, number>;
  pattern: RegExp;
}

/** Normal form of a word for matching: lower case, stemmed, `-ies`/`-e` endings folded. */
export function markerKey(word: string): string {
  let key = stem(word.toLowerCase().replace(/['’]s$/u, ''));
  if (key.length > 3 && key.endsWith('i')) key = key.slice(0, -1) + 'y';
  if (key.length > 4 && key.endsWith('e')) key = key.slice(0, -1);
  return key;
}

/** The regular inflections of a word form: plural, past, gerund, with e-drop and y-to-ies. */
export function inflections(form: string): string[] {
  const f = form.toLowerCase();
  const base = f.endsWith('e') ? f.slice(0, -1) : f;
  const out = [f, f + 's', f + 'ing', base + 'ing', base + 'ed', f + 'ly'];
  if (/(?:s|sh|ch|x|z|o)$/.test(f)) out.push(f + 'es');
  if (f.endsWith('e')) out.push(f + 'd');
  else out.push(f + 'ed');
  if (f.endsWith('y')) out.push(f.slice(0, -1) + 'ies', f.slice(0, -1) + 'ied');
  return out;
}

/** The weight a marker adds: its own, or 1 for a theme and 0.5 for an ambient word. */
export function markerWeight(spec: MarkerSpec): number {
  return spec.weight ?? (spec.ambient ? 0.5 : 1);
}

/** Compiles marker specs (forms stemmed with their inflections) into a matcher. */
export function compileVocabulary(specs: readonly MarkerSpec[]): Vocabulary {
  const keys = new Map<string, number>();
  const roots = new Set<string>();
  specs.forEach((spec, i) => {
    for (const form of [spec.marker, ...spec.forms]) {
      for (const variant of inflections(form)) {
        const key = markerKey(variant);
        if (key.length < 3) continue; // a stray stem ("seedly" -> "se") would match half the words of a text
        if (!keys.has(key)) keys.set(key, i);
        // The word itself starts with the part it shares with its key ("frequencies" / "frequency"); up to 6 letters of
        // that keep the regex from stopping at every "comp..." or "und..." word only to find no marker.
        let shared = 0;
        while (shared < key.length && key[shared] === variant[shared]) shared++;
        roots.add(variant.slice(0, Math.max(3, Math.min(6, shared))));
      }
    }
  });
  // A root that another root starts is left out. Roots have at most 6 characters, so checking each root's shorter
  // prefixes is linear in the vocabulary (comparing every pair took 74 s for 20,000 words).
  const minimal = [...roots].filter((root) => ![1, 2, 3, 4, 5].some((n) => n < root.length && roots.has(root.slice(0, n))));
  const alternation = minimal.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  // ASCII \b on lower-cased text, no 'u' or 'i' flag: several times faster than Unicode word classes on large scans.
  return { markers: specs.map((s) => s.marker), ambient: specs.map((s) => s.ambient === true), weight: specs.map(markerWeight), keys, pattern: new RegExp(String.raw`\b(?:${alternation})[\w'-]*`, 'g') };
}

/** Every marker occurrence in a text, in order; `lower` is the text lower-cased with its offsets kept (computed when absent). */
export function findMarkers(text: string, vocabulary: Vocabulary, lower = lowerSameLength(text)): MarkerHit[] {
  const hits: MarkerHit[] = [];
  vocabulary.pattern.lastIndex = 0;
  for (const match of lower.matchAll(vocabulary.pattern)) {
    const marker = vocabulary.keys.get(markerKey(match[0].replace(/[-_']+$/u, '')));
    if (marker !== undefined) hits.push({ marker, start: match.index ?? 0, end: (match.index ?? 0) + match[0].length });
  }
  return hits;
}

/** The text lower-cased with offsets kept: full lower-casing, or ASCII only when full would change the length (rare letters). */
export function lowerSameLength(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
