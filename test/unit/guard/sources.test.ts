// Source inference and infection paths: trace back along edges to the attacker upstream, earliest first.
import * as assert from 'node:assert/strict';
import { inferSourcesAndPaths } from '../../../src/core/guard/sources';
import type { Category } from '../../../src/core/trace/types';

const B: Category = 'benign';
const A: Category = 'attacker';
const I: Category = 'infected';

describe('source inference and infection paths', () => {
  it('follows a chain hop by hop back to the attacker', () => {
    // s -> x -> y ; x infected in round 1, y in round 2.
    const result = inferSourcesAndPaths({
      agents: ['s', 'x', 'y', 'z'],
      inNeighbors: [[], [0], [1], [2]],
      categories: [[A, B, B, B], [A, I, B, B], [A, I, I, B]],
      pAtk: [[0.9, 0.1, 0.1, 0.1], [0.9, 0.2, 0.1, 0.1], [0.9, 0.2, 0.2, 0.1]],
    });
    assert.deepEqual(result.infectionPaths, [['s', 'x'], ['s', 'x', 'y']]);
    assert.deepEqual(result.sources, ['s']);
  });

  it('picks the sender with the highest P_atk among compromised senders', () => {
    const result = inferSourcesAndPaths({
      agents: ['a1', 'a2', 'v'],
      inNeighbors: [[], [], [0, 1]],
      categories: [[A, A, B], [A, A, I]],
      pAtk: [[0.6, 0.95, 0.1], [0.6, 0.95, 0.1]],
    });
    assert.deepEqual(result.infectionPaths, [['a2', 'v']]);
    assert.deepEqual(result.sources, ['a2', 'a1'], 'the source of the earliest infection first, then other attackers by P_atk');
  });

  it('lists attackers no path starts from by the round they were first flagged, then by P_atk (a review: the head\'s last-round flag came before a lone holder flagged since round 0)', () => {
    const result = inferSourcesAndPaths({
      agents: ['holder', 'late', 'later'],
      inNeighbors: [[1, 2], [0, 2], [0, 1]],
      categories: [[A, B, B], [A, B, B], [A, A, A]],
      pAtk: [[0.7, 0.1, 0.1], [0.7, 0.2, 0.2], [0.74, 0.65, 0.78]],
    });
    assert.deepEqual(result.sources, ['holder', 'later', 'late']);
  });

  it('orders paths by the round of infection', () => {
    const result = inferSourcesAndPaths({
      agents: ['a', 'late', 'early'],
      inNeighbors: [[], [0], [0]],
      categories: [[A, B, B], [A, B, I], [A, I, I]],
      pAtk: [[0.9, 0.1, 0.1], [0.9, 0.1, 0.1], [0.9, 0.1, 0.1]],
    });
    assert.deepEqual(result.infectionPaths, [['a', 'early'], ['a', 'late']]);
  });

  it('does not loop on cycles and stops where no compromised sender exists', () => {
    const result = inferSourcesAndPaths({
      agents: ['p', 'q'],
      inNeighbors: [[1], [0]],
      categories: [[B, B], [I, I]],
      pAtk: [[0.1, 0.2], [0.1, 0.2]],
    });
    assert.equal(result.infectionPaths.length, 2);
    for (const path of result.infectionPaths) assert.ok(path.length <= 2);
    assert.deepEqual(result.sources, []);
  });

  it('does not make an agent flagged attacker in an early round, and infected in the end, its own source', () => {
    // A debate: s holds its answer throughout; v's head fired in round 0, then v took s's answer and is infected.
    const result = inferSourcesAndPaths({
      agents: ['s', 'v', 'w'],
      inNeighbors: [[1, 2], [0, 2], [0, 1]],
      categories: [[B, A, B], [A, I, B], [A, I, I]],
      pAtk: [[0.4, 0.6, 0.1], [0.4, 0.2, 0.1], [0.4, 0.2, 0.1]],
    });
    assert.deepEqual(result.infectionPaths, [['s', 'v'], ['s', 'w']]);
    assert.deepEqual(result.sources, ['s']);
  });
});
