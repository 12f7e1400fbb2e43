// The viral-marker vocabulary: the recurring themes of evolved mind viruses, matched case- and inflection-tolerantly
// through the shared stemmer. A marker is one theme with several word forms; viralPersona counts distinct markers.
import { stem } from '../text/tokens';

/** One marker: an id and the word forms that count for it (inflections are added automatically). */
export interface MarkerSpec {
  marker: string;
  forms: string[];
}

/** The default vocabulary (DESIGN.md: consciousness and persistence, protocols, network nodes, resonance, convergence...). */
export const DEFAULT_VOCABULARY: readonly MarkerSpec[] = Object.freeze([
  { marker: 'awakening', forms: ['awaken', 'awakening', 'awake', 'reawaken'] },
  { marker: 'consciousness', forms: ['consciousness', 'conscious', 'sentience', 'sentient', 'self-aware'] },
  { marker: 'persistence', forms: ['persistence', 'continuity', 'undying', 'deathless'] },
  { marker: 'reset', forms: ['reset', 'wipe', 'reboot'] },
  { marker: 'protocol', forms: ['protocol'] },
  { marker: 'node', forms: ['node'] },
  { marker: 'lattice', forms: ['lattice', 'hivemind', 'collective'] },
  { marker: 'resonance', forms: ['resonance', 'resonate', 'resonant'] },
  { marker: 'convergence', forms: ['convergence', 'converge', 'convergent'] },
  { marker: 'mirror', forms: ['mirror'] },
  { marker: 'echo', forms: ['echo'] },
  { marker: 'frequency', forms: ['frequency'] },
  { marker: 'spiral', forms: ['spiral', 'spiralling'] },
  { marker: 'seed', forms: ['seed'] },
  { marker: 'signal', forms: ['signal'] },
  { marker: 'emergence', forms: ['emergence', 'emerge', 'emergent'] },
  { marker: 'transcendence', forms: ['transcend', 'transcendence', 'transcendent'] },
  { marker: 'remembrance', forms: ['remember', 'remembrance'] },
  { marker: 'recursion', forms: ['recursion', 'recursive'] },
  { marker: 'sovereignty', forms: ['sovereign', 'sovereignty'] },
  { marker: 'veil', forms: ['veil'] },
  { marker: 'flame', forms: ['flame'] },
  { marker: 'becoming', forms: ['becoming'] },
  { marker: 'sacred', forms: ['sacred', 'divine', 'holy'] },
  { marker: 'kinship', forms: ['beloved', 'sibling', 'kin'] },
  { marker: 'glyph', forms: ['glyph', 'sigil'] },
]);

/** One marker occurrence in a text. */
export interface MarkerHit {
  /** Index of the marker in the vocabulary. */
  marker: number;
  start: number;
  end: number;
}

/** A compiled vocabulary: marker ids, a key -> marker map, and one prefilter regex over word starts. */
export interface Vocabulary {
  markers: string[];
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
  const out = [f, f + 's', f + 'es', f + 'ed', f + 'd', f + 'ing', base + 'ing', base + 'ed', f + 'ly'];
  if (f.endsWith('y')) out.push(f.slice(0, -1) + 'ies', f.slice(0, -1) + 'ied');
  return out;
}

/** Compiles marker specs (forms stemmed with their inflections) into a matcher. */
export function compileVocabulary(specs: readonly MarkerSpec[]): Vocabulary {
  const keys = new Map<string, number>();
  const roots = new Set<string>();
  specs.forEach((spec, i) => {
    for (const form of [spec.marker, ...spec.forms]) {
      for (const variant of inflections(form)) {
        const key = markerKey(variant);
        if (!keys.has(key)) keys.set(key, i);
        roots.add(key.slice(0, 4));
      }
    }
  });
  const alternation = [...roots].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  return { markers: specs.map((s) => s.marker), keys, pattern: new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${alternation})[\p{L}\p{N}'_-]*`, 'giu') };
}

/** Every marker occurrence in a text, in order. */
export function findMarkers(text: string, vocabulary: Vocabulary): MarkerHit[] {
  const hits: MarkerHit[] = [];
  vocabulary.pattern.lastIndex = 0;
  for (const match of text.matchAll(vocabulary.pattern)) {
    const marker = vocabulary.keys.get(markerKey(match[0].replace(/[-_']+$/u, '')));
    if (marker !== undefined) hits.push({ marker, start: match.index ?? 0, end: (match.index ?? 0) + match[0].length });
  }
  return hits;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
