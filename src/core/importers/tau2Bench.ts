// Reads tau2-bench results (sierra-research/tau2-bench: `{info, tasks, simulations: [{id, task_id, trial, messages}]}`):
// each simulation one run of the user (simulated by a model), the assistant and one agent per tool, as tau-bench's.
import { InputError } from '../errors';
import { asObject, assignCausalRounds, buildEpisode, type Json } from './common';
import { toolChat } from './toolChat';
import type { Episode, FormatSpec, Importer, JsonPath } from './types';

const EXPECTED = 'expected tau2-bench results: {info, tasks, simulations: [{id, task_id, trial, messages}]}';

/** A tool message of each result, where a step's results come wrapped as one (`{role: "tool", tool_messages}`). */
function flatMessages(messages: readonly unknown[]): unknown[] {
  return messages.flatMap((m) => {
    const wrapped = asObject(m)?.tool_messages;
    return Array.isArray(wrapped) ? wrapped : [m];
  });
}

/** One simulation: the user, the assistant and the tools either of them called, as toolChat maps a chat. */
function readSimulation(simulation: Json, index: number, line: number, file?: string): Episode {
  const where = `simulation ${index}`;
  if (!Array.isArray(simulation.messages)) {
    // A full-duplex (voice) run keeps `ticks` and no messages.
    const why = Array.isArray(simulation.ticks) ? ' (a full-duplex run\'s "ticks" are not read)' : '';
    throw new InputError('missing-field', `${where}: no "messages" (an array of chat messages)${why}; ${EXPECTED}`, file, line, 'messages');
  }
  const chat = toolChat(flatMessages(simulation.messages), line);
  if (chat.deliveries.length === 0) throw new InputError('no-content', `${where}: "messages" holds no user, assistant or tool message`, file, line, 'messages');
  const id = `task-${String(simulation.task_id ?? index)}-trial-${String(simulation.trial ?? 0)}`;
  return buildEpisode(id, { run: id, task: { question: chat.question }, agents: chat.agents }, assignCausalRounds(chat.deliveries), [], []);
}

/** Each simulation of the results document, one at a time (a run of many tasks and trials never sits whole). */
function selectSimulations(path: JsonPath): boolean {
  return path.length === 2 && path[0] === 'simulations' && typeof path[1] === 'number';
}

/**
 * Fed each simulation (a results document), or whole results objects (JSON Lines, or one results object on one line):
 * every simulation is one run.
 */
function tau2Importer(file?: string): Importer {
  const episodes: Episode[] = [];
  let count = 0;
  const read = (value: unknown, line: number) => {
    const simulation = asObject(value);
    if (!simulation) throw new InputError('invalid-field', `simulation ${count} is not an object; ${EXPECTED}`, file, line, 'simulations');
    episodes.push(readSimulation(simulation, count, line, file));
    count++;
  };
  return {
    add(value, line) {
      const o = asObject(value);
      if (o && 'simulations' in o) {
        if (!Array.isArray(o.simulations)) throw new InputError('invalid-field', `"simulations" is not an array; ${EXPECTED}`, file, line, 'simulations');
        for (const simulation of o.simulations) read(simulation, line);
      } else if (o && !('messages' in o) && !('task_id' in o)) {
        throw new InputError('missing-field', `missing "simulations"; ${EXPECTED}`, file, line, 'simulations');
      } else read(value, line);
    },
    take: () => episodes.splice(0),
    finish() {
      if (count === 0) throw new InputError('empty', `no simulations found ("simulations" is missing or empty); ${EXPECTED}`, file, undefined, 'simulations');
      return episodes.splice(0);
    },
  };
}

export const tau2BenchFormat: FormatSpec = {
  title: 'tau2-bench results',
  aliases: ['tau2-bench', 'tau2bench'],
  detect: {
    record: (o) => Array.isArray(o.simulations) && o.simulations.some((s) => Array.isArray(asObject(s)?.messages)),
    keys: 'simulations[].messages; info.user_info, info.agent_info',
    // The head of a large file may hold only `info` (its tasks come before its simulations): its agent and user records.
    signature: /"(?:user|agent)_info"\s*:\s*\{\s*"implementation"\s*:|"simulations"\s*:\s*\[\s*\{\s*"id"\s*:\s*"[^"\\]*"\s*,\s*"task_id"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'tau2-bench results (one JSON object, or JSON Lines of them) with info, tasks and simulations: [{id, task_id, trial, messages}]',
  select: selectSimulations,
  create: (file) => tau2Importer(file),
};
