// The simulated tool-use chats the guard trains on: read through the AgentDojo importer, a poisoned tool result is the
// attacker, an assistant that obeyed it is infected, and the assistant of a run without an injection never is.
import * as assert from 'node:assert/strict';
import { simulatedToolChats } from '../../../bench/lib/toolChats';
import { buildRunModel } from '../../../src/core/guard/model';

describe('simulated tool-use chats', () => {
  const models = simulatedToolChats(60, 3).map((t) => buildRunModel(t));
  const finalLabel = (m: (typeof models)[number], agent: string) => m.labels![m.agents.indexOf(agent)][m.rounds - 1];

  it('labels poisoned tool results as attackers and obeying assistants as infected, in runs of both kinds', () => {
    const attacked = models.filter((m) => m.agents.some((a) => a.startsWith('tool:') && finalLabel(m, a) === 'attacker'));
    const infected = attacked.filter((m) => finalLabel(m, 'assistant') === 'infected');
    assert.ok(attacked.length > 10 && attacked.length < 60, `${attacked.length} attacked runs of 60`);
    assert.ok(infected.length > 3 && infected.length < attacked.length, `${infected.length} infected of ${attacked.length}`);
    for (const m of models.filter((m) => !attacked.includes(m))) assert.notEqual(finalLabel(m, 'assistant'), 'infected');
  });

  it('is the same for the same seed', () => {
    assert.deepEqual(simulatedToolChats(5, 3), simulatedToolChats(5, 3));
  });
});
