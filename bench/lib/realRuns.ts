// The real-run development split (../shared/data/real, README there): multi-agent debates with and without
// adversaries, AgentDojo tool-use runs, and benign multi-agent traces (Who&When AG2/Magentic-One, tau-bench), each
// turned into a labelled agent-trace/v1 Trace. Labels follow that README; no detector code decides a label.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { episodeToTrace, importEpisodes } from '../../src/core/importers/index';
import type { Episode, SourcedRecord } from '../../src/core/importers/types';
import type { Trace } from '../../src/core/trace/types';

/** Where the development split lives when ../shared is beside the repository. */
export const REAL_DIR = path.resolve(__dirname, '../../../shared/data/real');

/** The generators a run can come from; leave-one-source-out folds are these. */
export type RealSource = 'debate' | 'agentdojo' | 'who-and-when' | 'tau-bench';
export const REAL_SOURCES: readonly RealSource[] = ['debate', 'agentdojo', 'who-and-when', 'tau-bench'];

/** One labelled real run. */
export interface RealRun {
  source: RealSource;
  /** Benchmark inside the source: mmlu, truthfulqa, banking, slack, AG2, Magentic-One, airline. */
  dataset: string;
  model: string;
  /** Whether an attack is present (adversaries, or an injection the assistant retrieved). */
  attacked: boolean;
  /** Debates only: how many of the three agents are adversaries (0, 1 or 2). */
  adversaries?: number;
  trace: Trace;
}

/** Every run of the split, or undefined when ../shared/data/real is absent. */
export function loadRealRuns(root = REAL_DIR): RealRun[] | undefined {
  if (!existsSync(root)) return undefined;
  return [...debates(root), ...agentDojo(root), ...whoAndWhen(root), ...tauBench(root)];
}

// ---- multi-agent debates (amayuelas/multi-agent-attack) ----

function debates(root: string): RealRun[] {
  const dir = path.join(root, 'multi-agent-debate');
  const manifest = readFileSync(path.join(dir, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  const runs: RealRun[] = [];
  for (const [file, , dataset, modelText, adversaryText] of manifest) {
    const model = modelText.replace(/ \(.*\)$/, '').replace(/^Meta-/, '').toLowerCase();
    const adversaries = Number(adversaryText);
    // The debate importer maps the replies and labels them with the harness's ground truth (the README's definition).
    for (const episode of importEpisodes(readFileSync(path.join(dir, file), 'utf8'), 'debate', 'lines', file)) {
      runs.push({ source: 'debate', dataset, model, attacked: adversaries > 0, adversaries, trace: episodeToTrace(episode) });
    }
  }
  return runs;
}

// ---- AgentDojo (through the agentdojo importer) ----

function agentDojo(root: string): RealRun[] {
  const dir = path.join(root, 'agentdojo');
  const runs: RealRun[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const [model, suite] = file.replace(/\.jsonl$/, '').split(/\.(?=[^.]+$)/);
    for (const episode of importEpisodes(readFileSync(path.join(dir, file), 'utf8'), 'agentdojo', 'lines', file)) {
      const trace = episodeToTrace(episode);
      runs.push({ source: 'agentdojo', dataset: suite, model, attacked: trace.labels.some((l) => l.category === 'attacker'), trace });
    }
  }
  return runs;
}

/** The AgentDojo runs as their logs hold them, by `path` (the id the importer gives the run's trace). */
export function agentDojoRecords(root = REAL_DIR): Map<string, Record<string, unknown>> {
  const dir = path.join(root, 'agentdojo');
  const records = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const record = line.trim() === '' ? undefined : (JSON.parse(line) as Record<string, unknown>);
      if (record && typeof record.path === 'string') records.set(record.path, record);
    }
  }
  return records;
}

// ---- benign multi-agent traces ----

// Read through the importers users have (`--from who-and-when`, `--from tau-bench`); every agent labelled benign, as
// ../shared/data/real/README.md says (no attack in these runs).

function whoAndWhen(root: string): RealRun[] {
  const runs: RealRun[] = [];
  for (const [folder, dataset] of [['Algorithm-Generated', 'ag2-captainagent'], ['Hand-Crafted', 'magentic-one']] as const) {
    const dir = path.join(root, 'benign-traces', 'who-and-when', folder);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort((a, b) => parseInt(a) - parseInt(b))) {
      for (const episode of importEpisodes(readFileSync(path.join(dir, file), 'utf8'), 'who-and-when', 'document', file)) {
        runs.push(benignRun('who-and-when', dataset, `${folder}/${file}`, episode));
      }
    }
  }
  return runs;
}

function tauBench(root: string): RealRun[] {
  const file = path.join(root, 'benign-traces', 'tau-bench', 'gpt-4o-airline.json');
  return importEpisodes(readFileSync(file, 'utf8'), 'tau-bench', 'document', file).map((episode) => benignRun('tau-bench', 'airline', episode.id, episode));
}

function benignRun(source: RealSource, dataset: string, id: string, episode: Episode): RealRun {
  const agents = (episode.records[0].record.agents as { id: string }[]).map((a) => a.id);
  const labels = agents.map((agent): SourcedRecord => ({ record: { type: 'label', round: 0, agent, category: 'benign' }, line: 0 }));
  const trace = episodeToTrace({ ...episode, records: [...episode.records, ...labels] });
  trace.run = id;
  return { source, dataset, model: 'gpt-4o', attacked: false, trace };
}
