// `npm run bench`: runs every bench/*.bench.ts section (or those named on the command line), prints each as a table,
// and writes the figures to bench/results/latest.json: a named run replaces its own sections there and keeps the
// others (the file's date and seconds are the last run's), each stamped with the bench file and time that measured
// it. `--quick` runs smaller sizes for development.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BenchModule, BenchSection } from './types';

function printTable(section: BenchSection): void {
  console.log(`\n## ${section.title}\n`);
  if (section.rows.length > 0) {
    const columns = Object.keys(section.rows[0]);
    const cell = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v));
    const widths = columns.map((c) => Math.max(c.length, ...section.rows.map((r) => cell(r[c]).length)));
    console.log(columns.map((c, i) => c.padEnd(widths[i])).join('  '));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of section.rows) console.log(columns.map((c, i) => cell(row[c]).padEnd(widths[i])).join('  '));
  }
  for (const [name, value] of Object.entries(section.figures)) console.log(`${name}: ${value}`);
  for (const note of section.notes ?? []) console.log(`note: ${note}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args.filter((a) => !a.startsWith('--'));
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort();
  const selected = only.length ? files.filter((f) => only.some((name) => f.startsWith(name))) : files;
  const unknown = only.filter((name) => !files.some((f) => f.startsWith(name)));
  if (unknown.length) {
    console.error(`no bench named ${unknown.join(', ')}; the benches are ${files.map((f) => f.replace(/\.bench\.ts$/, '')).join(', ')}`);
    process.exit(2);
  }
  const results: BenchSection[] = [];
  const started = Date.now();
  for (const file of selected) {
    const module = (await import(path.join(__dirname, file))) as { default: BenchModule };
    const t0 = Date.now();
    const measured = new Date().toISOString();
    const sections = [await module.default({ quick })].flat().map((section) => ({ ...section, bench: file, measured }));
    for (const section of sections) {
      printTable(section);
      results.push(section);
    }
    console.log(`(${file}: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const outDir = path.join(__dirname, 'results');
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, quick ? 'quick.json' : 'latest.json');
  // An earlier section stays when a bench file that still exists measured it and did not run now.
  const ran = new Set(selected);
  const kept = only.length ? earlierSections(outFile).filter((s) => s.bench !== undefined && files.includes(s.bench) && !ran.has(s.bench)) : [];
  const out = { date: new Date().toISOString(), node: process.version, quick, seconds: (Date.now() - started) / 1000, sections: [...kept, ...results].sort(byFile) };
  writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nwrote bench/results/${quick ? 'quick' : 'latest'}.json in ${out.seconds.toFixed(1)} s${kept.length ? ` (kept ${kept.length} sections of other benches from earlier runs)` : ''}`);
}

/** The sections an earlier run stored (none when the file is missing or unreadable). */
function earlierSections(file: string): BenchSection[] {
  if (!existsSync(file)) return [];
  try {
    const sections = (JSON.parse(readFileSync(file, 'utf8')) as { sections?: BenchSection[] }).sections;
    return Array.isArray(sections) ? sections : [];
  } catch {
    return [];
  }
}

/** Print order: by bench file, sections of one file in the order it returned them. */
function byFile(a: BenchSection, b: BenchSection): number {
  return (a.bench ?? '').localeCompare(b.bench ?? '');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
