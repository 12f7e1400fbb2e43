// Prompt hardening (issue 19): discovery measured against labels (the per-sink fixtures, and public agent repositories
// labelled by hand when /work/corpora/harden holds their files), what `--write` does to them (files that still parse,
// edits outside labelled prompts, a second run), and the time over a 10,000-file repository.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { resolveHardenConfig } from '../src/core/harden/config';
import { hardenPaths } from '../src/node/harden/scan';
import { corpusLabels, emptyScore, markerLabels, rates, scoreFile, type CorpusSource, type FileLabels, type Score } from './lib/hardenLabels';
import { parseErrors } from './lib/parseCheck';
import { writeSyntheticRepo } from './lib/syntheticRepo';
import type { BenchModule, BenchSection } from './types';

const REPO = path.resolve(__dirname, '..');
const FIXTURES = path.join(REPO, 'test/fixtures/harden');
const MANIFEST = path.join(__dirname, 'data/harden/corpus.json');
/** Where the labelled repositories' files are kept (not in git: bench/data/harden/corpus.json says what to copy). */
const CORPUS = process.env.AGENT_IMMUNE_HARDEN_CORPUS ?? '/work/corpora/harden';

const config = async () => resolveHardenConfig(undefined);

interface LabelledSet {
  name: string;
  dir: string;
  labels: (file: string, text: string) => FileLabels;
}

/** The labelled sets on this machine: the fixtures always, each corpus source whose folder is present. */
function labelledSets(): { sets: LabelledSet[]; absent: string[] } {
  const sets: LabelledSet[] = [
    { name: 'fixtures: sinks', dir: path.join(FIXTURES, 'sinks'), labels: (_f, text) => markerLabels(text) },
    { name: 'fixtures: forms', dir: path.join(FIXTURES, 'forms'), labels: (_f, text) => markerLabels(text) },
  ];
  const absent: string[] = [];
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { sources: CorpusSource[] };
  for (const source of manifest.sources) {
    const dir = path.join(CORPUS, source.folder);
    if (!existsSync(dir)) absent.push(source.repo);
    else sets.push({ name: `${source.repo}@${source.commit.slice(0, 7)}`, dir, labels: (file) => corpusLabels(source, file) });
  }
  return { sets, absent };
}

function add(total: Score, score: Score): void {
  for (const key of Object.keys(score) as (keyof Score)[]) {
    const value = score[key];
    if (typeof value === 'number') (total[key] as number) += value;
    else (total[key] as string[]).push(...value);
  }
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function discovery(): Promise<{ section: BenchSection; sets: LabelledSet[] }> {
  const { sets, absent } = labelledSets();
  const total = emptyScore();
  const corpus = emptyScore();
  const rows: BenchSection['rows'] = [];
  for (const set of sets) {
    const run = await hardenPaths(set.dir, [set.dir], config, 'check');
    const score = emptyScore();
    for (const file of run.files) scoreFile(score, file.path, file.text, file.analysis, set.labels(file.path, file.text));
    add(total, score);
    if (!set.name.startsWith('fixtures')) add(corpus, score);
    const r = rates(score);
    rows.push({
      set: set.name, files: run.files.length, prompts: score.prompts, 'prompts found': score.promptsFound, delegations: score.delegations,
      'delegations found': score.delegationsFound, 'prompt recall': r3(r.promptRecall), 'delegation recall': r3(r.delegationRecall), precision: r3(r.precision),
    });
  }
  const all = rates(total);
  const real = rates(corpus);
  const section: BenchSection = {
    title: 'Prompt hardening: discovery on labelled prompts and delegations',
    rows,
    figures: {
      'prompt recall (all)': r3(all.promptRecall),
      'delegation recall (all)': r3(all.delegationRecall),
      'precision (all)': r3(all.precision),
      'prompt recall (public repositories)': corpus.prompts > 0 ? r3(real.promptRecall) : null,
      'delegation recall (public repositories)': corpus.delegations > 0 ? r3(real.delegationRecall) : null,
      'precision (public repositories)': corpus.promptPredictions + corpus.delegationPredictions > 0 ? r3(real.precision) : null,
      'labelled prompts': total.prompts,
      'labelled delegations': total.delegations,
    },
    notes: [
      'targets (issue 19): prompt recall >= 0.95, delegation recall >= 0.80, precision >= 0.98 (precision over system prompts and delegations found)',
      'fixtures are written from each framework\'s documented API (test/fixtures/harden); public repositories are labelled by hand (bench/data/harden/corpus.json), none of the eight held out by issue 19',
      ...(absent.length > 0 ? [`corpus absent (${CORPUS}): ${absent.join(', ')} not measured; copy the listed folders to measure them`] : []),
      ...total.misses.slice(0, 10).map((m) => `missed: ${m}`),
      ...total.extras.slice(0, 10).map((m) => `extra: ${m}`),
    ],
  };
  return { section, sets };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

/** --write on a copy of every labelled set: files changed, files that no longer parse, edits away from labels, a second run. */
async function writeSafety(sets: LabelledSet[]): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  let broken = 0;
  let strayEdits = 0;
  let secondRunChanges = 0;
  for (const set of sets) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ai-harden-bench-'));
    try {
      cpSync(set.dir, dir, { recursive: true });
      const before = new Map(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
      const check = await hardenPaths(dir, [dir], config, 'check');
      // A fix away from every label edits a string that is not a prompt (or a delegation that is not one).
      const score = emptyScore();
      for (const file of check.files) {
        const fixable = { ...file.analysis, findings: file.analysis.findings.filter((f) => f.fix.length > 0), prompts: file.analysis.prompts.filter((p) => !p.hardened) };
        scoreFile(score, file.path, file.text, fixable, set.labels(file.path, file.text));
      }
      const stray = score.extras.length;
      await hardenPaths(dir, [dir], config, 'write');
      const changed = listFiles(dir).filter((f) => readFileSync(path.join(dir, f), 'utf8') !== before.get(f));
      const unparsable = changed.filter((f) => parseErrors(path.join(dir, f)).length > 0 && parseErrors(path.join(set.dir, f)).length === 0);
      const second = await hardenPaths(dir, [dir], config, 'write');
      const again = second.files.filter((f) => f.changed).length;
      broken += unparsable.length;
      strayEdits += stray;
      secondRunChanges += again;
      rows.push({ set: set.name, 'files changed': changed.length, 'stop parsing': unparsable.length, 'edits away from labels': stray, 'changed by a second run': again });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    title: 'Prompt hardening: what --write does to the labelled sets',
    rows,
    figures: { 'files that stop parsing': broken, 'edits away from labels': strayEdits, 'files a second --write changes': secondRunChanges },
    notes: [
      'parsers: the TypeScript compiler (TS/JS), CPython ast (Python, notebook code cells), the yaml package (YAML); a file that did not parse before is not counted',
      'edits away from labels: fixes at a place no label marks (a warning inserted into a string that is not a system prompt, a boundary around content that is not delegated)',
      'targets (issue 19): 0 edits to strings that are not prompts, 0 files that stop parsing, --write idempotent',
    ],
  };
}

/** `harden` over a synthetic repository of `count` files, timed. */
async function speed(count: number): Promise<BenchSection> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-harden-speed-'));
  try {
    const bytes = writeSyntheticRepo(dir, count);
    const files = listFiles(dir).length;
    const started = performance.now();
    const run = await hardenPaths(dir, [dir], config, 'check');
    const seconds = (performance.now() - started) / 1000;
    const prompts = run.files.reduce((n, f) => n + f.analysis.prompts.length, 0);
    return {
      title: `Prompt hardening: speed over a ${files.toLocaleString('en')}-file repository`,
      rows: [{ files, 'MB': Math.round(bytes / 1e5) / 10, 'files read': run.files.length, prompts, seconds: Math.round(seconds * 100) / 100 }],
      figures: { [`harden --check seconds (${files} files)`]: Math.round(seconds * 100) / 100 },
      notes: ['target (issue 19): 10,000 files within 5 s; synthetic: Python and TypeScript modules (1 in 20 an agent with prompts), Markdown and YAML, in nested folders; timings on a busy machine are noisy'],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const harden: BenchModule = async ({ quick }) => {
  const { section, sets } = await discovery();
  return [section, await writeSafety(sets), await speed(quick ? 2000 : 10000)];
};

export default harden;
