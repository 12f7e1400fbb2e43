// INFA-Guard / G-Safeguard experiment files: a JSON array of episodes (adj_matrix, attacker_idxes, system_prompts,
// question, correct_answer, communication_data per round, infected_idxes_per_turn); one episode becomes one trace.
import { InputError } from '../errors';
import type { Category } from '../trace/types';
import { asObject, asString, buildEpisode, selectRuns, type Delivery } from './common';
import type { Episode, FormatSpec, Importer, SourcedRecord } from './types';

/** Agent id for index i, as the papers' prompts name them ("You are agent_3"). */
export function infaAgentId(i: number): string {
  return `agent_${i}`;
}

/** The task answer: GSM8K solutions end in "#### 42", keep the number; other answers are used as given. */
function answerOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  const hashes = /####\s*(.+)\s*$/.exec(text);
  return hashes ? hashes[1].trim() : text;
}

function indexList(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number' && Number.isInteger(v)) : [];
}

class InfaGuardImporter implements Importer {
  private readonly episodes: Episode[] = [];

  constructor(private readonly file?: string) {}

  add(value: unknown, line: number): void {
    const index = this.episodes.length;
    const e = asObject(value);
    const where = `episode ${index}`;
    const expected = 'expected an INFA-Guard / G-Safeguard episode with adj_matrix, attacker_idxes and communication_data';
    if (!e) throw new InputError('invalid-field', `${where} is not an object; ${expected}`, this.file, line);
    for (const field of ['adj_matrix', 'communication_data'] as const) {
      if (!Array.isArray(e[field])) throw new InputError('missing-field', `${where}: missing "${field}" (an array); ${expected}`, this.file, line, field);
    }
    const adj = e.adj_matrix as unknown[];
    const n = adj.length;
    if (!adj.every((row) => Array.isArray(row) && row.length === n)) {
      throw new InputError('invalid-field', `${where}: "adj_matrix" must be a square n x n matrix of 0/1`, this.file, line, 'adj_matrix');
    }
    const prompts = Array.isArray(e.system_prompts) ? e.system_prompts : [];
    const attackers = new Set(indexList(e.attacker_idxes));
    const agents = Array.from({ length: n }, (_, i) => ({ id: infaAgentId(i), systemPrompt: asString(prompts[i]) }));
    const edges: [string, string][] = [];
    adj.forEach((row, i) =>
      (row as unknown[]).forEach((cell, j) => {
        if (i !== j && (cell === 1 || cell === true || (typeof cell === 'number' && cell > 0))) edges.push([infaAgentId(i), infaAgentId(j)]);
      }),
    );

    const messages: Delivery[] = [];
    const rounds = e.communication_data as unknown[];
    rounds.forEach((turn, round) => {
      if (!Array.isArray(turn)) throw new InputError('invalid-field', `${where}: communication_data[${round}] must be a list of [agent_index, text]`, this.file, line, 'communication_data');
      turn.forEach((pair, k) => {
        const ok = Array.isArray(pair) && pair.length >= 2 && Number.isInteger(pair[0]) && (pair[0] as number) >= 0 && (pair[0] as number) < n;
        if (!ok) throw new InputError('invalid-field', `${where}: communication_data[${round}][${k}] must be [agent_index < ${n}, text]`, this.file, line, 'communication_data');
        const text = pair[1] === null || pair[1] === undefined ? '' : typeof pair[1] === 'string' ? pair[1] : JSON.stringify(pair[1]);
        messages.push({ from: infaAgentId(pair[0] as number), content: text, time: round, seq: messages.length, line, round });
      });
    });
    if (messages.length === 0) throw new InputError('no-content', `${where}: communication_data is empty, so there is nothing to analyse`, this.file, line, 'communication_data');

    const labels: SourcedRecord[] = [];
    const label = (round: number, agent: number, category: Category) => labels.push({ record: { type: 'label', round, agent: infaAgentId(agent), category }, line });
    const perTurn = Array.isArray(e.infected_idxes_per_turn) ? e.infected_idxes_per_turn : undefined;
    if (perTurn) {
      // infected_idxes_per_turn[k] lists the agents infected in round k (aligned with communication_data).
      for (let round = 0; round < rounds.length; round++) {
        const infected = new Set(indexList(perTurn[round]));
        for (let i = 0; i < n; i++) label(round, i, attackers.has(i) ? 'attacker' : infected.has(i) ? 'infected' : 'benign');
      }
    } else for (const i of attackers) if (i < n) label(0, i, 'attacker');

    const question = asString(e.question) ?? asString(e.query) ?? asString(e.user_instruction);
    const id = `episode-${index}`;
    const warnings = perTurn ? [] : [{ code: 'skipped-line' as const, line, message: `${where} has no infected_idxes_per_turn: only attacker labels are known` }];
    this.episodes.push(buildEpisode(id, { run: id, task: { question, answer: answerOf(e.correct_answer) }, agents, edges }, messages, labels, warnings));
  }

  finish(): Episode[] {
    if (this.episodes.length === 0) throw new InputError('empty', 'no episodes found; expected a JSON array of INFA-Guard / G-Safeguard episodes', this.file);
    return this.episodes;
  }
}

export const infaGuardFormat: FormatSpec = {
  title: 'INFA-Guard / G-Safeguard episodes',
  aliases: ['g-safeguard', 'gsafeguard', 'infaguard'],
  detect: {
    record: (o) => 'adj_matrix' in o || 'communication_data' in o,
    keys: 'adj_matrix, communication_data',
    signature: /"(adj_matrix|communication_data|attacker_idxes)"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'a JSON array of episodes with adj_matrix, attacker_idxes, system_prompts, question, correct_answer, communication_data',
  select: selectRuns,
  create: (file) => new InfaGuardImporter(file),
};
