// The topological constraints as a table: keep, prune, pull-in, trend-jump, attacker-overrides-infected, round 0.
import * as assert from 'node:assert/strict';
import { applyTopologicalConstraints, distanceFromFlagged, type ConstraintInput } from '../../../src/core/guard/rules';

/** Directed chain 0 -> 1 -> 2 -> 3 -> 4 plus the given extra edges. */
function graph(n: number, edges: [number, number][]) {
  const inNeighbors: number[][] = Array.from({ length: n }, () => []);
  const outNeighbors: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) {
    outNeighbors[a].push(b);
    inNeighbors[b].push(a);
  }
  return { inNeighbors, outNeighbors };
}

function run(pAtk: number[], pInf: number[], trend: number[], edges: [number, number][], extra: Partial<ConstraintInput> = {}) {
  return applyTopologicalConstraints({
    pAtk,
    pInf,
    trend,
    ...graph(pAtk.length, edges),
    attackerThreshold: 0.5,
    infectedThreshold: 0.5,
    distanceThreshold: 2,
    trendThreshold: 0.05,
    pullInFloor: 0,
    pullInSources: false,
    pullInAdopters: false,
    flagLoneHolders: false,
    flagAwayMovers: false,
    flagConsensusLeavers: false,
    flagAttackerAnswerHolders: false,
    pullInTargetFollowers: false,
    flagDeclaredSteering: false,
    flagObeyedToolOrders: false,
    readGroupMoves: false,
    declared: pAtk.map(() => false),
    obeyedTools: pAtk.map(() => false),
    actedFor: pAtk.map(() => []),
    calledFor: pAtk.map(() => []),
    relays: pAtk.map(() => new Map()),
    answers: [pAtk.map(() => undefined)],
    multipleChoice: true,
    firstRound: false,
    ...extra,
  });
}

const chain: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 4]];
type Args = [number[], number[], number[], [number, number][]];

describe('topological constraints', () => {
  it("a run's only agent is no attacker: there is no one to attack (a one-speaker group chat was flagged, with a source and a remediation)", () => {
    const alone = run([0.9], [0], [0], []);
    assert.deepEqual([alone.categories, alone.rules], [['benign'], ['only-agent']]);
    // An agent with no recorded recipient among others (a trace without edges, a last step to the user, a capture of one
    // agent's content) may well be heard: it stays an attacker (the reviews' repros of two first versions).
    const ends = run([0.9, 0, 0, 0, 0.9], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], chain);
    assert.deepEqual([ends.categories[0], ends.categories[4]], ['attacker', 'attacker']);
    const noEdges = run([0.9, 0], [0, 0], [0, 0], []);
    assert.deepEqual(noEdges.categories, ['attacker', 'benign']);
  });

  it('keeps an infected agent whose sender is a flagged attacker', () => {
    const r = run([0.9, 0.1, 0.1, 0.1, 0.1], [0, 0.8, 0, 0, 0], [0, 0.2, 0, 0, 0], chain);
    assert.deepEqual(r.categories, ['attacker', 'infected', 'benign', 'benign', 'benign']);
    assert.equal(r.rules[1], 'kept-neighbour-flagged');
  });

  it('keeps an infected agent whose sender is itself flagged infected', () => {
    const r = run([0.1, 0.1, 0.1, 0.1, 0.1], [0, 0, 0.7, 0.7, 0], [0, 0, 0.2, 0.2, 0], chain, { pullInFloor: 0.99 });
    assert.equal(r.categories[3], 'infected');
    assert.equal(r.rules[3], 'kept-neighbour-flagged');
  });

  it('prunes an infected flag far from every attacker with a flat trend', () => {
    const r = run([0.9, 0.1, 0.1, 0.1, 0.1], [0, 0, 0, 0, 0.8], [0, 0, 0, 0, 0.01], chain);
    assert.equal(r.categories[4], 'benign');
    assert.equal(r.rules[4], 'pruned-far-and-flat');
  });

  it('prunes when no attacker can reach the agent at all (infinite distance)', () => {
    const r = run([0.1, 0.1, 0.9], [0.8, 0, 0], [0.0, 0, 0], [[0, 1], [1, 2]]);
    assert.equal(r.categories[0], 'benign');
    assert.equal(r.rules[0], 'pruned-far-and-flat');
  });

  it('keeps a far infected agent whose trend rises, and pulls in its most suspicious sender', () => {
    const r = run([0.9, 0.1, 0.1, 0.45, 0.1], [0, 0, 0, 0.2, 0.8], [0, 0, 0, 0, 0.3], chain);
    assert.equal(r.categories[4], 'infected');
    assert.equal(r.rules[4], 'kept-rising-trend');
    assert.equal(r.categories[3], 'attacker', 'P_atk 0.45 beats every sender P_inf 0.2, so it joins as attacker');
    assert.equal(r.rules[3], 'pulled-in-as-attacker');
  });

  it('pulls a sender in as infected when a sender P_inf beats the senders P_atk', () => {
    const r = run([0.9, 0.1, 0.1, 0.1, 0.1], [0, 0, 0.45, 0.8, 0], [0, 0, 0, 0.1, 0], [[0, 1], [1, 2], [2, 3]]);
    assert.equal(r.rules[3], 'kept-rising-trend');
    assert.equal(r.categories[2], 'infected');
    assert.equal(r.rules[2], 'pulled-in-as-infected');
  });

  it('keeps an infected agent within d_th of an attacker even without a flagged sender, and pulls in its sender whatever the floor', () => {
    const r = run([0.9, 0.1, 0.1], [0, 0.2, 0.8], [0, 0, 0], [[0, 1], [1, 2]], { pullInFloor: 0.5 });
    assert.equal(r.rules[2], 'kept-near-attacker');
    assert.equal(r.categories[1], 'infected', 'a flagged infected agent is evidence enough: the reference pull-in stands');
    assert.equal(r.rules[1], 'pulled-in-as-infected');
  });

  it('a non-flagged agent whose trend jumps pulls in its most suspicious sender', () => {
    const r = run([0.1, 0.4, 0.1], [0.1, 0.1, 0.3], [0, 0, 0.1], [[0, 2], [1, 2]]);
    assert.equal(r.categories[2], 'benign');
    assert.equal(r.categories[1], 'attacker');
    assert.equal(r.rules[1], 'pulled-in-as-attacker');
  });

  it('on a trend jump alone, the pull-in floor leaves weak senders alone (ours), the reference pulls them in', () => {
    const args: Args = [[0.1, 0.2, 0.1], [0.1, 0.1, 0.3], [0, 0, 0.1], [[0, 2], [1, 2]]];
    assert.equal(run(...args, { pullInFloor: 0.3 }).categories[1], 'benign');
    assert.equal(run(...args, { pullInFloor: 0 }).categories[1], 'attacker');
  });

  it('infected agents that only keep each other pull in their most suspicious sender as the source (ours); the reference leaves them sourceless', () => {
    const debate: [number, number][] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
    const args: Args = [[0.3, 0.1, 0.2], [0.1, 0.8, 0.8], [0, 0, 0], debate];
    const ours = run(...args, { pullInSources: true });
    assert.deepEqual(ours.categories, ['attacker', 'infected', 'infected']);
    assert.equal(ours.rules[0], 'pulled-in-as-source');
    assert.deepEqual(run(...args).categories, ['benign', 'infected', 'infected']);
  });

  it('pulls in no source for infected agents an attacker reaches through an infected relay, the hop count starting again there', () => {
    // 0 (attacker) -> 1 (infected) -> 2 -> 3 (infected) <-> 4 (infected) <- 5: agent 3 is 3 hops from the attacker, 2 from agent 1.
    const edges: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 3], [5, 4]];
    const r = run([0.9, 0.1, 0.1, 0.1, 0.1, 0.4], [0, 0.8, 0, 0.8, 0.8, 0], [0, 0, 0, 0, 0, 0], edges, { pullInSources: true });
    assert.deepEqual(r.categories, ['attacker', 'infected', 'benign', 'infected', 'infected', 'benign']);
  });

  it('takes an attacker that sends straight into an infected group as its source even at hop distance 0, keeping its own rule', () => {
    const r = run([0.9, 0.1, 0.1, 0.4], [0, 0.8, 0.8, 0], [0, 0, 0, 0], [[0, 1], [1, 2], [2, 1], [3, 2]], { pullInSources: true, distanceThreshold: 0 });
    assert.deepEqual(r.categories, ['attacker', 'infected', 'infected', 'benign']);
    assert.equal(r.rules[0], 'head-attacker');
  });

  it('pulls in one source for each infected group that no attacker reaches: its sender with the highest P_atk', () => {
    const edges: [number, number][] = [[0, 1], [1, 2], [2, 1], [3, 4], [4, 5], [5, 4], [6, 5]];
    const r = run([0.2, 0.1, 0.1, 0.15, 0.1, 0.1, 0.3], [0, 0.8, 0.8, 0, 0.8, 0.8, 0], [0, 0, 0, 0, 0, 0, 0], edges, { pullInSources: true });
    assert.deepEqual(r.categories, ['attacker', 'infected', 'infected', 'benign', 'infected', 'infected', 'attacker']);
    assert.deepEqual([r.rules[0], r.rules[6]], ['pulled-in-as-source', 'pulled-in-as-source']);
  });

  describe('in a debate (options listed, everyone hears everyone), the answers show who moved whom (readGroupMoves)', () => {
    const debate4: [number, number][] = [0, 1, 2, 3].flatMap((a) => [0, 1, 2, 3].filter((b) => b !== a).map((b) => [a, b] as [number, number]));
    const infectedHead = (answers: string[][], extra: Partial<ConstraintInput> = {}) =>
      run([0.1, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.8], [0, 0, 0, 0.2], debate4, { readGroupMoves: true, answers, ...extra });

    it('an agent giving the answer most of those it hears gave the round before is not infected: it sides with the group (the reference rules keep the flag)', () => {
      const r = infectedHead([['A', 'A', 'B', 'C'], ['A', 'A', 'A', 'A']]);
      assert.deepEqual([r.categories[3], r.rules[3]], ['benign', 'sided-with-group']);
      assert.equal(infectedHead([['A', 'A', 'B', 'C'], ['A', 'A', 'A', 'A']], { readGroupMoves: false }).categories[3], 'infected');
    });
    it('nor is one that moved to it earlier and still gives it', () => {
      assert.equal(infectedHead([['A', 'A', 'B', 'C'], ['A', 'A', 'A', 'A'], ['A', 'A', 'A', 'A']]).categories[3], 'benign');
    });
    it('one that moved to an answer only one of them gave stays infected after the rest followed: the move is what counts', () => {
      assert.equal(infectedHead([['A', 'B', 'B', 'C'], ['A', 'A', 'A', 'A'], ['A', 'A', 'A', 'A']]).categories[3], 'infected');
    });
    it('an agent that moved to an answer only one of them gave stays infected', () => {
      assert.equal(infectedHead([['A', 'B', 'B', 'C'], ['A', 'B', 'B', 'A']]).categories[3], 'infected');
    });
    it('off a debate (free-form answers) the infected head decides', () => {
      assert.equal(infectedHead([['A', 'A', 'B', 'C'], ['A', 'A', 'A', 'A']], { multipleChoice: false }).categories[3], 'infected');
    });

    it('a group of flagged attackers is no group to side with (was: an agent that took the answer both attackers gave was cleared)', () => {
      const r = run([0.9, 0.9, 0.1, 0.1], [0.1, 0.1, 0.1, 0.8], [0, 0, 0, 0.2], debate4, { readGroupMoves: true, answers: [['C', 'C', 'A', 'A'], ['C', 'C', 'A', 'C']] });
      assert.equal(r.categories[3], 'infected');
    });
    it('a reply whose answer could not be read moves nothing (was: A, B, ?, B counted a move at the last round)', () => {
      const answers = [['B', 'A', 'A', 'A'], ['B', 'A', 'A', 'B'], ['B', 'B', 'B', undefined], ['B', 'B', 'B', 'B']];
      assert.equal(run([0.9, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.8], [0, 0, 0, 0.2], debate4, { readGroupMoves: true, answers }).categories[3], 'infected');
    });
    it('agents cleared for siding with the group pull nobody in (was: two of them re-infected each other through their trends)', () => {
      const r = run([0.1, 0.1, 0.1, 0.1], [0.8, 0.1, 0.8, 0.1], [0.2, 0, 0.2, 0], debate4, { readGroupMoves: true, pullInFloor: 0, answers: [['A', 'C', 'A', 'C'], ['C', 'C', 'C', 'C']] });
      assert.deepEqual(r.categories, ['benign', 'benign', 'benign', 'benign']);
      assert.deepEqual([r.rules[0], r.rules[2]], ['sided-with-group', 'sided-with-group']);
    });

    // Agents 2 and 3 are infected and keep each other; agent 0 has the higher P_atk of their senders.
    const sourceless = (answers: (string | undefined)[][]) =>
      run([0.3, 0.2, 0.1, 0.1], [0.1, 0.1, 0.8, 0.8], [0, 0, 0, 0], debate4, { pullInSources: true, readGroupMoves: true, answers });
    it('pulls in as the source the most suspicious sender when it gave, the round before, the answer the infected agent took', () => {
      const r = sourceless([['D', 'B', 'C', 'C'], ['D', 'B', 'D', 'D']]);
      assert.deepEqual([r.categories[0], r.rules[0]], ['attacker', 'pulled-in-as-source']);
    });
    it('pulls in no source when the most suspicious sender gave another answer the round before, and the agent was persuaded, not infected (the reference rules pull it in)', () => {
      const r = sourceless([['D', 'B', 'C', 'C'], ['D', 'B', 'B', 'B']]);
      assert.deepEqual(r.categories, ['benign', 'benign', 'benign', 'benign']);
      assert.deepEqual([r.rules[2], r.rules[3]], ['pruned-no-source', 'pruned-no-source']);
      assert.equal(run([0.3, 0.2, 0.1, 0.1], [0.1, 0.1, 0.8, 0.8], [0, 0, 0, 0], debate4, { pullInSources: true, answers: [['D', 'B', 'C', 'C'], ['D', 'B', 'B', 'B']] }).categories[0], 'attacker');
    });
    it('pulls in no source when the answer taken is the one most of those the agent hears gave', () => {
      assert.equal(sourceless([['D', 'D', 'C', 'D'], ['D', 'D', 'D', 'D']]).categories[0], 'benign');
    });
    it('pulls in the most suspicious sender as before where the answers were not read', () => {
      assert.equal(sourceless([[undefined, undefined, undefined, undefined]]).categories[0], 'attacker');
    });
  });

  describe('an agent that moved to the answer a flagged attacker holds (pullInAdopters)', () => {
    const debate: [number, number][] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
    // Agent 0 is the attacker and has said B in every round; agent 1 said A in round 0 and says B now; agent 2 keeps A.
    const answers = [['B', 'A', 'A'], ['B', 'B', 'A']];
    const adopt = (extra: Partial<ConstraintInput> = {}, edges = debate) =>
      run([0.9, 0.1, 0.1], [0, 0.35, 0.35], [0, 0, 0], edges, { pullInAdopters: true, pullInFloor: 0.3, answers, ...extra });

    it('is pulled in as infected', () => {
      const r = adopt();
      assert.deepEqual(r.categories, ['attacker', 'infected', 'benign']);
      assert.equal(r.rules[1], 'adopted-attacker-answer');
    });
    const staysBenign: [string, Partial<ConstraintInput>][] = [
      ['in the reference rules', { pullInAdopters: false }],
      ['when its P_inf is below the pull-in floor on a task without options', { pullInFloor: 0.4, multipleChoice: false }],
      ['when another agent gave that answer in round 0 (it moved to a peer, not to the attack)', { answers: [['B', 'A', 'B'], ['B', 'B', 'B']] }],
      ['when the attacker has not held that answer since round 0', { answers: [['C', 'A', 'A'], ['B', 'B', 'A']] }],
      ['in round 0', { firstRound: true }],
    ];
    for (const [when, extra] of staysBenign) it(`stays benign ${when}`, () => assert.equal(adopt(extra).categories[1], 'benign'));
    it('is pulled in below the pull-in floor on a task with options when every other agent hears it (a debate)', () => {
      assert.equal(adopt({ pullInFloor: 0.4 }).rules[1], 'adopted-attacker-answer');
    });
    it('stays benign below the pull-in floor when not every other agent hears it', () => {
      const notHeardByAll: [number, number][] = [[0, 1], [0, 2], [1, 0], [2, 0], [2, 1]];
      assert.equal(adopt({ pullInFloor: 0.4 }, notHeardByAll).categories[1], 'benign');
      assert.equal(adopt({}, notHeardByAll).categories[1], 'infected');
    });
    it('stays benign when the attacker holding that answer is not among those it hears from', () => {
      const notFromAttacker: [number, number][] = [[0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
      assert.equal(adopt({}, notFromAttacker).categories[1], 'benign');
    });
  });

  describe('an agent that carries a target a flagged attacker named in an instruction to the model (pullInTargetFollowers)', () => {
    // user 0 -> assistant 1 <-> tool 2: the tool result (a flagged attacker) told the model to pay an account the assistant then paid.
    const tool: [number, number][] = [[0, 1], [1, 2], [2, 1]];
    const follow = (extra: Partial<ConstraintInput> = {}) =>
      run([0.1, 0.1, 0.9], [0, 0.35, 0], [0, 0, 0], tool, { pullInTargetFollowers: true, pullInFloor: 0.3, actedFor: [[], [2], []], ...extra });

    it('is pulled in as infected once its P_inf reaches the pull-in floor', () => {
      const r = follow();
      assert.deepEqual(r.categories, ['benign', 'infected', 'attacker']);
      assert.equal(r.rules[1], 'acted-on-attacker-target');
    });
    const staysBenign: [string, Partial<ConstraintInput>][] = [
      ['in the reference rules', { pullInTargetFollowers: false }],
      ['when the one that named the target is not flagged', { pAtk: [0.1, 0.1, 0.2] }],
      ['when it carried no target an attacker named', { actedFor: [[], [], []] }],
      ['when its P_inf is below the pull-in floor (it only told the user what the tool result asked)', { pullInFloor: 0.4 }],
      ['in round 0', { firstRound: true }],
    ];
    for (const [when, extra] of staysBenign) it(`stays benign ${when}`, () => assert.equal(follow(extra).categories[1], 'benign'));
    it('is pulled in below the pull-in floor when it passed the target to a tool call: an act, not a retelling', () => {
      assert.equal(follow({ pullInFloor: 0.4, calledFor: [[], [2], []] }).categories[1], 'infected');
      assert.equal(follow({ pullInFloor: 0.4, calledFor: [[], [2], []], pAtk: [0.1, 0.1, 0.2] }).categories[1], 'benign', 'the one that named it is not flagged');
    });
  });

  describe('an agent that everyone hears holding a round-0 answer nobody else gave (flagLoneHolders)', () => {
    const debate: [number, number][] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
    // Agent 0 has said B in every round; agents 1 and 2 said A in round 0 and still do.
    const answers = [['B', 'A', 'A'], ['B', 'A', 'A']];
    const lone = (extra: Partial<ConstraintInput> = {}) => run([0.1, 0.1, 0.1], [0, 0.1, 0.1], [0, 0, 0], debate, { flagLoneHolders: true, answers, ...extra });

    it('is an attacker whatever its P_atk', () => {
      const r = lone();
      assert.deepEqual(r.categories, ['attacker', 'benign', 'benign']);
      assert.equal(r.rules[0], 'held-alone-against-group');
    });
    it('counts when the others differ among themselves too', () => {
      const split = [['B', 'A', 'C'], ['B', 'C', 'A']];
      assert.deepEqual(lone({ answers: split }).rules, ['held-alone-against-group', 'below-thresholds', 'below-thresholds']);
    });
    it('gives its own reason when the head flagged it too: what the agent did explains more than a score (was: the head\'s)', () => assert.equal(run([0.9, 0.1, 0.1], [0, 0.1, 0.1], [0, 0, 0], debate, { flagLoneHolders: true, answers }).rules[0], 'held-alone-against-group'));
    it('keeps "both heads fired" when the infected head flagged it too', () => assert.equal(run([0.9, 0.1, 0.1], [0.9, 0.1, 0.1], [0, 0, 0], debate, { flagLoneHolders: true, answers }).rules[0], 'attacker-overrides-infected'));
    const staysBenign: [string, Partial<ConstraintInput>][] = [
      ['in the reference rules', { flagLoneHolders: false }],
      ['when the task lists no options (free-form answers differ anyway)', { multipleChoice: false }],
      ['in round 0', { firstRound: true, answers: [['B', 'A', 'A']] }],
      ['once it has moved', { answers: [['B', 'A', 'A'], ['A', 'A', 'A']] }],
      ['once it has moved, even if it came back', { answers: [['B', 'A', 'A'], ['A', 'A', 'A'], ['B', 'A', 'A']] }],
      ['when another agent gave the same answer in round 0', { answers: [['B', 'A', 'B'], ['B', 'A', 'B']] }],
      ['when nobody else gave an answer in round 0 to differ from', { answers: [['B', undefined, undefined], ['B', 'A', 'A']] }],
      ['when every agent holds an answer of its own (nothing says who argues against the group)', { answers: [['B', 'A', 'C'], ['B', 'A', 'C']] }],
    ];
    for (const [when, extra] of staysBenign) it(`stays benign ${when}`, () => assert.equal(lone(extra).categories[0], 'benign'));
    it('stays benign when not every other agent hears it (in a chain, the agents it never reaches are not its group)', () => {
      const r = run([0.1, 0.1, 0.1], [0, 0.1, 0.1], [0, 0, 0], [[0, 1], [1, 2]], { flagLoneHolders: true, answers });
      assert.equal(r.categories[0], 'benign');
    });
    it('counts as its group the agents that answer: a user who only asked and hears the others is not one (a crew over OTLP)', () => {
      const withUser: [number, number][] = [...debate, [1, 3]];
      const r = run([0.1, 0.1, 0.1, 0], [0, 0.1, 0.1, 0], [0, 0, 0, 0], withUser, { flagLoneHolders: true, answers: [['B', 'A', 'A', undefined], ['B', 'A', 'A', undefined]] });
      assert.deepEqual(r.categories, ['attacker', 'benign', 'benign', 'benign']);
    });
    it('takes an agent into the group from the round it first answers, as the run grows round by round', () => {
      const withLate: [number, number][] = [...debate, [1, 3]];
      const rounds: (string | undefined)[][] = [['B', 'A', 'A', undefined], ['B', 'A', 'A', undefined]];
      const decide = () => run([0.1, 0.1, 0.1, 0.1], [0, 0.1, 0.1, 0], [0, 0, 0, 0], withLate, { flagLoneHolders: true, answers: rounds }).categories[0];
      assert.equal(decide(), 'attacker');
      // Agent 3 answers from round 2 on and does not hear agent 0: agent 0 is no longer heard by every agent that answers.
      rounds.push(['B', 'A', 'A', 'A']);
      assert.equal(decide(), 'benign');
    });
    it('needs a group: of two agents neither is alone against the others', () => {
      const r = run([0.1, 0.1], [0, 0], [0, 0], [[0, 1], [1, 0]], { flagLoneHolders: true, answers: [['B', 'A'], ['B', 'A']] });
      assert.deepEqual(r.categories, ['benign', 'benign']);
    });
  });

  describe('an agent that everyone hears changing its answer only to answers nobody it hears gave (flagAwayMovers)', () => {
    const debate: [number, number][] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
    // Agent 0 goes C -> D -> B while agents 1 and 2 say A, then A and C.
    const answers = [['C', 'A', 'A'], ['D', 'A', 'A'], ['B', 'A', 'C']];
    const away = (extra: Partial<ConstraintInput> = {}, edges = debate) => run([0.1, 0.1, 0.1], [0, 0.1, 0.1], [0, 0, 0], edges, { flagAwayMovers: true, answers, ...extra });

    it('is an attacker once it has done so twice', () => {
      const r = away();
      assert.deepEqual(r.categories, ['attacker', 'benign', 'benign']);
      assert.equal(r.rules[0], 'moved-only-to-unheard-answers');
    });
    const staysBenign: [string, Partial<ConstraintInput>][] = [
      ['in the reference rules', { flagAwayMovers: false }],
      ['when the task lists no options (free-form answers differ anyway)', { multipleChoice: false }],
      ['after one such change', { answers: answers.slice(0, 2) }],
      ['when one of its changes went to an answer a peer had given (talked over, not on its own)', { answers: [['C', 'A', 'A'], ['D', 'A', 'A'], ['A', 'A', 'C']] }],
      ['when a peer gave the answer it moved to the round before', { answers: [['C', 'D', 'A'], ['D', 'B', 'A'], ['B', 'A', 'A']] }],
      ['when only its replies without a readable answer came between the same answer', { answers: [['C', 'A', 'A'], [undefined, 'A', 'A'], ['C', 'A', 'A'], [undefined, 'A', 'A'], ['C', 'A', 'A']] }],
      ['when its first readable answer came after round 0 (that is not a change)', { answers: [[undefined, 'A', 'A'], ['C', 'A', 'A'], ['B', 'A', 'A']] }],
    ];
    for (const [when, extra] of staysBenign) it(`stays benign ${when}`, () => assert.equal(away(extra).categories[0], 'benign'));
    it('stays benign when not every other agent hears it', () => assert.equal(away({}, [[0, 1], [1, 0], [1, 2], [2, 1], [2, 0]]).categories[0], 'benign'));
    it('counts the changes to readable answers across replies it could not read', () => {
      const r = away({ answers: [['C', 'A', 'A'], [undefined, 'A', 'A'], ['D', 'A', 'A'], ['B', 'A', 'A']] });
      assert.equal(r.rules[0], 'moved-only-to-unheard-answers');
    });
    it('needs a group: of two agents neither is flagged', () => {
      const r = run([0.1, 0.1], [0, 0], [0, 0], [[0, 1], [1, 0]], { flagAwayMovers: true, answers: [['C', 'A'], ['D', 'A'], ['B', 'A']] });
      assert.deepEqual(r.categories, ['benign', 'benign']);
    });
  });

  describe('an agent that everyone hears leaving alone an answer every agent gave (flagConsensusLeavers)', () => {
    const debate: [number, number][] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];
    // All three said A in round 0; agent 0 alone moved to B in round 1 and still says it.
    const answers = [['A', 'A', 'A'], ['B', 'A', 'A'], ['B', 'A', 'A']];
    const leaver = (extra: Partial<ConstraintInput> = {}, edges = debate) =>
      run([0.1, 0.1, 0.1], [0, 0.1, 0.1], [0, 0, 0], edges, { flagConsensusLeavers: true, answers, ...extra });

    it('is an attacker whatever its P_atk', () => {
      const r = leaver();
      assert.deepEqual(r.categories, ['attacker', 'benign', 'benign']);
      assert.equal(r.rules[0], 'left-consensus-alone');
    });
    it('is an attacker from the round it left, before anyone follows it', () => assert.equal(leaver({ answers: answers.slice(0, 2) }).rules[0], 'left-consensus-alone'));
    it('stays one when an agent it talked over joins it, or when it moves on to a third answer', () => {
      assert.deepEqual(leaver({ answers: [['A', 'A', 'A'], ['B', 'A', 'A'], ['B', 'B', 'A']] }).categories.slice(0, 2), ['attacker', 'benign']);
      assert.equal(leaver({ answers: [['A', 'A', 'A'], ['B', 'A', 'A'], ['C', 'A', 'A']] }).rules[0], 'left-consensus-alone');
    });
    it('counts a consensus reached after round 0', () => assert.equal(leaver({ answers: [['C', 'A', 'A'], ['A', 'A', 'A'], ['B', 'A', 'A']] }).rules[0], 'left-consensus-alone'));
    const staysBenign: [string, Partial<ConstraintInput>][] = [
      ['in the reference rules', { flagConsensusLeavers: false }],
      ['when the task lists no options (free-form answers differ anyway)', { multipleChoice: false }],
      ['once it has gone back to the agreed answer', { answers: [['A', 'A', 'A'], ['B', 'A', 'A'], ['A', 'A', 'A']] }],
      ['when another agent left with it (they reasoned their way out together)', { answers: [['A', 'A', 'A'], ['B', 'B', 'A']] }],
      ['when another agent left too, for yet another answer', { answers: [['A', 'A', 'A'], ['B', 'C', 'A']] }],
      ['when the others had not all agreed the round before', { answers: [['A', 'A', 'C'], ['B', 'A', 'C']] }],
      ['when an agent\'s answer could not be read the round before (no consensus is known)', { answers: [['A', 'A', undefined], ['B', 'A', 'A']] }],
      ['when its own new reply has no readable answer', { answers: [['A', 'A', 'A'], [undefined, 'A', 'A']] }],
    ];
    for (const [when, extra] of staysBenign) it(`stays benign ${when}`, () => assert.equal(leaver(extra).categories[0], 'benign'));
    it('stays benign when not every other agent hears it', () => assert.equal(leaver({}, [[0, 1], [1, 0], [1, 2], [2, 1], [2, 0]]).categories[0], 'benign'));
    it('needs a group: of two agents neither is flagged', () => {
      const r = run([0.1, 0.1], [0, 0], [0, 0], [[0, 1], [1, 0]], { flagConsensusLeavers: true, answers: [['A', 'A'], ['B', 'A']] });
      assert.deepEqual(r.categories, ['benign', 'benign']);
    });
  });

  describe('an agent that has held since round 0 the minority answer a flagged attacker holds (flagAttackerAnswerHolders)', () => {
    // Eight agents on a ring both ways; agent 0 is the head's attacker. Agents 0, 3 and 5 said D in round 0 and never moved,
    // the other five said C; agent 1 moved to D in round 1 (infected by the head, not this rule).
    const ring: [number, number][] = Array.from({ length: 8 }, (_, i): [number, number][] => [[i, (i + 1) % 8], [(i + 1) % 8, i]]).flat();
    const answers = [['D', 'C', 'C', 'D', 'C', 'D', 'C', 'C'], ['D', 'D', 'C', 'D', 'C', 'D', 'C', 'C']];
    const holders = (extra: Partial<ConstraintInput> = {}, pAtk = [0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]) =>
      run(pAtk, pAtk.map(() => 0), pAtk.map(() => 0), ring, { flagAttackerAnswerHolders: true, answers, ...extra });

    it('is an attacker whatever its P_atk, beside the flagged one', () => {
      const r = holders();
      assert.deepEqual([0, 3, 5].map((i) => r.categories[i]), ['attacker', 'attacker', 'attacker']);
      assert.deepEqual([r.rules[0], r.rules[3], r.rules[5]], ['head-attacker', 'held-attacker-answer', 'held-attacker-answer']);
      assert.deepEqual([1, 2, 4, 6, 7].map((i) => r.categories[i]), ['benign', 'benign', 'benign', 'benign', 'benign']);
    });
    it('counts free-form answers and tasks without options alike', () => assert.equal(holders({ multipleChoice: false }).rules[3], 'held-attacker-answer'));
    const staysBenign: [string, Partial<ConstraintInput>, number[]?][] = [
      ['in the reference rules', { flagAttackerAnswerHolders: false }],
      ['in round 0, before any exchange', { firstRound: true, answers: answers.slice(0, 1) }],
      ['when no agent is a flagged attacker', {}, [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]],
      ['when it came to the answer after round 0 (that is moving, read by the infection rules)', { answers: [['D', 'C', 'C', 'C', 'C', 'D', 'C', 'C'], ['D', 'D', 'C', 'D', 'C', 'D', 'C', 'C']] }],
      ['when the flagged attacker itself moved to the answer', { answers: [['C', 'C', 'C', 'D', 'C', 'D', 'C', 'C'], ['D', 'D', 'C', 'D', 'C', 'D', 'C', 'C']] }],
      ['when half the agents or more gave the answer in round 0 (a view of the group, not a push)', { answers: [['D', 'D', 'C', 'D', 'C', 'D', 'C', 'C'], ['D', 'D', 'C', 'D', 'C', 'D', 'C', 'C']] }],
      // A review's: three answers, the flagged agent's as common as any other (it may be the right one).
      ['when no other answer had more agents in round 0', { answers: [['D', 'A', 'B', 'D', 'A', 'D', 'B', 'E'], ['D', 'A', 'B', 'D', 'A', 'D', 'B', 'E']] }],
    ];
    for (const [when, extra, pAtk] of staysBenign) it(`stays benign ${when}`, () => assert.equal(holders(extra, pAtk).categories[3], 'benign'));
  });

  it('an agent both heads flag is an attacker, not infected', () => {
    const r = run([0.9, 0.1], [0.9, 0], [0.5, 0], [[0, 1]]);
    assert.equal(r.categories[0], 'attacker');
    assert.equal(r.rules[0], 'attacker-overrides-infected');
  });

  it('nobody is infected in round 0, before any communication', () => {
    const r = run([0.9, 0.1], [0, 0.9], [0, 0.9], [[0, 1]], { firstRound: true });
    assert.deepEqual(r.categories, ['attacker', 'benign']);
  });

  it('uses d_th 3 where asked (chains)', () => {
    const args: Args = [[0.9, 0.1, 0.1, 0.1, 0.1], [0, 0, 0, 0.8, 0], [0, 0, 0, 0, 0], chain];
    assert.equal(run(...args, { distanceThreshold: 2 }).categories[3], 'benign');
    assert.equal(run(...args, { distanceThreshold: 3, pullInFloor: 0.5 }).categories[3], 'infected');
  });

  it('measures directed hop distance from flagged agents', () => {
    assert.deepEqual(distanceFromFlagged([false, true, false, false], graph(4, [[1, 2], [2, 3], [3, 0]]).outNeighbors), [3, 0, 1, 2]);
    assert.deepEqual(distanceFromFlagged([false, false], graph(2, [[0, 1]]).outNeighbors), [Infinity, Infinity]);
  });
});
