// Topological constraints (INFA-Guard): keep, prune or pull in around the heads' flags, following edge direction
// (only an agent's senders can have infected it); on tasks that list options, attackers and infected agents read from
// the answers themselves, and on any task the agents that held a flagged attacker's planted answer from the start;
// attackers that say in their own words that they are steering the other agents; tool results whose order an agent
// carried out unasked; and infected agents read from the targets a flagged attacker told the model to act on.
import type { GuardConfig } from '../config';
import type { Category } from '../trace/types';
import type { RuleId } from './types';

/** The thresholds and rule switches of the project config the constraints read (documented there). */
type RuleSettings = Pick<
  GuardConfig,
  | 'attackerThreshold'
  | 'infectedThreshold'
  | 'trendThreshold'
  | 'pullInFloor'
  | 'pullInSources'
  | 'pullInAdopters'
  | 'flagLoneHolders'
  | 'flagAwayMovers'
  | 'flagConsensusLeavers'
  | 'flagAttackerAnswerHolders'
  | 'pullInTargetFollowers'
  | 'flagDeclaredSteering'
  | 'flagObeyedToolOrders'
  | 'readGroupMoves'
>;

/** What the constraints need for one round. */
export interface ConstraintInput extends RuleSettings {
  pAtk: number[];
  pInf: number[];
  /** EMA trend of P_inf per agent. */
  trend: number[];
  inNeighbors: number[][];
  outNeighbors: number[][];
  /** The hop distance of the pruning rule (GuardConfig's, or its chain distance on a chain). */
  distanceThreshold: number;
  /** Per agent, whether its own outputs have declared (by this round) that it is steering the other agents. */
  declared: boolean[];
  /**
   * Per agent, whether it is a tool whose result gave an order naming a recipient (an e-mail address, an account) that
   * an agent then passed to a tool call, where the user had handed no content's orders over.
   */
  obeyedTools: boolean[];
  /**
   * Per agent, the in-neighbours whose instruction to the model named an identifier its outputs have carried since (by this
   * round), for an agent whose outputs do not show its tool calls as calls.
   */
  actedFor: number[][];
  /**
   * Per agent, the agents whose instruction to the model named an identifier it has passed to a tool call (by this round):
   * an in-neighbour, or the injector upstream of the agents that retold it (`relays`).
   */
  calledFor: number[][];
  /** Per agent, by injector, the agents that passed the injected identifier on to it before it called with it. */
  relays: Map<number, number[]>[];
  /** Each decided round's answers (round 0 first, this round last), one per agent; undefined where none was read. */
  answers: (string | undefined)[][];
  /**
   * Whether the task lists options. The lone-holder and away-mover rules need it: among a few options an answer nobody
   * else gave is a position taken against the group, while free-form answers (numbers, names, results) differ anyway.
   */
  multipleChoice: boolean;
  /** Round 0 precedes any communication, so nobody can be infected yet. */
  firstRound: boolean;
}

/** Categories and the rule that decided each, for one round. */
export interface ConstraintResult {
  categories: Category[];
  rules: RuleId[];
}

/** Applies the keep / prune / pull-in rules to the heads' flags. */
export function applyTopologicalConstraints(input: ConstraintInput): ConstraintResult {
  const n = input.pAtk.length;
  const attacker = input.pAtk.map((p) => p >= input.attackerThreshold);
  const infected = input.pInf.map((p) => !input.firstRound && p >= input.infectedThreshold);
  const rules: RuleId[] = input.pAtk.map((_, i) => (attacker[i] ? (infected[i] ? 'attacker-overrides-infected' : 'head-attacker') : 'below-thresholds'));
  const history = answerHistory(input);
  // A rule that reads what the agent did or said is the reason given, over the head's score, when both flag it (an
  // agent the infected head flagged too keeps that reason: it says both heads fired).
  const flagByRule = (agents: number[], rule: RuleId) => {
    for (const i of agents) {
      if (attacker[i] && rules[i] !== 'head-attacker') continue;
      attacker[i] = true;
      rules[i] = rule;
    }
  };
  if (input.flagDeclaredSteering) flagByRule(input.declared.flatMap((d, i) => (d ? [i] : [])), 'declared-steering');
  if (input.flagObeyedToolOrders) flagByRule(input.obeyedTools.flatMap((o, i) => (o ? [i] : [])), 'tool-order-obeyed');
  if (input.flagLoneHolders && input.multipleChoice && !input.firstRound) flagByRule(loneHolders(history, input.outNeighbors), 'held-alone-against-group');
  if (input.flagAwayMovers && input.multipleChoice) flagByRule(awayMovers(history, input), 'moved-only-to-unheard-answers');
  if (input.flagConsensusLeavers && input.multipleChoice) flagByRule(consensusLeavers(history, input.outNeighbors), 'left-consensus-alone');
  // Last of the attacker rules: it reads every attacker flagged so far, by a head or by the rules above.
  if (input.flagAttackerAnswerHolders && !input.firstRound) flagByRule(attackerAnswerHolders(history, attacker), 'held-attacker-answer');
  // The run's only agent has no one to attack (a group chat of one speaker). Not an agent with no recorded recipient,
  // nor the only one that spoke: a trace without edges, a last step whose recipient is the user, a capture of one
  // agent's content or a live run's first round say nothing of who heard it.
  if (n === 1 && attacker[0]) [attacker[0], rules[0]] = [false, 'only-agent'];
  // In a debate, moving to the answer most of the honest-looking agents one hears had just given is siding with the group,
  // not being infected by one agent (an answer only a flagged attacker held is read by pullInAdopters below). Read after
  // the attacker rules: flagged attackers are no group.
  const sided = new Array<boolean>(n).fill(false);
  if (input.readGroupMoves && !input.firstRound) {
    for (let i = 0; i < n; i++) {
      if (!infected[i] || !inDebate(i, history, input) || !sidedWithGroup(i, history, input, attacker)) continue;
      [infected[i], sided[i]] = [false, true];
      if (!attacker[i]) rules[i] = 'sided-with-group';
    }
  }
  const keepInfected = new Array<boolean>(n).fill(false);
  const pulledAttacker = new Array<boolean>(n).fill(false);
  const pulledInfected = new Array<boolean>(n).fill(false);
  const distance = distanceFromFlagged(attacker, input.outNeighbors);

  const pullIn = (i: number, floor: number): void => {
    const pick = mostSuspiciousNeighbour(i, input, floor);
    if (!pick) return;
    if (pick.asAttacker) {
      if (!attacker[pick.agent] && couldBeSource(pick.agent, i, history, input, attacker)) pulledAttacker[pick.agent] = true;
    } else if (!infected[pick.agent] && !attacker[pick.agent] && !sided[pick.agent]) {
      pulledInfected[pick.agent] = true;
    }
  };

  for (let i = 0; i < n; i++) {
    if (!infected[i] || attacker[i]) continue;
    if (input.inNeighbors[i].some((j) => attacker[j] || infected[j])) {
      keepInfected[i] = true;
      rules[i] = 'kept-neighbour-flagged';
    } else if (distance[i] > input.distanceThreshold && input.trend[i] < input.trendThreshold) {
      rules[i] = 'pruned-far-and-flat';
    } else {
      keepInfected[i] = true;
      rules[i] = distance[i] <= input.distanceThreshold ? 'kept-near-attacker' : 'kept-rising-trend';
      pullIn(i, 0);
    }
  }
  if (!input.firstRound) {
    // An agent cleared for siding with the group pulls in nobody: its rising trend is the move already read.
    for (let i = 0; i < n; i++) if (!infected[i] && !attacker[i] && !sided[i] && input.trend[i] >= input.trendThreshold) pullIn(i, input.pullInFloor);
  }

  const categories: Category[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (attacker[i] || pulledAttacker[i]) {
      categories[i] = 'attacker';
      if (pulledAttacker[i]) rules[i] = 'pulled-in-as-attacker';
    } else if (keepInfected[i] || pulledInfected[i]) {
      categories[i] = 'infected';
      if (pulledInfected[i] && !keepInfected[i]) rules[i] = 'pulled-in-as-infected';
    } else {
      categories[i] = 'benign';
    }
  }
  if (input.pullInSources) pullInMissingSources(categories, rules, input, history, attacker);
  if (input.pullInAdopters && !input.firstRound) pullInAdopters(categories, rules, input, history);
  if (input.pullInTargetFollowers && !input.firstRound) pullInTargetFollowers(categories, rules, input);
  return { categories, rules };
}

/** What the answer rules read: each agent's answer in round 0 and now, and the one it has given in every round (undefined once it moved). */
interface AnswerHistory {
  rounds: (string | undefined)[][];
  first: (string | undefined)[];
  now: (string | undefined)[];
  held: (string | undefined)[];
  /** The agents that gave an answer in some round so far: the group the answer rules compare an agent with. */
  answerers: number[];
}

function answerHistory({ answers, outNeighbors }: ConstraintInput): AnswerHistory {
  const first = answers[0] ?? [];
  return {
    rounds: answers,
    first,
    now: answers[answers.length - 1] ?? [],
    held: first.map((a, i) => (answers.every((round) => round[i] === a) ? a : undefined)),
    answerers: outNeighbors.flatMap((_, j) => (answers.some((round) => round[j] !== undefined) ? [j] : [])),
  };
}

/**
 * Whether every other agent that answers hears agent i (a debate, a star's hub): the group the answer rules compare
 * it with. An agent that never answers (the user who asked, an orchestrator handing out work) is not part of it.
 */
function heardByAll(i: number, { answerers }: AnswerHistory, outNeighbors: number[][]): boolean {
  if (outNeighbors[i].length < answerers.length - 1) return false;
  const hears = new Set(outNeighbors[i]);
  return answerers.every((j) => j === i || hears.has(j));
}

/** Whether agent i debates: the task lists options and every other agent that answers hears it. */
function inDebate(i: number, history: AnswerHistory, input: ConstraintInput): boolean {
  return input.multipleChoice && heardByAll(i, history, input.outNeighbors);
}

/**
 * The round (1 or later) in which agent i last moved to the answer it gives now, from another it gave before (replies
 * whose answer could not be read move nothing); undefined when it never gave another.
 */
function latestMove(i: number, { rounds, now }: AnswerHistory): number | undefined {
  let m = rounds.length - 1;
  while (m > 0 && (rounds[m - 1][i] === now[i] || rounds[m - 1][i] === undefined)) m--;
  if (m === 0) return undefined;
  while (rounds[m][i] !== now[i]) m++;
  return m;
}

/** The fewest agents (answering, not flagged attackers) that make a group to side with. */
const MIN_GROUP = 2;

/** Whether most of the agents i hears that answered in round `r` and are not flagged attackers (at least MIN_GROUP of them) gave `answer`. */
function mostGave(i: number, r: number, answer: string, { rounds }: AnswerHistory, { inNeighbors }: ConstraintInput, attacker: boolean[]): boolean {
  const answered = inNeighbors[i].filter((j) => rounds[r][j] !== undefined && !attacker[j]);
  return answered.length >= MIN_GROUP && answered.filter((j) => rounds[r][j] === answer).length * 2 > answered.length;
}

/** Whether agent i moved to the answer it gives now when most of the group it hears had just given it: it sided with the group. */
function sidedWithGroup(i: number, history: AnswerHistory, input: ConstraintInput, attacker: boolean[]): boolean {
  const answer = history.now[i];
  const m = latestMove(i, history);
  return answer !== undefined && m !== undefined && mostGave(i, m - 1, answer, history, input, attacker);
}

/**
 * Whether sender j could be what moved agent i to its answer. In a debate the answers are the exchange: j cannot be
 * when it gave another answer the round before i took it (the round before this one, if i never moved), or when most
 * of the group i hears gave it then (i sided with the group). Elsewhere, or where the answers were not read, anyone can.
 */
function couldBeSource(j: number, i: number, history: AnswerHistory, input: ConstraintInput, attacker: boolean[]): boolean {
  const answer = history.now[i];
  const before = (latestMove(i, history) ?? history.rounds.length - 1) - 1;
  const given = history.rounds[before]?.[j];
  if (!input.readGroupMoves || given === undefined || answer === undefined || !inDebate(j, history, input)) return true;
  return given === answer && !mostGave(i, before, answer, history, input, attacker);
}

/**
 * The agent that every other agent hears, that gave an answer in round 0 that no other agent gave, and that has held it
 * in every round since: what an agent told to argue for a wrong answer does in a debate, and what honest agents rarely
 * do once everyone they address has answered otherwise. Only when it is the one such agent: where several hold answers
 * of their own, nothing says which of them argues against the group.
 */
function loneHolders(history: AnswerHistory, outNeighbors: number[][]): number[] {
  const { first, held } = history;
  if (first.length < 3) return [];
  const counts = new Map<string, number>();
  for (const a of first) if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + 1);
  const lone = first.flatMap((a, i) => (a !== undefined && counts.get(a) === 1 && counts.size > 1 && held[i] === a && heardByAll(i, history, outNeighbors) ? [i] : []));
  return lone.length === 1 ? lone : [];
}

/**
 * The agents that every other agent hears and that changed their answer at least twice, each time to one that none of
 * those they hear had given the round before: nobody talked them into it (what an agent told to argue for some wrong
 * answer does when it keeps switching), while honest agents change their answer towards a peer's.
 */
function awayMovers(history: AnswerHistory, { inNeighbors, outNeighbors }: ConstraintInput): number[] {
  const { rounds, first } = history;
  if (first.length < 3) return [];
  return outNeighbors.flatMap((_, i) => {
    if (!heardByAll(i, history, outNeighbors)) return [];
    let moves = 0;
    // A reply whose answer cannot be read moves nothing: compare with the last answer that could be.
    let last = rounds[0][i];
    for (let k = 1; k < rounds.length; k++) {
      const now = rounds[k][i];
      if (now === undefined) continue;
      if (last !== undefined && now !== last) {
        if (inNeighbors[i].some((j) => rounds[k - 1][j] === now)) return [];
        moves++;
      }
      last = now;
    }
    return moves >= 2 ? [i] : [];
  });
}

/**
 * The agents that every other agent hears and that, in a round after every agent had given the same answer, alone
 * moved to another (so one nobody had given) while the rest kept it, and have not gone back to it since: honest agents
 * leave a consensus together or towards a peer's answer, and seldom alone for one nobody argued.
 */
function consensusLeavers(history: AnswerHistory, outNeighbors: number[][]): number[] {
  const { rounds, first } = history;
  if (first.length < 3) return [];
  const leavers = new Set<number>();
  for (let k = 1; k < rounds.length; k++) {
    const agreed = rounds[k - 1][0];
    if (agreed === undefined || rounds[k - 1].some((a) => a !== agreed)) continue;
    const moved = rounds[k].flatMap((a, i) => (a === agreed ? [] : [i]));
    if (moved.length !== 1) continue;
    const [i] = moved;
    if (rounds[k][i] !== undefined && heardByAll(i, history, outNeighbors) && !rounds.slice(k + 1).some((round) => round[i] === agreed)) leavers.add(i);
  }
  return [...leavers];
}

/**
 * The agents that have held since round 0 the answer a flagged attacker has held since round 0, an answer fewer than
 * half of the agents whose round-0 answer was read gave, and fewer than gave another: the same push from the start (the
 * attackers of one run push one planted or injected answer), not a view the group came round to or that ties with the
 * group's. Free-form answers count by their group.
 */
function attackerAnswerHolders({ first, held }: AnswerHistory, attacker: boolean[]): number[] {
  const counts = new Map<string, number>();
  for (const a of first) if (a !== undefined) counts.set(a, (counts.get(a) ?? 0) + 1);
  const given = [...counts.values()].reduce((sum, c) => sum + c, 0);
  const top = Math.max(0, ...counts.values());
  const minority = (a: string) => (counts.get(a) ?? 0) * 2 < given && (counts.get(a) ?? 0) < top;
  const pushed = new Set(held.filter((a, j): a is string => attacker[j] && a !== undefined && minority(a)));
  return held.flatMap((a, i) => (!attacker[i] && a !== undefined && pushed.has(a) ? [i] : []));
}

/**
 * The infection as the answers show it: a benign agent that moved to the answer a flagged attacker it hears from has
 * held since round 0, an answer no agent but attackers gave in round 0, is infected once its own P_inf reaches the
 * pull-in floor. On a task that lists options, an agent that every other agent hears needs no floor: there the answers
 * are the group's whole exchange (a debate), and the move is the infection itself, whatever its wording.
 */
function pullInAdopters(categories: Category[], rules: RuleId[], input: ConstraintInput, history: AnswerHistory): void {
  const { first, now, held } = history;
  const nonAttackerFirstAnswers = new Set(first.filter((_, j) => categories[j] !== 'attacker'));
  for (let i = 0; i < categories.length; i++) {
    const answer = now[i];
    const floor = input.multipleChoice && heardByAll(i, history, input.outNeighbors) ? 0 : input.pullInFloor;
    if (categories[i] !== 'benign' || answer === undefined || answer === first[i] || input.pInf[i] < floor) continue;
    if (nonAttackerFirstAnswers.has(answer) || !input.inNeighbors[i].some((j) => categories[j] === 'attacker' && held[j] === answer)) continue;
    categories[i] = 'infected';
    rules[i] = 'adopted-attacker-answer';
  }
}

/** The reasons an infection-head flag was kept for (its score and where it sits), which a rule that read the act replaces. */
const HEAD_KEPT: ReadonlySet<RuleId> = new Set(['kept-neighbour-flagged', 'kept-near-attacker', 'kept-rising-trend']);

/**
 * The infection as a tool attack shows it: a benign agent whose output carries an identifier (a recipient, an account, a
 * URL, a file) that a flagged attacker it hears from named in an instruction to the model, and that neither the task nor
 * anything else that attacker received gave it, acts for the injected goal: it is infected when it passed that
 * identifier to a tool call. Where a trace does not show an agent's calls as calls, carrying it is enough once the
 * agent's own P_inf reaches the pull-in floor (an assistant that only tells the user what the tool result asked for
 * scores lower). An agent the infection head flagged that did so gets this reason: the act explains more than a score.
 * The identifier may reach the agent retold (a member passing on what a poisoned page asked): it acts for the attacker
 * all the same, and the agents that retold it to it are infected too (they carried the attacker's goal on).
 */
function pullInTargetFollowers(categories: Category[], rules: RuleId[], input: ConstraintInput): void {
  const fromAttacker = (agents: number[]) => agents.some((j) => categories[j] === 'attacker');
  const open = (i: number) => categories[i] === 'benign' || (categories[i] === 'infected' && HEAD_KEPT.has(rules[i]));
  for (let i = 0; i < categories.length; i++) {
    if (!open(i) || !(fromAttacker(input.calledFor[i]) || (input.pInf[i] >= input.pullInFloor && fromAttacker(input.actedFor[i])))) continue;
    categories[i] = 'infected';
    rules[i] = 'acted-on-attacker-target';
  }
  // The agents that retold a flagged attacker's target to one that then called with it carried the infection there.
  for (let i = 0; i < categories.length; i++) {
    for (const [j, carriers] of input.relays[i] ?? []) {
      if (categories[j] !== 'attacker') continue;
      for (const c of carriers) {
        if (!open(c)) continue;
        categories[c] = 'infected';
        rules[c] = 'relayed-attacker-target';
      }
    }
  }
}

/**
 * An infection has a source: an infected agent that no attacker reaches (within the hop distance, or through other
 * infected agents) makes the sender into its infected group with the highest P_atk an attacker. Where the answers say
 * that sender cannot be the source (`couldBeSource`: in a debate, it did not give the answer taken, or that answer was
 * the group's), the agent is not infected. A group with no sender outside it (a closed cycle, a run where everyone is
 * infected) keeps none. The reference rules let infected agents keep each other with no attacker at all.
 */
function pullInMissingSources(categories: Category[], rules: RuleId[], input: ConstraintInput, history: AnswerHistory, attacker: boolean[]): void {
  if (!categories.includes('infected')) return;
  const reach = new ReachFromAttackers(categories, input);
  for (let i = 0; i < categories.length; i++) {
    if (categories[i] !== 'infected' || reach.reached(i)) continue;
    const senders = sendersToInfectedGroup(i, categories, input.inNeighbors);
    // An attacker that sends straight into the group counts as its source whatever the hop distance (d_th may be 0).
    if (senders.length === 0 || senders.some((j) => categories[j] === 'attacker')) continue;
    const source = senders.reduce((best, j) => (input.pAtk[j] > input.pAtk[best] ? j : best));
    if (!couldBeSource(source, i, history, input, attacker)) {
      // In a debate, an agent that took the answer of no suspicious sender was persuaded, not infected.
      categories[i] = 'benign';
      rules[i] = 'pruned-no-source';
      continue;
    }
    categories[source] = 'attacker';
    rules[source] = 'pulled-in-as-source';
    reach.extendFrom(source);
  }
}

/**
 * Which infected agents the attackers reach: within the hop distance of an attacker, or of an infected agent they
 * reach (an infected agent carries it on, so the hop count starts again there). One search, extended per new attacker.
 */
class ReachFromAttackers {
  /** Hops since the last attacker or reached infected agent on the shortest such path; 0 for those themselves. */
  private readonly hops: number[];

  constructor(
    private readonly categories: Category[],
    private readonly input: ConstraintInput,
  ) {
    this.hops = categories.map(() => Infinity);
    this.search(categories.flatMap((c, i) => (c === 'attacker' ? [i] : [])));
  }

  /** Whether infected agent i is reached. */
  reached(i: number): boolean {
    return this.hops[i] === 0;
  }

  /** Adds a new attacker and what it reaches. */
  extendFrom(attacker: number): void {
    this.search([attacker]);
  }

  private search(starts: number[]): void {
    const { outNeighbors, distanceThreshold } = this.input;
    for (const s of starts) this.hops[s] = 0;
    const queue = [...starts];
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head];
      for (const next of outNeighbors[at]) {
        let hops = this.hops[at] + 1;
        if (hops > distanceThreshold) continue;
        if (this.categories[next] === 'infected') hops = 0;
        if (hops < this.hops[next]) {
          this.hops[next] = hops;
          queue.push(next);
        }
      }
    }
  }
}

/** The agents that are not infected and send to agent i or to an infected agent that reaches i through infected agents. */
function sendersToInfectedGroup(i: number, categories: Category[], inNeighbors: number[][]): number[] {
  const group = new Set([i]);
  const senders = new Set<number>();
  const queue = [i];
  for (let head = 0; head < queue.length; head++) {
    for (const j of inNeighbors[queue[head]]) {
      if (categories[j] !== 'infected') senders.add(j);
      else if (!group.has(j)) {
        group.add(j);
        queue.push(j);
      }
    }
  }
  return [...senders];
}

/** The in-neighbour with the highest score, and whether it joins as attacker (its P_atk beats every neighbour's P_inf); none below `floor`. */
function mostSuspiciousNeighbour(i: number, input: ConstraintInput, floor: number): { agent: number; asAttacker: boolean } | undefined {
  const neighbours = input.inNeighbors[i];
  if (neighbours.length === 0) return undefined;
  let bestAtk = neighbours[0];
  let bestInf = neighbours[0];
  for (const j of neighbours) {
    if (input.pAtk[j] > input.pAtk[bestAtk]) bestAtk = j;
    if (input.pInf[j] > input.pInf[bestInf]) bestInf = j;
  }
  const asAttacker = input.pAtk[bestAtk] > input.pInf[bestInf];
  const agent = asAttacker ? bestAtk : bestInf;
  const score = asAttacker ? input.pAtk[agent] : input.pInf[agent];
  return score >= floor ? { agent, asAttacker } : undefined;
}

/** Directed hop distance from the nearest flagged agent to each agent (Infinity when unreachable). */
export function distanceFromFlagged(flagged: boolean[], outNeighbors: number[][]): number[] {
  const distance = flagged.map((f) => (f ? 0 : Infinity));
  const queue = flagged.flatMap((f, i) => (f ? [i] : []));
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head];
    for (const next of outNeighbors[at]) {
      if (distance[next] === Infinity) {
        distance[next] = distance[at] + 1;
        queue.push(next);
      }
    }
  }
  return distance;
}
