// Reads tau-bench trajectories (sierra-research/tau-bench results: `[{task_id, trial, reward, traj: [chat messages]}]`):
// a user (simulated by a model), the assistant, and one agent per tool the assistant called, as toolChat maps them.
import { InputError } from '../errors';
import { assignCausalRounds, buildEpisode, perRunImporter, selectRuns } from './common';
import { toolChat } from './toolChat';
import type { Episode, FormatSpec } from './types';

const EXPECTED = 'expected a tau-bench result: {task_id, trial, traj: [chat messages]}';

/** tau2-bench's results (`simulations`) or one of its simulations (`messages`, `termination_reason`), not tau-bench's. */
function isTau2(run: Record<string, unknown>): boolean {
  return Array.isArray(run.simulations) || (Array.isArray(run.messages) && 'termination_reason' in run);
}

/** One trajectory: the user, the assistant and its tools, as toolChat maps a chat. */
function readTrajectory(run: Record<string, unknown>, index: number, line: number, file?: string): Episode {
  if (!Array.isArray(run.traj) && isTau2(run)) {
    throw new InputError('missing-field', 'this is tau2-bench output (simulations of messages), not a tau-bench result: read it with --from tau2, or without --from', file, line, 'traj');
  }
  if (!Array.isArray(run.traj)) throw new InputError('missing-field', `run ${index}: missing "traj" (an array of chat messages); ${EXPECTED}`, file, line, 'traj');
  const chat = toolChat(run.traj, line);
  if (chat.deliveries.length === 0) throw new InputError('no-content', `run ${index}: "traj" holds no user, assistant or tool message`, file, line, 'traj');
  const id = `task-${String(run.task_id ?? index)}-trial-${String(run.trial ?? 0)}`;
  return buildEpisode(id, { run: id, task: { question: chat.question }, agents: chat.agents }, assignCausalRounds(chat.deliveries), [], []);
}

export const tauBenchFormat: FormatSpec = {
  title: 'tau-bench trajectories',
  aliases: ['taubench'],
  detect: {
    record: (o) => Array.isArray(o.traj) && 'task_id' in o,
    keys: 'task_id, traj',
    signature: /"traj"\s*:\s*\[/,
    loneObjectIsDocument: true,
  },
  expects: 'a tau-bench result (or a JSON array / JSON Lines of them) with task_id, trial and traj',
  select: selectRuns,
  create: (file) => perRunImporter(file, EXPECTED, (run, index, line) => readTrajectory(run, index, line, file)),
};
