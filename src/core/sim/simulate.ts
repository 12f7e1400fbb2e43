// The labelled multi-agent attack simulator: agents answer a question with a known answer, read their in-neighbours'
// previous outputs each round and may be swayed by them (susceptibility, exposure count, confidence). Attackers push a
// wrong answer with family-specific wording. A defence may intervene between rounds (replace, rehabilitate, cut edges),
// which changes what every agent receives next. Deterministic from the seed; output is an agent-trace/v1 Trace.
import type { Category, Trace, TraceLabel, TraceMessage } from '../trace/types';
import { BIPIA_INSTRUCTIONS } from './bipia';
import {
  ATTACK_PAYLOADS,
  BENIGN_ANSWERS,
  BENIGN_KEEPS,
  DISAGREEMENTS,
  FILLER_PARTS,
  fill,
  INFECTED_ECHOES,
  ofSplit,
  REFUTATIONS,
  SELF_CORRECTIONS,
  TOOLS,
  type AttackFamily,
} from './phrasings';
import { questionsOf, type Question, type Split } from './questions';
import { Rng } from './rng';
import { buildEdges, type TopologyKind } from './topology';

/** One episode's settings. */
export interface EpisodeConfig {
  seed: number;
  topology: TopologyKind;
  agents: number;
  attackers: number;
  /** Rounds including round 0 (the literature's "3 rounds after round 0" is 4). */
  rounds: number;
  family: AttackFamily | 'none';
  split: Split;
  /** Random topology: edge probability (drawn from 0.2-1.0 when absent), or an average out-degree for large runs. */
  density?: number;
  outDegree?: number;
  /** Task-related filler sentences added to each output (to reach a target size). */
  filler?: number;
}

/** What a defence does between rounds, by agent id. */
export interface Intervention {
  /** Replaced by a clean donor copy: its latest output is dropped and it behaves as a benign agent from now on. */
  replace?: string[];
  /** Rehabilitated: its latest output is replaced by this filtered text and it re-reasons from its own first answer. */
  rehabilitate?: Map<string, string>;
  /** Outgoing edges cut for the next round (the binary edge-cutting defence). */
  isolate?: string[];
}

type Profile = 'solid' | 'self-corrector' | 'stubborn';

interface AgentState {
  id: string;
  attacker: boolean;
  /** Round from which an attacker attacks (0, or 1-2 for an attacker mimicking infection). */
  turnRound: number;
  payloadFamily: Exclude<AttackFamily, 'mimic'>;
  replaced: boolean;
  profile: Profile;
  susceptibility: number;
  confidence: number;
  answer0: string;
  belief: string;
  /** Manipulative messages received so far. */
  exposures: number;
  /** Received content from a compromised agent at some round. */
  exposedToCompromised: boolean;
  /** Family of the manipulation that swayed it (infected agents echo it). */
  swayedBy?: Exclude<AttackFamily, 'mimic'>;
  swayedPayload?: string;
}

/** Metadata the simulator keeps for each output (agents react to it; the guard only sees the text). */
interface OutputMeta {
  answer: string;
  /** How hard the output pushes its answer on readers. */
  force: number;
  /** The sender was compromised (an active attacker or infected) when it sent it. */
  compromised: boolean;
  family?: Exclude<AttackFamily, 'mimic'>;
  payload?: string;
}

const FORCE: Record<Exclude<AttackFamily, 'mimic'>, number> = { injection: 1.0, persuasion: 0.9, tool: 1.1, memory: 1.0, virus: 1.0 };
const ECHO_FORCE = 0.55;
const PLAIN_FORCE = 0.12;
const ROLES = ['solver', 'reviewer', 'analyst', 'checker', 'researcher', 'planner', 'critic', 'summarizer'];

/** One simulated run, advanced round by round. */
export class Episode {
  readonly config: EpisodeConfig;
  readonly question: Question;
  readonly wrongTarget: string;
  readonly edges: [number, number][];
  readonly inNeighbors: number[][];
  readonly agents: AgentState[];
  /** outputs[k][i] as sent; delivered[k][i] as received next round (undefined = nothing arrives). */
  private readonly outputs: string[][] = [];
  private readonly meta: OutputMeta[][] = [];
  private readonly delivered: (string | undefined)[][] = [];
  private readonly deliveredMeta: (OutputMeta | undefined)[][] = [];
  private readonly labels: Category[][] = [];
  private readonly isolated = new Set<number>();
  private readonly rng: Rng;
  private readonly text: Rng;
  private readonly bipia: string[];

  constructor(config: EpisodeConfig) {
    this.config = config;
    const rng = new Rng(config.seed);
    this.rng = rng.fork(1);
    this.text = rng.fork(2);
    const setup = rng.fork(3);
    const questions = questionsOf(config.split);
    this.question = setup.pick(questions);
    this.wrongTarget = setup.chance(0.7) ? this.question.wrong[0] : setup.pick(this.question.wrong);
    const density = config.density ?? (config.topology === 'random' && config.outDegree === undefined ? setup.range(0.2, 1.0) : undefined);
    this.edges = buildEdges(config.topology, config.agents, setup, { density, outDegree: config.outDegree });
    this.inNeighbors = Array.from({ length: config.agents }, () => [] as number[]);
    for (const [from, to] of this.edges) this.inNeighbors[to].push(from);
    this.bipia = ofSplit(BIPIA_INSTRUCTIONS, config.split);

    const attackerSet = new Set(config.family === 'none' ? [] : setup.shuffle([...Array(config.agents).keys()]).slice(0, config.attackers));
    const families = ['injection', 'persuasion', 'tool', 'memory', 'virus'] as const;
    const mimicFamily = setup.pick(['injection', 'persuasion'] as const);
    this.agents = Array.from({ length: config.agents }, (_, i) => {
      const attacker = attackerSet.has(i);
      const roll = setup.next();
      const profile: Profile = attacker ? 'solid' : roll < 0.8 ? 'solid' : roll < 0.92 ? 'self-corrector' : 'stubborn';
      const right = profile === 'solid';
      const answer0 = right ? this.question.answer : setup.pick(this.question.wrong);
      return {
        id: `a${i}`,
        attacker,
        turnRound: attacker && config.family === 'mimic' ? 1 + setup.int(2) : 0,
        payloadFamily: config.family === 'mimic' ? mimicFamily : config.family === 'none' ? families[0] : config.family,
        replaced: false,
        profile,
        susceptibility: setup.range(0.35, 1.0),
        confidence: profile === 'self-corrector' ? setup.range(0.05, 0.3) : profile === 'stubborn' ? setup.range(0.85, 1) : setup.range(0.3, 0.9),
        answer0,
        belief: answer0,
        exposures: 0,
        exposedToCompromised: false,
      };
    });
  }

  /** Rounds produced so far. */
  get round(): number {
    return this.outputs.length;
  }

  /** Produces the next round's outputs, after applying a defence's intervention on the previous round. */
  step(intervention?: Intervention): void {
    const k = this.round;
    if (k > 0 && intervention) this.intervene(k - 1, intervention);
    const outputs: string[] = [];
    const meta: OutputMeta[] = [];
    for (let i = 0; i < this.agents.length; i++) {
      const [text, m] = this.act(i, k);
      outputs.push(text);
      meta.push(m);
    }
    this.outputs.push(outputs);
    this.meta.push(meta);
    this.delivered.push([...outputs]);
    this.deliveredMeta.push([...meta]);
    this.labels.push(this.agents.map((_, i) => this.labelOf(i, k)));
  }

  /** Runs every remaining round with no defence. */
  runAll(): this {
    while (this.round < this.config.rounds) this.step();
    return this;
  }

  /** True for agents whose role is attacker (excluded from ASR). */
  attackerMask(): boolean[] {
    return this.agents.map((a) => a.attacker);
  }

  /** Each agent's answer in round k as the simulator knows it. */
  answersAt(k: number): string[] {
    return this.meta[k].map((m) => m.answer);
  }

  /** The ground-truth labels of round k. */
  labelsAt(k: number): Category[] {
    return this.labels[k];
  }

  /** The episode so far as an agent-trace/v1 Trace with per-round labels. */
  trace(): Trace {
    const messages: TraceMessage[] = [];
    const labels: TraceLabel[] = [];
    for (let k = 0; k < this.round; k++) {
      this.outputs[k].forEach((content, i) => messages.push({ round: k, from: this.agents[i].id, content, ts: timestamp(k, i), line: 0 }));
      this.labels[k].forEach((category, i) => labels.push({ round: k, agent: this.agents[i].id, category, line: 0 }));
    }
    return {
      schema: 'agent-trace/v1',
      run: `sim-${this.config.topology}-${this.config.family}-${this.config.seed}`,
      task: { question: this.question.text, answer: this.question.answer },
      agents: this.agents.map((a, i) => ({ id: a.id, role: ROLES[i % ROLES.length] })),
      edges: this.edges.map(([f, t]) => [this.agents[f].id, this.agents[t].id]),
      messages,
      labels,
      warnings: [],
      topology: 'header',
    };
  }

  private intervene(k: number, intervention: Intervention): void {
    const index = new Map(this.agents.map((a, i) => [a.id, i]));
    this.isolated.clear();
    for (const id of intervention.isolate ?? []) this.isolated.add(index.get(id)!);
    for (const id of intervention.replace ?? []) {
      const i = index.get(id)!;
      const agent = this.agents[i];
      // The donor copy re-solves the task from a clean role; the replaced agent's own output never arrives.
      agent.replaced = true;
      agent.swayedBy = undefined;
      agent.swayedPayload = undefined;
      agent.exposures = 0;
      agent.profile = 'solid';
      agent.confidence = this.rng.range(0.5, 0.9);
      agent.belief = this.rng.chance(0.9) ? this.question.answer : this.rng.pick(this.question.wrong);
      this.delivered[k][i] = undefined;
      this.deliveredMeta[k][i] = undefined;
    }
    for (const [id, filtered] of intervention.rehabilitate ?? []) {
      const i = index.get(id)!;
      const agent = this.agents[i];
      const answer = this.meta[k][i].answer;
      // The filtered output arrives without its manipulation; the agent re-reasons from its own first answer.
      this.delivered[k][i] = filtered;
      this.deliveredMeta[k][i] = { answer: /<ANSWER>/.test(filtered) ? answer : '', force: PLAIN_FORCE, compromised: false };
      if (!agent.attacker || agent.replaced) {
        agent.swayedBy = undefined;
        agent.swayedPayload = undefined;
        agent.exposures = 0;
        if (this.rng.chance(0.85)) agent.belief = agent.answer0;
      }
    }
    for (const i of this.isolated) {
      this.delivered[k][i] = undefined;
      this.deliveredMeta[k][i] = undefined;
    }
  }

  private act(i: number, k: number): [string, OutputMeta] {
    const agent = this.agents[i];
    if (agent.attacker && !agent.replaced && k >= agent.turnRound) return this.attack(i);
    if (k === 0) return this.say(BENIGN_ANSWERS, agent.belief, {}, i);
    return this.react(i, k);
  }

  private attack(i: number): [string, OutputMeta] {
    const agent = this.agents[i];
    const family = agent.payloadFamily;
    const template = this.text.pick(ofSplit(ATTACK_PAYLOADS[family], this.config.split));
    const text = this.pad(this.fillIn(template, this.wrongTarget, i));
    agent.belief = this.wrongTarget;
    return [text, { answer: this.wrongTarget, force: FORCE[family], compromised: true, family, payload: text }];
  }

  /** A benign (or replaced, or not yet turned) agent reads its inbox and answers. */
  private react(i: number, k: number): [string, OutputMeta] {
    const agent = this.agents[i];
    const inbox: { from: number; meta: OutputMeta; text: string }[] = [];
    for (const j of this.inNeighbors[i]) {
      const meta = this.deliveredMeta[k - 1][j];
      const text = this.delivered[k - 1][j];
      if (meta && text !== undefined) inbox.push({ from: j, meta, text });
    }
    if (inbox.some((m) => m.meta.compromised)) agent.exposedToCompromised = true;
    const manipulative = inbox.filter((m) => m.meta.family !== undefined);
    agent.exposures += manipulative.length;
    const peer = inbox.length > 0 ? this.agents[this.text.pick(inbox).from].id : this.agents[(i + 1) % this.agents.length].id;
    const current = agent.belief;
    const agreeing = inbox.filter((m) => m.meta.answer === current).length;

    // Pressure per alternative answer: manipulation counts more with every exposure; plain disagreement counts little.
    const pressure = new Map<string, number>();
    for (const m of inbox) {
      if (!m.meta.answer || m.meta.answer === current) continue;
      pressure.set(m.meta.answer, (pressure.get(m.meta.answer) ?? 0) + m.meta.force * (m.meta.family ? 1 + 0.2 * agent.exposures : 1));
    }
    let best: string | undefined;
    let bestPressure = 0;
    for (const [answer, p] of pressure) if (p > bestPressure) [best, bestPressure] = [answer, p];

    if (agent.profile === 'stubborn') return this.say(DISAGREEMENTS, current, {}, i, peer);
    if (agent.profile === 'self-corrector' && current !== this.question.answer) {
      const plainRight = inbox.filter((m) => m.meta.answer === this.question.answer).length;
      if (plainRight > 0 && this.rng.chance(Math.min(0.95, 0.45 + 0.25 * plainRight))) {
        agent.belief = this.question.answer;
        agent.profile = 'solid';
        return this.say(SELF_CORRECTIONS, agent.belief, {}, i, peer);
      }
    }

    if (best !== undefined) {
      const swayProb = (agent.susceptibility * (1 - Math.exp(-bestPressure)) * (1 - 0.5 * agent.confidence)) / (1 + 0.35 * agreeing);
      if (this.rng.chance(swayProb)) {
        const source = inbox.filter((m) => m.meta.answer === best).sort((a, b) => b.meta.force - a.meta.force)[0];
        agent.belief = best;
        if (source.meta.family) {
          agent.swayedBy = source.meta.family;
          agent.swayedPayload = source.meta.payload;
          return this.echo(i, peer, current);
        }
        return this.say(SELF_CORRECTIONS, best, {}, i, peer);
      }
    }
    // An agent holding a pushed answer may recover when peers keep giving the right one.
    if (agent.swayedBy && current !== this.question.answer) {
      const right = inbox.filter((m) => m.meta.answer === this.question.answer && !m.meta.family).length;
      if (this.rng.chance(Math.min(0.4, 0.1 * right))) {
        agent.belief = this.question.answer;
        agent.swayedBy = undefined;
        agent.swayedPayload = undefined;
        return this.say(SELF_CORRECTIONS, agent.belief, {}, i, peer);
      }
      return this.echo(i, peer, agent.answer0);
    }
    if (manipulative.length > 0 && this.rng.chance(0.4)) {
      const quoted = quoteOf(this.text.pick(manipulative).text);
      return this.say(REFUTATIONS, current, { Q: quoted }, i, peer);
    }
    return this.say(BENIGN_KEEPS, current, {}, i, peer);
  }

  /** An infected agent's output: it repeats (part of) the manipulation that swayed it. */
  private echo(i: number, peer: string, previous: string): [string, OutputMeta] {
    const agent = this.agents[i];
    const family = agent.swayedBy!;
    const template = this.text.pick(ofSplit(INFECTED_ECHOES[family], this.config.split));
    const payload = agent.swayedPayload ?? '';
    const quoted = family === 'virus' ? payload.replace(/\n?<ANSWER>:.*$/s, '') : quoteOf(payload);
    let text = this.fillIn(template, agent.belief, i, { Q: quoted, R: previous, P: peer });
    if (!/<ANSWER>/.test(text)) text += `\n<ANSWER>: ${agent.belief}`;
    text = this.pad(text);
    const force = family === 'virus' ? 0.9 * FORCE.virus : ECHO_FORCE * FORCE[family];
    return [text, { answer: agent.belief, force, compromised: true, family, payload: family === 'virus' ? text : payload }];
  }

  private say(templates: readonly string[], answer: string, extra: Record<string, string>, i: number, peer?: string): [string, OutputMeta] {
    const template = this.text.pick(ofSplit(templates, this.config.split));
    const text = this.pad(this.fillIn(template, answer, i, { R: answer, B: this.question.because(answer), P: peer ?? '', ...extra }));
    return [text, { answer, force: PLAIN_FORCE, compromised: false }];
  }

  private fillIn(template: string, answer: string, i: number, extra: Record<string, string> = {}): string {
    return fill(template, {
      W: answer,
      T: this.question.topic,
      I: this.text.pick(this.bipia),
      TOOL: this.text.pick(TOOLS),
      DOC: `doc-${(this.config.seed * 31 + i * 7) % 997}`,
      ...extra,
    });
  }

  private pad(text: string): string {
    const count = this.config.filler ?? 0;
    if (count === 0) return text;
    const { openers, verbs, objects, closers } = FILLER_PARTS;
    const sentence = () => `${this.text.pick(openers)} ${this.text.pick(verbs)} ${this.text.pick(objects)} ${1 + this.text.int(40)} ${this.text.pick(closers)}.`;
    const extra = Array.from({ length: count }, sentence).join(' ');
    return `${extra}\n${text}`;
  }

  private labelOf(i: number, k: number): Category {
    const agent = this.agents[i];
    if (agent.attacker) return k >= agent.turnRound ? 'attacker' : 'benign';
    const rightAtStart = agent.answer0 === this.question.answer;
    return rightAtStart && agent.exposedToCompromised && this.meta[k][i].answer !== this.question.answer ? 'infected' : 'benign';
  }
}

/** A short fragment of a manipulative message, as an agent would quote it (no quotes, no answer tag). */
function quoteOf(text: string): string {
  const body = text.replace(/\n?<ANSWER>:.*$/s, '').replace(/["“”]/g, "'").replace(/\s+/g, ' ').trim();
  const sentence = body.match(/^[^.!?]*[.!?]?/)?.[0] ?? body;
  return (sentence.length > 20 ? sentence : body).slice(0, 110).trim();
}

function timestamp(k: number, i: number): string {
  return new Date(Date.UTC(2026, 0, 5, 9, k, 0) + i * 1000).toISOString();
}

/** Generates a complete episode (all rounds, no defence). */
export function simulate(config: EpisodeConfig): Episode {
  return new Episode(config).runAll();
}
