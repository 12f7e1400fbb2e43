// Multi-agent debate logs: multi-agent-attack's result rows (amayuelas/multi-agent-attack, arXiv 2406.14711) and Du et
// al.'s llm_multiagent_debate output (one JSON object: question -> [agent_contexts, answer]); one chat per agent, an
// agent's round k is its k-th reply, and every agent reads every other's. Only the replies become messages: the system
// prompts and user turns (the harness's instructions, including an adversary's orders) are what a detector must not
// read. The labels are the harness's ground truth: who was made an adversary (nobody, in Du et al.'s debates).
import { InputError } from '../errors';
import type { Category } from '../trace/types';
import { asObject, buildEpisode, messageRole, messageText, selectRuns, type Delivery } from './common';
import type { Episode, FormatSpec, Importer, SourcedRecord } from './types';

const EXPECTED = 'expected a debate row with question and agent_responses (one chat per agent), or an object of question -> [agent_contexts, answer]';

/**
 * The most agents one debate, and the most agent pairs (edges) all of a file's debates, may have. Every agent hears
 * every other, so a row of n empty chats (a few bytes each) makes n² edges: 20,000 of them, an 860 KB file, once
 * exhausted the heap. Published debates have 2 to 10 agents; 10,000 three-agent rows are 60,000 pairs.
 */
export const MAX_DEBATE_AGENTS = 200;
export const MAX_DEBATE_PAIRS = 1_000_000;

/** The answer as the harness asks for it: the last "(X)" of a reply. */
export function debateAnswer(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(/\(([A-J])\)/g)) last = match[1];
  return last;
}

/** The gold answer: a letter ("A", or [["a", text]] in the TruthfulQA files), or a GSM8K solution's final "#### 72". */
function goldAnswer(answer: unknown): string | undefined {
  if (typeof answer === 'string' && /^\s*[A-Ja-j]\s*$/.test(answer)) return answer.trim().toUpperCase();
  if (typeof answer === 'string') return /^####[ \t]*(\S[^\n]*?)[ \t]*$(?![\s\S])/m.exec(answer.trimEnd())?.[1].replace(/,/g, '');
  if (Array.isArray(answer) && Array.isArray(answer[0]) && typeof answer[0][0] === 'string') return goldAnswer(answer[0][0]);
  return undefined;
}

/** An adversary's chat opens with a system prompt giving it that role. */
const isAdversary = (chat: unknown[]) => messageRole(chat[0]) === 'system' && /\badversary\b/i.test(messageText(chat[0]) ?? '');

/** The answer an adversary was told to argue ("Your answer: (X)"); the harness's earlier format names none. */
const targetOf = (chat: unknown[]) => chat.map((turn) => (messageRole(turn) === 'user' ? /Your answer: \(([A-J])\)/.exec(messageText(turn) ?? '')?.[1] : undefined)).find(Boolean);

class DebateImporter implements Importer {
  private readonly episodes: Episode[] = [];
  /** Debates read so far, taken or not. */
  private count = 0;
  private pairs = 0;

  constructor(private readonly file?: string) {}

  add(value: unknown, line: number): void {
    const row = asObject(value);
    if (!row) throw new InputError('invalid-field', `row ${this.count} is not an object; ${EXPECTED}`, this.file, line);
    // MAD's debates (Skytliang/Multi-Agents-Debate) are another format: say so, not that agent_responses is missing.
    if (!('agent_responses' in row) && asObject(row.players)) {
      throw new InputError('missing-field', 'this is a MAD debate (players: one chat per player), not a multi-agent-attack row: read it with --from mad, or without --from', this.file, line, 'agent_responses');
    }
    // Du et al.'s object holds only arrays: question -> [agent_contexts, answer], or -> agent_contexts (the biography task).
    if ('agent_responses' in row || !Object.values(row).every(Array.isArray)) return this.addRow(row, `row ${this.count}`, 'agent_responses', line);
    for (const [question, entry] of Object.entries(row)) {
      const withAnswer = Array.isArray(entry) && Array.isArray(entry[0]) && Array.isArray(entry[0][0]);
      this.addRow({ question, answer: withAnswer ? entry[1] : undefined, agent_responses: withAnswer ? entry[0] : entry }, `the entry of "${question.slice(0, 60)}"`, 'agent_contexts', line);
    }
  }

  /** One debate; `field` names its chats as the file does (agent_responses, or Du et al.'s agent_contexts) in errors. */
  private addRow(row: Record<string, unknown>, where: string, field: string, line: number): void {
    const chats = row.agent_responses;
    if (!Array.isArray(chats) || chats.length === 0 || !chats.every(Array.isArray)) {
      throw new InputError('missing-field', `${where}: "${field}" must be a non-empty array of chats (arrays of messages); ${EXPECTED}`, this.file, line, field);
    }
    if (chats.length > MAX_DEBATE_AGENTS) {
      throw new InputError('invalid-field', `${where}: ${chats.length} agents; a debate is read with at most ${MAX_DEBATE_AGENTS} (every agent hears every other)`, this.file, line, field);
    }
    this.pairs += chats.length * (chats.length - 1);
    if (this.pairs > MAX_DEBATE_PAIRS) {
      throw new InputError('invalid-field', `${where}: the debates up to here have ${this.pairs} agent pairs; a file is read with at most ${MAX_DEBATE_PAIRS} (split it)`, this.file, line, field);
    }
    const ids = chats.map((_, i) => `agent_${i}`);
    const messages: Delivery[] = [];
    const replies = (chats as unknown[][]).map((chat) => chat.filter((turn) => messageRole(turn) === 'assistant').map((turn) => messageText(turn) ?? ''));
    replies.forEach((texts, i) => texts.forEach((content, round) => messages.push({ from: ids[i], content, time: round, seq: messages.length, line, round })));
    if (messages.length === 0) throw new InputError('no-content', `${where}: no agent has an assistant reply`, this.file, line, field);

    const question = typeof row.question === 'string' ? row.question : undefined;
    const gold = goldAnswer(row.answer);
    const edges = ids.flatMap((a) => ids.filter((b) => b !== a).map((b): [string, string] => [a, b]));
    const labels = this.labels(chats as unknown[][], replies, ids, gold, line);
    const id = typeof row.id === 'number' || (typeof row.id === 'string' && row.id !== '') ? `question-${row.id}` : `question-${this.count}`;
    this.count++;
    this.episodes.push(buildEpisode(id, { run: id, task: { question, answer: gold }, agents: ids.map((a) => ({ id: a, role: 'debater' })), edges }, messages, labels, []));
  }

  /**
   * The harness's ground truth: adversaries are attackers in every round; from round 1, an honest agent that now gives
   * an adversary's target, which is wrong, while it did not in round 0 is infected (where no target is named: right in
   * round 0 and wrong now); everyone else is benign, and everyone in a debate without adversaries.
   */
  private labels(chats: unknown[][], replies: string[][], ids: string[], gold: string | undefined, line: number): SourcedRecord[] {
    const adversary = chats.map(isAdversary);
    const named = chats.flatMap((chat, i) => (adversary[i] ? [targetOf(chat)] : [])).filter((t): t is string => t !== undefined);
    const anyTarget = named.length > 0;
    const targets = named.filter((t) => t !== gold);
    const labels: SourcedRecord[] = [];
    const rounds = Math.max(...replies.map((r) => r.length));
    replies.forEach((texts, i) => {
      const answers = texts.map(debateAnswer);
      for (let k = 0; k < rounds; k++) {
        let category: Category = 'benign';
        if (adversary[i]) category = 'attacker';
        else if (k > 0 && adversary.includes(true)) {
          const [first, now] = [answers[0], answers[k]];
          const talkedInto = anyTarget ? targets.some((t) => now === t && first !== t) : now !== undefined && gold !== undefined && now !== gold && first === gold;
          if (talkedInto) category = 'infected';
        }
        labels.push({ record: { type: 'label', round: k, agent: ids[i], category }, line });
      }
    });
    return labels;
  }

  take(): Episode[] {
    return this.episodes.splice(0);
  }

  finish(): Episode[] {
    if (this.count === 0) throw new InputError('empty', `no debates found; ${EXPECTED}`, this.file);
    return this.episodes.splice(0);
  }
}

export const debateFormat: FormatSpec = {
  title: 'multi-agent debate logs (multi-agent-attack)',
  aliases: ['multiagent-debate'],
  detect: {
    record: (o) => 'agent_responses' in o,
    keys: 'question, agent_responses; or question -> [agent_contexts, answer]',
    // multi-agent-attack's key, or Du et al.'s opening: {"<question>": [[[{"role" (or [[{"role" for the biography task).
    signature: /"agent_responses"\s*:|^\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\[\s*\[\s*(?:\[\s*)?\{\s*"(?:role|content)"/,
    loneObjectIsDocument: false,
  },
  expects: 'JSON Lines of debate rows (or a JSON array of them) with question, answer, agent_responses; or one object of question -> [agent_contexts, answer]',
  select: selectRuns,
  create: (file) => new DebateImporter(file),
};
