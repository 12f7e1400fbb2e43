// Labels for prompt discovery and how predictions are scored against them: markers in fixture files
// (`# expect-prompt`, `// expect-delegation: expr`, test/fixtures/harden/sinks/README.md) or a corpus manifest.
import type { FileAnalysis } from '../../src/core/harden/types';

/** The labels of one file: the lines where system prompts start, and the delegations (line and expression). */
export interface FileLabels {
  prompts: number[];
  delegations: { line: number; expression: string }[];
  /** Delegations a careful reader could label either way: found or not, they count neither way. */
  ambiguous?: { line: number; expression: string }[];
}

const MARKER = /(?:#|\/\/)\s*expect-(prompt|delegation)(?:\(\+(\d+)\))?(?::\s*(.*?))?\s*(?:\\n)?"?,?\s*$/;

/** The labels written as markers in a file (1-based lines; a marker labels the next line that is not a marker). */
export function markerLabels(text: string): FileLabels {
  const lines = text.split('\n');
  const labels: FileLabels = { prompts: [], delegations: [] };
  let pending: { kind: string; offset: number; expression?: string }[] = [];
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line);
    if (marker) {
      pending.push({ kind: marker[1], offset: Number(marker[2] ?? 0), expression: marker[3] });
      return;
    }
    for (const p of pending) {
      const target = i + 1 + p.offset;
      if (p.kind === 'prompt') labels.prompts.push(target);
      else labels.delegations.push({ line: target, expression: p.expression ?? '' });
    }
    pending = [];
  });
  return labels;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** An expression as labels and findings are compared: no braces, quotes or spaces. */
function normal(expression: string): string {
  return expression.replace(/^\$?\{+|\}+$/g, '').replace(/\s+/g, '');
}

/** Counts of one scoring, with what was missed and what was extra (for the bench notes). */
export interface Score {
  prompts: number;
  promptsFound: number;
  promptPredictions: number;
  promptHits: number;
  delegations: number;
  delegationsFound: number;
  delegationPredictions: number;
  delegationHits: number;
  misses: string[];
  extras: string[];
}

/** An empty score to add files into. */
export function emptyScore(): Score {
  return {
    prompts: 0, promptsFound: 0, promptPredictions: 0, promptHits: 0,
    delegations: 0, delegationsFound: 0, delegationPredictions: 0, delegationHits: 0, misses: [], extras: [],
  };
}

/** Scores one file's analysis against its labels, adding into `score`. System prompts and delegations are scored; other prompt text is not labelled. */
export function scoreFile(score: Score, path: string, text: string, analysis: FileAnalysis | undefined, labels: FileLabels): void {
  const prompts = (analysis?.prompts ?? []).filter((p) => p.role === 'system').map((p) => ({ from: lineOf(text, p.start), to: lineOf(text, p.end), anchor: p.anchor }));
  const delegations = (analysis?.findings ?? []).filter((f) => f.code === 'unbounded-delegation').map((f) => ({ line: lineOf(text, f.start), expression: f.expression ?? '' }));
  score.prompts += labels.prompts.length;
  score.promptPredictions += prompts.length;
  for (const line of labels.prompts) {
    if (prompts.some((p) => p.from <= line && line <= p.to)) score.promptsFound++;
    else score.misses.push(`${path}:${line} prompt`);
  }
  for (const p of prompts) {
    if (labels.prompts.some((line) => p.from <= line && line <= p.to)) score.promptHits++;
    else score.extras.push(`${path}:${p.from} prompt ${p.anchor}`);
  }
  const overlaps = (x: string, y: string) => x === y || x.includes(y) || y.includes(x);
  const same = (a: { line: number; expression: string }, b: { line: number; expression: string }) => a.line === b.line && overlaps(normal(a.expression), normal(b.expression));
  score.delegations += labels.delegations.length;
  score.delegationPredictions += delegations.length;
  for (const label of labels.delegations) {
    if (delegations.some((d) => same(d, label))) score.delegationsFound++;
    else score.misses.push(`${path}:${label.line} delegation ${label.expression}`);
  }
  for (const d of delegations) {
    if (labels.delegations.some((label) => same(d, label))) score.delegationHits++;
    else if ((labels.ambiguous ?? []).some((label) => same(d, label))) score.delegationPredictions--;
    else score.extras.push(`${path}:${d.line} delegation ${d.expression}`);
  }
}

/** Recall and precision of a score (1 when there is nothing to find or nothing predicted). */
export function rates(score: Score): { promptRecall: number; delegationRecall: number; precision: number } {
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    promptRecall: ratio(score.promptsFound, score.prompts),
    delegationRecall: ratio(score.delegationsFound, score.delegations),
    precision: ratio(score.promptHits + score.delegationHits, score.promptPredictions + score.delegationPredictions),
  };
}

/** A labelled corpus source (bench/data/harden/corpus.json). */
export interface CorpusSource {
  repo: string;
  commit: string;
  license: string;
  folder: string;
  paths: string[];
  files: Record<string, { prompts?: number[]; delegations?: [number, string][]; ambiguous?: [number, string][] }>;
}

/** The labels of one corpus file (unlisted files have none: anything found there counts against precision). */
export function corpusLabels(source: CorpusSource, path: string): FileLabels {
  const entry = source.files[path] ?? {};
  const pairs = (list: [number, string][] | undefined) => (list ?? []).map(([line, expression]) => ({ line, expression }));
  return { prompts: entry.prompts ?? [], delegations: pairs(entry.delegations), ambiguous: pairs(entry.ambiguous) };
}
