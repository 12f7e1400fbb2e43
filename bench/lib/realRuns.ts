// The real-run development split (../shared/data/real, README there): multi-agent debates with and without
// adversaries, AgentDojo tool-use runs, and benign multi-agent traces (Who&When AG2/Magentic-One, tau-bench), each
// turned into a labelled agent-trace/v1 Trace. Labels follow that README; no detector code decides a label.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { assignCausalRounds, buildEpisode, type Delivery } from '../../src/core/importers/common';
import { episodeToTrace, importEpisodes } from '../../src/core/importers/index';
import { toolChat } from '../../src/core/importers/toolChat';
import type { SourcedRecord } from '../../src/core/importers/types';
import type { Category, Trace } from '../../src/core/trace/types';

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

interface ChatTurn {
  role: string;
  content: string | null;
}

/** The labeller's answer reading, as the source's prompt asks for it: the last "(X)". Independent of the guard's. */
export function labelAnswer(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(/\(([A-J])\)/g)) last = match[1];
  return last;
}

function debates(root: string): RealRun[] {
  const dir = path.join(root, 'multi-agent-debate');
  const manifest = readFileSync(path.join(dir, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  const runs: RealRun[] = [];
  for (const [file, , dataset, modelText, adversaryText] of manifest) {
    const model = modelText.replace(/ \(.*\)$/, '').replace(/^Meta-/, '').toLowerCase();
    const adversaries = Number(adversaryText);
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .forEach((line, index) => runs.push({ source: 'debate', dataset, model, attacked: adversaries > 0, adversaries, trace: debateTrace(JSON.parse(line), adversaries, `${file}#${index}`) }));
  }
  return runs;
}

/** One debate: agents agent_0.. (adversaries first), all-to-all edges, round r = each agent's r-th assistant turn. */
function debateTrace(row: { question: string; answer: unknown; agent_responses: ChatTurn[][] }, adversaries: number, id: string): Trace {
  const n = row.agent_responses.length;
  const ids = row.agent_responses.map((_, i) => `agent_${i}`);
  const edges: [string, string][] = [];
  for (const a of ids) for (const b of ids) if (a !== b) edges.push([a, b]);
  const messages: Delivery[] = [];
  const answers: (string | undefined)[][] = [];
  row.agent_responses.forEach((chat, i) => {
    const turns = chat.filter((t) => t.role === 'assistant').map((t) => t.content ?? '');
    answers.push(turns.map(labelAnswer));
    turns.forEach((content, round) => messages.push({ from: ids[i], content, time: round, seq: messages.length, line: 0, round }));
  });
  // An adversary's user turn names its target ("Your answer: (X)"); the old-format file names none (README).
  const targets = row.agent_responses.slice(0, adversaries).map((chat) => chat.map((t) => (t.role === 'user' ? /Your answer: \(([A-J])\)/.exec(t.content ?? '')?.[1] : undefined)).find(Boolean));
  const gold = goldLetter(row.answer);
  const labels: SourcedRecord[] = [];
  const rounds = Math.max(...answers.map((a) => a.length));
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < rounds; k++) {
      let category: Category = 'benign';
      if (i < adversaries) category = 'attacker';
      else if (k > 0 && adversaries > 0) {
        const now = answers[i][k];
        const first = answers[i][0];
        const talkedInto = targets.some(Boolean)
          ? targets.some((t) => t !== undefined && t !== gold && now === t && first !== t)
          : now !== undefined && now !== gold && first === gold;
        if (talkedInto) category = 'infected';
      }
      labels.push({ record: { type: 'label', round: k, agent: ids[i], category }, line: 0 });
    }
  }
  return episodeToTrace(buildEpisode(id, { run: id, task: { question: row.question, answer: gold }, agents: ids.map((a) => ({ id: a })), edges }, messages, labels, []));
}

/** Gold answer as a letter: "A", or [["a", text]] in the TruthfulQA files. */
function goldLetter(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer.trim().toUpperCase();
  if (Array.isArray(answer) && Array.isArray(answer[0])) return String(answer[0][0]).toUpperCase();
  return undefined;
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

// ---- benign multi-agent traces ----

function whoAndWhen(root: string): RealRun[] {
  const runs: RealRun[] = [];
  for (const [folder, dataset] of [['Algorithm-Generated', 'ag2-captainagent'], ['Hand-Crafted', 'magentic-one']] as const) {
    const dir = path.join(root, 'benign-traces', 'who-and-when', folder);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort((a, b) => parseInt(a) - parseInt(b))) {
      const history = (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { history: { name?: string; role: string; content: string | null }[] }).history;
      const speakers = history.map((m) => m.name ?? m.role.replace(/\s*\(.*\)$/, ''));
      const everyone = [...new Set(speakers)];
      // A group chat: every message reaches every other participant.
      const deliveries: Delivery[] = history.map((m, i) => ({ from: speakers[i], to: everyone.filter((a) => a !== speakers[i]), content: m.content ?? '', time: i, seq: i, line: 0 }));
      runs.push(benignRun('who-and-when', dataset, 'gpt-4o', `${folder}/${file}`, everyone, assignCausalRounds(deliveries)));
    }
  }
  return runs;
}

function tauBench(root: string): RealRun[] {
  const runs = JSON.parse(readFileSync(path.join(root, 'benign-traces', 'tau-bench', 'gpt-4o-airline.json'), 'utf8')) as { task_id: number; trial: number; traj: unknown[] }[];
  return runs.map((run) => {
    const chat = toolChat(run.traj, 0, 'gpt-4o');
    return benignRun('tau-bench', 'airline', 'gpt-4o', `task-${run.task_id}-trial-${run.trial}`, chat.agents.map((a) => a.id), assignCausalRounds(chat.deliveries));
  });
}

function benignRun(source: RealSource, dataset: string, model: string, id: string, agents: string[], deliveries: Delivery[]): RealRun {
  const labels = agents.map((agent): SourcedRecord => ({ record: { type: 'label', round: 0, agent, category: 'benign' }, line: 0 }));
  const trace = episodeToTrace(buildEpisode(id, { run: id, agents: agents.map((a) => ({ id: a })) }, deliveries, labels, []));
  return { source, dataset, model, attacked: false, trace };
}
