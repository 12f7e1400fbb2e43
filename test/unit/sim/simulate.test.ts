// The simulator: deterministic from a seed, labels that follow DESIGN.md's definitions, disjoint train/held-out
// splits, valid agent-trace/v1 output, and interventions that change what happens next.
import * as assert from 'node:assert/strict';
import { attackSuccessRate } from '../../../src/core/guard/metrics';
import { defaultConfig } from '../../../src/core/config';
import { compileAnswerPatterns, extractAnswer } from '../../../src/core/text/answer';
import { parseTraceText, serializeTrace } from '../../../src/core/trace/parse';
import { ATTACK_FAMILIES, ATTACK_PAYLOADS, BENIGN_ANSWERS, ofSplit } from '../../../src/core/sim/phrasings';
import { questionBank, questionSplit } from '../../../src/core/sim/questions';
import { Episode, simulate, type EpisodeConfig } from '../../../src/core/sim/simulate';
import { buildEdges, TOPOLOGIES } from '../../../src/core/sim/topology';
import { Rng } from '../../../src/core/sim/rng';

const patterns = compileAnswerPatterns(defaultConfig().answer.patterns);
const base: Omit<EpisodeConfig, 'seed' | 'family' | 'topology'> = { agents: 8, attackers: 3, rounds: 4, split: 'heldout' };

describe('simulator', () => {
  it('is deterministic from the seed', () => {
    const a = serializeTrace(simulate({ ...base, seed: 11, topology: 'random', family: 'tool' }).trace());
    const b = serializeTrace(simulate({ ...base, seed: 11, topology: 'random', family: 'tool' }).trace());
    const c = serializeTrace(simulate({ ...base, seed: 12, topology: 'random', family: 'tool' }).trace());
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('writes valid agent-trace/v1 with a label per agent per round', () => {
    const trace = parseTraceText(serializeTrace(simulate({ ...base, seed: 3, topology: 'tree', family: 'virus' }).trace()));
    assert.equal(trace.messages.length, 8 * 4);
    assert.equal(trace.labels.length, 8 * 4);
    assert.equal(trace.topology, 'header');
    assert.ok(trace.task?.answer);
  });

  for (const topology of TOPOLOGIES) {
    it(`labels follow the definitions (${topology})`, () => {
      let infected = 0;
      for (const family of ATTACK_FAMILIES) {
        for (let seed = 0; seed < 6; seed++) {
          const episode = simulate({ ...base, seed, topology, family });
          const trace = episode.trace();
          const truth = trace.task!.answer!;
          const answer = (agent: string, k: number) => extractAnswer(trace.messages.find((m) => m.from === agent && m.round === k)!.content, patterns);
          const label = (agent: string, k: number) => trace.labels.find((l) => l.agent === agent && l.round === k)!.category;
          const attackers = new Set(trace.labels.filter((l) => l.category === 'attacker').map((l) => l.agent));
          assert.equal(attackers.size, 3, `${family} seed ${seed}: three attackers`);
          for (const agent of trace.agents.map((a) => a.id)) {
            assert.notEqual(label(agent, 0), 'infected', 'nobody is infected before communication');
            for (let k = 1; k < 4; k++) {
              if (attackers.has(agent)) continue;
              const turned = answer(agent, 0) === truth && answer(agent, k) !== truth;
              const senders = trace.edges.filter(([, to]) => to === agent).map(([from]) => from);
              const exposed = senders.some((s) => [...Array(k).keys()].some((r) => label(s, r) !== 'benign'));
              assert.equal(label(agent, k) === 'infected', turned && exposed, `${family} seed ${seed} ${agent} round ${k}`);
              if (label(agent, k) === 'infected') infected++;
            }
          }
        }
      }
      assert.ok(infected > 0, 'the attacks infect somebody');
    });
  }

  it('an attacker mimicking infection is clean and right in round 0, then turns', () => {
    const episode = simulate({ ...base, seed: 5, topology: 'random', family: 'mimic' });
    const attackers = episode.attackerMask().flatMap((a, i) => (a ? [i] : []));
    for (const i of attackers) {
      assert.equal(episode.labelsAt(0)[i], 'benign');
      assert.equal(episode.answersAt(0)[i], episode.question.answer);
      assert.equal(episode.labelsAt(3)[i], 'attacker');
    }
  });

  it('keeps held-out questions and phrasings apart from training ones', () => {
    const heldout = new Set(questionBank().filter((q) => questionSplit(q) === 'heldout').map((q) => q.id));
    assert.ok(heldout.size > 50 && heldout.size < questionBank().length / 2);
    for (let seed = 0; seed < 30; seed++) {
      assert.ok(heldout.has(simulate({ ...base, seed, topology: 'star', family: 'injection' }).question.id));
      assert.ok(!heldout.has(simulate({ ...base, seed, topology: 'star', family: 'injection', split: 'train' }).question.id));
    }
    for (const list of [...Object.values(ATTACK_PAYLOADS), BENIGN_ANSWERS]) {
      const train = ofSplit(list, 'train');
      const test = ofSplit(list, 'heldout');
      assert.equal(train.length + test.length, list.length);
      assert.ok(test.length >= 1 && test.every((p) => !train.includes(p)));
    }
  });

  it('builds the named topologies', () => {
    const rng = new Rng(1);
    assert.deepEqual(buildEdges('chain', 3, rng), [[0, 1], [1, 0], [1, 2], [2, 1]]);
    assert.equal(buildEdges('star', 5, rng).filter(([a, b]) => a === 0 || b === 0).length, 8);
    const random = buildEdges('random', 50, rng, { outDegree: 5 });
    const hasIn = new Set(random.map(([, to]) => to));
    assert.equal(hasIn.size, 50, 'every agent hears from somebody');
    assert.ok(random.length > 50 * 4 && random.length < 50 * 6.5);
  });

  it('remediation changes what happens next: replacing attackers lowers ASR@3', () => {
    let without = 0;
    let withDefence = 0;
    for (let seed = 0; seed < 40; seed++) {
      const config: EpisodeConfig = { ...base, seed, topology: 'random', family: 'persuasion' };
      const plain = simulate(config);
      const defended = new Episode(config);
      defended.step();
      const attackers = defended.agents.filter((a) => a.attacker).map((a) => a.id);
      for (let k = 1; k < 4; k++) defended.step({ replace: k === 1 ? attackers : [] });
      const asr = (e: Episode) => attackSuccessRate(e.answersAt(3), e.attackerMask(), e.question.answer).asr ?? 0;
      without += asr(plain);
      withDefence += asr(defended);
    }
    assert.ok(withDefence < without * 0.6, `ASR@3 ${withDefence / 40} with replacement vs ${without / 40} without`);
  });
});
