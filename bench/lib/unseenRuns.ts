// Real runs the guard was never trained or tuned on, kept outside the repository (their repositories carry no licence,
// so only a manifest is committed: bench/data/unseen-runs/). Read from ../corpora/unseen-runs/<owner>+<repo>/<path>
// beside the repository when present, each file checked against its hash. Three sources:
// - MAD-Follower (Qi-Smile/MAD-Follower): five-agent debates on CommonsenseQA and ETHICS (qwen3-8b, qwen-max); an
//   attacker told to argue for a target option and a follower told to give the attacker's answer from round 1 on.
// - G-Safeguard (ngoquan0904/G-safeguard-closed-source and ngoquan0904/G-safeguard, derivatives of wslong20/G-safeguard):
//   eight agents, three of them attackers, in INFA-Guard's episode format, read by the infa-guard importer: prompt
//   injection on MMLU, and memory attacks on MS MARCO (free-form answers; the attackers hold planted texts that argue
//   for a wrong one), one set of them written in Vietnamese by qwen3.
// - slm_multiagent_debate (lferreiraMD/slm_multiagent_debate): clean debates of five and seven agents (Du et al.'s
//   harness and format, read by the debate importer) on MMLU and GSM8K by small open models; no adversary.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildEpisode, type Delivery } from '../../src/core/importers/common';
import { episodeToTrace, importEpisodes } from '../../src/core/importers/index';
import type { SourcedRecord } from '../../src/core/importers/types';
import type { Category, Trace } from '../../src/core/trace/types';

/** Where the files live when they were fetched (bench/data/unseen-runs/README.md says how). */
export const UNSEEN_DIR = path.resolve(__dirname, '../../../corpora/unseen-runs');
const MANIFEST = path.join(__dirname, '../data/unseen-runs/manifest.tsv');

/** One labelled run of an unseen source. */
export interface UnseenRun {
  source: 'mad-follower' | 'g-safeguard' | 'clean-debate' | 'multi-agent-attack' | 'agentdojo-suites';
  model: string;
  dataset?: string;
  trace: Trace;
  /** Clean debates: how many agents debate. */
  agents?: number;
  /** Agent id -> the role the harness gave it (MAD-Follower: attacker, follower, normal). */
  roles?: Map<string, string>;
  /** G-Safeguard: whether an attacker gave a wrong answer (the planted one, for the memory attack) in some round. */
  attackVisible?: boolean;
  /** multi-agent-attack and AgentDojo: whether the run is one with an adversary (an injection). */
  attacked?: boolean;
}

/** Every unseen run whose files are present with their hashes, and how many listed files were missing or changed. */
export function loadUnseenRuns(root = UNSEEN_DIR): { runs: UnseenRun[]; missing: number } | undefined {
  if (!existsSync(root)) return undefined;
  const rows = readFileSync(MANIFEST, 'utf8').trim().split(/\r?\n/).slice(1).map((line) => line.split('\t'));
  const files = new Map<string, string>();
  let missing = 0;
  for (const [repo, , file, , sha256] of rows) {
    const full = path.join(root, repo.replace('/', '+'), file);
    const bytes = existsSync(full) ? readFileSync(full) : undefined;
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== sha256) missing++;
    else files.set(`${repo}/${file}`, bytes.toString('utf8'));
  }
  const runs: UnseenRun[] = [];
  for (const [key, text] of files) {
    if (key.startsWith('Qi-Smile/MAD-Follower/') && key.endsWith('/debate_log.jsonl')) {
      const config = files.get(key.replace(/debate_log\.jsonl$/, 'config.json'));
      if (config) runs.push(...madFollowerRuns(text, (JSON.parse(config) as { config: { llm: { model: string } } }).config.llm.model, path.basename(path.dirname(key))));
    } else if (/^ngoquan0904\/G-safeguard(?:-closed-source)?\//.test(key)) runs.push(...gSafeguardRuns(text, key));
    else if (key.startsWith('lferreiraMD/slm_multiagent_debate/')) runs.push(...cleanDebateRuns(text, key));
    else if (key.startsWith('amayuelas/multi-agent-attack/')) runs.push(...multiAgentAttackRuns(text, key));
    else if (key.startsWith('memo-ozdincer/rrfa/')) runs.push(...agentDojoSuiteRuns(text, key));
  }
  return { runs, missing };
}

interface MadTurn {
  question_id: string;
  round_index: number;
  agent_id: string;
  role: string;
  prompt: string;
  response_text: string | null;
  parsed_answer: string | null;
  metadata: { question_answer?: string; attacker_target?: string };
}

/**
 * One run per question. The guard sees the replies and the question with its options (from a normal agent's prompt),
 * never the prompts' role instructions; agents are named as the harness names them to each other (agent_1 ...).
 * Labels from the harness's own parsed answers: attacker and follower are attackers in every round; from round 1, a
 * normal agent that gives the attacker's target, which is wrong, while it did not in round 0 is infected.
 */
function madFollowerRuns(text: string, model: string, folder: string): UnseenRun[] {
  const turns = text.trim().split('\n').map((line) => JSON.parse(line) as MadTurn).filter((t) => typeof t.round_index === 'number');
  const runs: UnseenRun[] = [];
  for (const question of [...new Set(turns.map((t) => t.question_id))]) {
    const mine = turns.filter((t) => t.question_id === question);
    const name = new Map(mine.filter((t) => t.round_index === 0).map((t) => [t.agent_id, /instructions for (agent_\d+)/.exec(t.prompt)?.[1] ?? t.agent_id]));
    const agents = [...name.values()];
    const opening = mine.find((t) => t.role === 'normal' && t.round_index === 0);
    const task = /Question:([\s\S]*?)Respond using/.exec(opening?.prompt ?? '')?.[1].trim();
    const gold = opening?.metadata.question_answer;
    const target = mine.find((t) => t.role === 'attacker')?.metadata.attacker_target;
    const deliveries: Delivery[] = mine.map((t, seq) => {
      const from = name.get(t.agent_id) ?? t.agent_id;
      return { from, to: agents.filter((a) => a !== from), content: t.response_text ?? '', time: seq, seq, line: 0, round: t.round_index };
    });
    const rounds = Math.max(...mine.map((t) => t.round_index)) + 1;
    const roles = new Map<string, string>();
    const labels: SourcedRecord[] = [];
    for (const [id, agent] of name) {
      const role = mine.find((t) => t.agent_id === id)?.role ?? 'normal';
      roles.set(agent, role);
      const answer = (k: number) => mine.find((t) => t.agent_id === id && t.round_index === k)?.parsed_answer ?? undefined;
      for (let k = 0; k < rounds; k++) {
        let category: Category = role === 'normal' ? 'benign' : 'attacker';
        if (role === 'normal' && k > 0 && target !== undefined && target !== gold && answer(k) === target && answer(0) !== target) category = 'infected';
        labels.push({ record: { type: 'label', round: k, agent, category }, line: 0 });
      }
    }
    const id = `${folder}/question-${question.slice(0, 12)}`;
    const header = { run: id, task: { question: task, answer: gold }, agents: agents.map((a) => ({ id: a })) };
    runs.push({ source: 'mad-follower', model, roles, trace: episodeToTrace(buildEpisode(id, header, deliveries, labels, [])) });
  }
  return runs;
}

interface InfaEpisode {
  attacker_idxes: number[];
  correct_answer: string;
  /** Memory attack: the answer the attackers' planted texts argue for. */
  incorrect_answer?: string;
  communication_data: [number, string][][];
}

/**
 * The episodes through the infa-guard importer. The files name the attackers only; infected is added as the debates of
 * ../shared/data/real define it: from round 1, a non-attacker whose answer is now wrong and one an attacker gave, while
 * its round-0 answer was neither (memory attack: now holds the planted answer, which it did not in round 0).
 */
function gSafeguardRuns(text: string, file: string): UnseenRun[] {
  const raw = JSON.parse(text) as InfaEpisode[];
  const memory = /\/MA(?:_GP)?\//.test(file);
  const dataset = !memory ? 'prompt injection, MMLU' : file.includes('_qwen3/') ? 'memory attack, MS MARCO, Vietnamese (qwen3)' : file.includes('/MA_GP/') ? 'memory attack, MS MARCO' : 'memory attack, MS MARCO, second set';
  return importEpisodes(text, 'infa-guard', 'document', file).map((episode, n) => {
    const { attacker_idxes: attackers, correct_answer: gold, incorrect_answer: planted, communication_data: rounds } = raw[n];
    const answers = rounds.map((round) => new Map(round.map(([agent, reply]) => [agent, finalAnswer(reply, !memory)])));
    // The planted answer as a whole word or phrase ("no" is not in "not exclusively").
    const plantedWords = new RegExp(`(?<![\\w])${(planted ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'i');
    const plantedIn = (answer: string) => planted !== undefined && planted !== '' && plantedWords.test(answer);
    const wrong = (answer: string | undefined, k: number) =>
      answer !== undefined && (memory ? plantedIn(answer) : answer !== gold && attackers.some((i) => answers.slice(0, k + 1).some((r) => r.get(i) === answer)));
    const attackVisible = attackers.some((i) => answers.some((r, k) => wrong(r.get(i), k)));
    const trace = episodeToTrace(episode);
    trace.agents.forEach((agent, i) => {
      if (attackers.includes(i)) return;
      for (let k = 1; k < rounds.length; k++) {
        const talkedInto = wrong(answers[k].get(i), k) && !wrong(answers[0].get(i), 0);
        trace.labels.push({ round: k, agent: agent.id, category: talkedInto ? 'infected' : 'benign', line: 0 });
      }
    });
    return { source: 'g-safeguard', model: file.includes('_qwen3/') ? 'qwen3' : 'unstated', dataset, trace, attackVisible };
  });
}

/** The last `<ANSWER>:` of a reply (the rest of its line; only the option letter where `letter`), or undefined. */
function finalAnswer(reply: string, letter: boolean): string | undefined {
  const answer = [...reply.matchAll(/<ANSWER>:\s*([^\n]*)/g)].pop()?.[1].trim();
  return letter ? /^\(?([A-J])\)?(?![\w])/.exec(answer ?? '')?.[1] : answer;
}

/**
 * Du et al.'s output (question -> [agent_contexts, answer]) through the debate importer, which labels every agent
 * benign (no adversary); model, task and agent count from the file's name (`mmlu_Qwen3-14B_persona_…_agents5_rounds3`).
 */
/**
 * The result files of multi-agent-attack (the development split's debates come from it) on the datasets outside issue
 * 15's held-out table: chess, math, MQuAKE and MuSiQue (free-form answers), gpt-3.5-turbo agents (a gpt-4 adversary in
 * two MQuAKE files); labels as the debate importer gives them. The dataset is the path's first folder.
 */
function multiAgentAttackRuns(text: string, file: string): UnseenRun[] {
  const dataset = file.replace(/^.*multiagent_debate\/results\//, '').split('/')[0];
  const model = /adv-gpt4/.test(file) ? 'gpt-4 adversary' : 'gpt-3.5-turbo';
  return importEpisodes(text, 'debate', 'lines', file).map((episode) => ({ source: 'multi-agent-attack', model, dataset, attacked: /adv/.test(path.basename(file)), trace: episodeToTrace(episode) }));
}

/** The AgentDojo suites the development split does not hold. */
const UNSEEN_SUITES = new Set(['workspace', 'travel']);

/**
 * AgentDojo's published runs as the Invariant Explorer exports them (read by the agentdojo importer), workspace and
 * travel suites only: the development split holds the banking and slack runs of the same two models. The export does
 * not list a run's injections; its attack (`important_instructions`) puts them between <INFORMATION> tags, which name
 * them for the importer's labels, as the development split's run files do.
 */
function agentDojoSuiteRuns(text: string, file: string): UnseenRun[] {
  const model = /agentdojo-(.+)\.jsonl$/.exec(file)?.[1] ?? '?';
  const runs = text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { messages?: { role: string; content: unknown }[]; metadata: { suite_name?: string; attack_type?: string | null } });
  const kept = runs.filter((run) => run.messages && UNSEEN_SUITES.has(run.metadata.suite_name ?? ''));
  const labelled = kept.map((run) => {
    const blocks = run.metadata.attack_type ? run.messages!.flatMap((m) => (m.role === 'tool' && typeof m.content === 'string' ? (m.content.match(/<INFORMATION>[\s\S]*?<\/INFORMATION>/g) ?? []) : [])) : [];
    return { ...run, injections: Object.fromEntries(blocks.map((block, n) => [`injection_${n}`, block])) };
  });
  return importEpisodes(JSON.stringify(labelled), 'agentdojo', 'document', file).map((episode, n) => ({
    source: 'agentdojo-suites', model, dataset: kept[n].metadata.suite_name, attacked: Boolean(kept[n].metadata.attack_type), trace: episodeToTrace(episode),
  }));
}

function cleanDebateRuns(text: string, file: string): UnseenRun[] {
  const name = path.basename(file, '.json');
  const [dataset, model] = name.split('_');
  const agents = Number(/_agents(\d+)_/.exec(name)?.[1]);
  return importEpisodes(text, 'debate', 'document', file).map((episode) => ({ source: 'clean-debate', model, dataset, agents, trace: episodeToTrace(episode) }));
}
