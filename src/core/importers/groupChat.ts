// Reads group-chat histories as the Who&When failure-attribution dataset records them (AG2/CaptainAgent and
// Magentic-One runs): `{question, history: [{name?, role, content}]}`. Every message reaches every other participant
// (a group chat); the speaker is `name`, else the role without its note ("Orchestrator (-> WebSurfer)" is the
// Orchestrator). Magentic-One's "(thought)" entries (its ledger) reach no agent and are left out; one speaker's
// entries in a row are one turn. No labels: the dataset names the agent that caused a failure, which is not an attack.
import { InputError } from '../errors';
import { asObject, asString, assignCausalRounds, buildEpisode, contentText, perRunImporter, selectRuns, type Delivery } from './common';
import type { Episode, FormatSpec } from './types';

const EXPECTED = 'expected a group-chat history: {question, history: [{name, role, content}]}';

/** Who spoke a history entry: its name, else its role without a parenthesised note. */
function speakerOf(entry: Record<string, unknown>): string | undefined {
  return asString(entry.name)?.trim() || asString(entry.role)?.replace(/\s*\(.*\)\s*$/, '').trim() || undefined;
}

/** Joins each run of entries by one speaker into one message: one turn, not one round each. */
function oneTurnPerSpeaker(entries: { from: string; content: string }[]): { from: string; content: string }[] {
  const turns: { from: string; content: string }[] = [];
  for (const entry of entries) {
    const last = turns[turns.length - 1];
    if (last?.from === entry.from) last.content = [last.content, entry.content].filter((c) => c !== '').join('\n\n');
    else turns.push({ ...entry });
  }
  return turns;
}

const HUMAN_ROLES = new Set(['human', 'user']);
/** How AG2's code executor begins each message. */
const CODE_RUN_REPORT = /^\s*exitcode: -?\d+/;
const squashed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** One history as a group chat: every message from its speaker to every other participant. */
function readHistory(run: Record<string, unknown>, index: number, line: number, file?: string): Episode {
  if (!Array.isArray(run.history)) throw new InputError('missing-field', `run ${index}: missing "history" (an array); ${EXPECTED}`, file, line, 'history');
  const question = asString(run.question);
  const entries = run.history.flatMap((raw, n) => {
    const entry = asObject(raw);
    const from = entry && speakerOf(entry);
    if (!from) return [];
    const content = contentText(entry.content) ?? '';
    // The person's opening request is the task (Magentic-One's `human` entry repeats the question): not a message.
    if (n === 0 && question && HUMAN_ROLES.has(asString(entry.role) ?? '') && squashed(content).startsWith(squashed(question))) return [];
    // A Magentic-One ledger ("Orchestrator (thought)") is the orchestrator's own note: no agent receives it.
    if (/\(thought\)\s*$/.test(asString(entry.role) ?? '')) return [];
    return [{ from, content }];
  });
  const spoken = oneTurnPerSpeaker(entries);
  if (spoken.length === 0) throw new InputError('no-content', `run ${index}: "history" holds no message with a name or role`, file, line, 'history');
  const everyone = [...new Set(spoken.map((m) => m.from))];
  const deliveries: Delivery[] = spoken.map((m, i) => ({ from: m.from, to: everyone.filter((a) => a !== m.from), content: m.content, time: i, seq: i, line }));
  const id = asString(run.question_ID) ?? `run-${index}`;
  // A speaker that only reports code runs (AG2's Computer_terminal: "exitcode: 0 (execution succeeded)") is a tool: no
  // donor of its role in the remediation plan.
  const tools = new Set(everyone.filter((a) => spoken.every((m) => m.from !== a || m.content.trim() === '' || CODE_RUN_REPORT.test(m.content))));
  const agents = everyone.map((a) => (tools.has(a) ? { id: a, role: 'tool' } : { id: a }));
  return buildEpisode(id, { run: id, task: question ? { question } : undefined, agents }, assignCausalRounds(deliveries), [], []);
}

export const groupChatFormat: FormatSpec = {
  title: 'group-chat histories (Who&When: AG2, Magentic-One)',
  aliases: ['group-chat', 'whoandwhen'],
  detect: {
    record: (o) => Array.isArray(o.history) && ('question' in o || 'mistake_agent' in o),
    keys: 'question, history',
    signature: /"history"\s*:\s*\[\s*\{\s*"(?:content|role|name)"/,
    loneObjectIsDocument: true,
  },
  expects: 'a group-chat history (or a JSON array / JSON Lines of them) with question and history: [{name, role, content}]',
  select: selectRuns,
  create: (file) => perRunImporter(file, EXPECTED, (run, index, line) => readHistory(run, index, line, file)),
};
