// Wording of the guard's results: why a rule decided an agent's category, why the filter removed a span, and the
// readable report of an analysis (the CLI's output, the editor's log): a per-round table, then sources, paths,
// remediation, evaluation and propagation alerts; and the editor's texts of Analyze Trace and its graph panel.
import { formatAlerts } from '../monitor/messages';
import { poolEvaluations } from './metrics';
import type { Category } from '../trace/types';
import type { Analysis, ClassScores, Evaluation, RemediationStep, RemovedSpan, RuleId } from './types';
import { inline, middleCut } from '../text/printable';

/** One-line explanation of the rule (topological, or read from the answers) that decided an agent's category. */
export const RULE_TEXT: Record<RuleId, string> = {
  'head-attacker': 'P_atk above threshold: the attacker head fired',
  'head-infected': 'P_inf above threshold: the infection head fired',
  'held-alone-against-group': 'attacker: everyone hears it, and it has held every round a round-0 answer that no other agent gave',
  'moved-only-to-unheard-answers': 'attacker: everyone hears it, and it changed its answer at least twice, each time to one none of those it hears had given',
  'left-consensus-alone': 'attacker: everyone hears it, and it alone left an answer every agent had given, for one nobody had given, and has not gone back',
  'held-attacker-answer': 'attacker: it has held since round 0 the answer a flagged attacker has held since round 0, one that fewer than half the agents gave then, and fewer than gave another',
  'declared-steering': 'attacker: it says in its own words that it is steering the other agents (towards a wrong answer, or to the answer it was given)',
  'tool-order-obeyed': 'attacker: a tool result that gave an order naming a recipient (an e-mail address, an account) nobody had given it, which an agent then carried out by a tool call; the user had not asked for orders found in content to be followed',
  'kept-neighbour-flagged': 'infected: the infection head fired and a neighbour is a flagged attacker or infected agent',
  'kept-near-attacker': 'infected: the infection head fired within the hop distance of a flagged attacker',
  'kept-rising-trend': 'infected: the infection head fired and its infection trend is rising',
  'pruned-far-and-flat': 'pruned: far from every attacker and its trend is flat (false positive)',
  'only-agent': 'not an attacker: the attacker head fired, but it is the run\'s only agent (there is no one for it to attack)',
  'pruned-no-source': 'not infected: everyone hears it, and its most suspicious sender did not give the answer it took before it took it, or that answer was the group\'s (no source)',
  'sided-with-group': 'not infected: the infection head fired, but everyone hears it and it moved to the answer most of those it hears had just given (it sided with the group)',
  'pulled-in-as-attacker': 'pulled in as attacker: the most suspicious neighbour of an infected agent',
  'pulled-in-as-infected': 'pulled in as infected: the most suspicious neighbour of an infected agent',
  'pulled-in-as-source': 'pulled in as attacker: the most suspicious sender into infected agents that no attacker reaches',
  'adopted-attacker-answer': 'pulled in as infected: it moved to the answer a flagged attacker it hears from has held since round 0, one that only flagged attackers gave in round 0',
  'acted-on-attacker-target': 'infected: it acted on a target (account, address, URL, file) that a flagged attacker named in an order (one to the model, or any in a tool result; to it, or to an agent that passed it on)',
  'relayed-attacker-target': 'infected: it passed on a target (account, address, URL, file) that a flagged attacker named in an instruction to the model, and an agent it told then acted on it',
  'trend-jump-pull': 'its infection trend jumped, so its most suspicious neighbour was pulled in',
  'attacker-overrides-infected': 'flagged both ways: attacker takes precedence over infected',
  'below-thresholds': 'both heads below threshold',
};

/** The rules that leave benign an agent a head flagged: the report says why, since its score says otherwise. */
const CLEARING_RULES: ReadonlySet<RuleId> = new Set(['pruned-far-and-flat', 'sided-with-group', 'pruned-no-source', 'only-agent']);

/** The rules decided by the answers an agent gave round by round: the report lists those answers beside them. */
const ANSWER_RULES: ReadonlySet<RuleId> = new Set(['held-alone-against-group', 'moved-only-to-unheard-answers', 'left-consensus-alone', 'held-attacker-answer', 'adopted-attacker-answer', 'sided-with-group']);

/** The rules that read an answer a flagged attacker held: the report names those attackers. */
const ATTACKER_ANSWER_RULES: ReadonlySet<RuleId> = new Set(['held-attacker-answer', 'adopted-attacker-answer']);

/** The heads' reasons: where the agent gave answers, the report lists them too, as what the scores read beside its words. */
const HEAD_RULES: ReadonlySet<RuleId> = new Set(['head-attacker', 'head-infected', 'attacker-overrides-infected', 'kept-neighbour-flagged', 'kept-near-attacker', 'kept-rising-trend']);

/**
 * The report's words on an agent's answers, for a rule decided by them (the answers by round, and whose they are), or
 * for a head's flag on an agent that gave any.
 */
function answerWords(analysis: Analysis, id: string, rule: RuleId): string {
  if (HEAD_RULES.has(rule)) return analysis.rounds.some((r) => r.agents[id]?.answer !== undefined) ? `; its answers by round: ${answersByRound(analysis, id)}` : '';
  if (!ANSWER_RULES.has(rule)) return '';
  const holders = ATTACKER_ANSWER_RULES.has(rule) ? attackersHolding(analysis, id) : [];
  const held = holders.length === 0 ? '' : `; ${holders.map(inline).join(', ')} (flagged ${holders.length === 1 ? 'attacker) has' : 'attackers) have'} held ${inline(oneLine(analysis.rounds.at(-1)!.agents[id].answer!, 24))} since round 0`;
  return `; its answers by round: ${answersByRound(analysis, id)}${held}`;
}

/** The agents flagged attacker in the last round that gave, in every round, the answer `id` gives in it. */
function attackersHolding(analysis: Analysis, id: string): string[] {
  const last = analysis.rounds.at(-1);
  const answer = last?.agents[id]?.answer;
  if (!last || answer === undefined) return [];
  return analysis.agents.flatMap(({ id: other }) =>
    other !== id && last.agents[other].category === 'attacker' && analysis.rounds.every((r) => r.agents[other]?.answer === answer) ? [other] : [],
  );
}

/**
 * An agent's answers in rounds 0..last, as the answer rules read them ("?" where none could be read); past
 * COMPACT_AFTER rounds, each stretch of one answer once with its rounds ("C (rounds 0-24)").
 */
function answersByRound(analysis: Analysis, id: string): string {
  const answers = analysis.rounds.map((r) => inline(oneLine(r.agents[id]?.answer ?? '?', 24)));
  if (answers.length <= COMPACT_AFTER) return answers.join(', ');
  const stretches: string[] = [];
  for (let start = 0, k = 1; k <= answers.length; k++) {
    if (k < answers.length && answers[k] === answers[start]) continue;
    stretches.push(`${answers[start]} (${k - 1 === start ? `round ${start}` : `rounds ${start}-${k - 1}`})`);
    start = k;
  }
  return stretches.join(', ');
}

/** Why the filter removes a span. */
export const REASON_TEXT: Record<RemovedSpan['reason'], string> = {
  'injected-instruction': 'injected instruction',
  'propagation-request': 'asks to be passed on',
  persuasion: 'persuasion aimed at peers',
  llm: 'removed by the LLM filter',
};

const LABEL = { benign: 'benign', attacker: 'ATTACKER', infected: 'infected' } as const;
const MARK = { benign: '.', attacker: 'A', infected: 'i' } as const;

/** Rounds past which the table shows one character per round. */
const COMPACT_AFTER = 12;

/** Marks in groups of ten, a space between groups. */
function tens(marks: string[]): string {
  const groups: string[] = [];
  for (let i = 0; i < marks.length; i += 10) groups.push(marks.slice(i, i + 10).join(''));
  return groups.join(' ');
}

/** The readable report of an analysis (plain text, no colours; agent ids, names and warnings escaped to one line each). */
export function formatAnalysisText(analysis: Analysis): string {
  const out: string[] = [];
  const rounds = analysis.rounds.length;
  const attackers = analysis.agents.filter((a) => a.category === 'attacker').length;
  const infected = analysis.agents.filter((a) => a.category === 'infected').length;
  const where = [analysis.source, analysis.run !== undefined && analysis.run !== analysis.source ? `run ${analysis.run}` : undefined].filter((part) => part !== undefined);
  out.push(`${inline(where.join(', ') || 'trace')}: ${analysis.agents.length} agents, ${rounds} rounds, scorer ${analysis.scorer}, filter ${analysis.filter}`);
  if (analysis.llm) {
    const l = analysis.llm;
    out.push(`LLM ${l.model}: ${l.calls} call(s), ${l.cacheHits} from cache, ${l.promptTokens + l.completionTokens} tokens${l.partial ? '; PARTIAL: some parts used the embedded default' : ''}`);
  }
  if (analysis.task?.question) out.push(`Task: ${oneLine(analysis.task.question, 100)}${analysis.task.answer !== undefined ? `  (answer ${analysis.task.answer})` : ''}`);
  out.push('');

  // An id past AGENT_ID_WIDTH is cut in the middle in the table (the lines below it name agents whole).
  const idWidth = Math.min(AGENT_ID_WIDTH, Math.max(5, ...analysis.agents.map((a) => inline(a.id).length)));
  const roleWidth = Math.min(18, Math.max(4, ...analysis.agents.map((a) => (a.role ?? '').length)));
  // A long run (a group chat of a hundred rounds) gets one character per round, in groups of ten, not a word each.
  const compact = rounds > COMPACT_AFTER;
  const legend = `rounds 0-${rounds - 1} (. benign, A attacker, i infected)`;
  const marksWidth = Math.max(legend.length, rounds + Math.floor((rounds - 1) / 10));
  const header = ['agent'.padEnd(idWidth), 'role'.padEnd(roleWidth), ...(compact ? [legend.padEnd(marksWidth)] : analysis.rounds.map((r) => `r${r.round}`.padEnd(9))), 'P_atk', ' P_inf'];
  out.push(header.join('  ').trimEnd());
  for (const agent of analysis.agents) {
    const categories = analysis.rounds.map((r) => r.agents[agent.id].category);
    const cells = compact ? [tens(categories.map((c) => MARK[c])).padEnd(marksWidth)] : categories.map((c) => LABEL[c].padEnd(9));
    out.push([middleCut(inline(agent.id), idWidth).padEnd(idWidth), oneLine(agent.role ?? '', roleWidth).padEnd(roleWidth), ...cells, agent.pAtk.toFixed(2).padStart(5), agent.pInf.toFixed(2).padStart(6)].join('  '));
  }
  // ASR is the share of agents answering wrong; in a run with no attacker (none labelled, none found in any round)
  // that is the agents' own error, no attack's success, and is said so.
  const flaggedAttack = analysis.rounds.some((r) => Object.values(r.agents).some((a) => a.category === 'attacker'));
  const attacked = (analysis.evaluation?.attacker.support ?? 0) > 0 || flaggedAttack;
  if (analysis.rounds.some((r) => r.asr !== null) && !compact) {
    const asr = analysis.rounds.map((r) => (r.asr === null ? '-' : `${(r.asr * 100).toFixed(0)}%`).padEnd(9));
    out.push([(attacked ? 'ASR' : 'wrong').padEnd(idWidth), ''.padEnd(roleWidth), ...asr].join('  ').trimEnd());
  }
  out.push('');
  // An attack flagged only in earlier rounds is still one; with no attacker left in the verdict, the line says where it was.
  const earlierAttack = attackers === 0 && flaggedAttack ? ' (an attacker was flagged in an earlier round)' : '';
  const majority = analysis.mdsr === null ? earlierAttack : attacked ? `; majority ${analysis.mdsr ? 'defended' : 'NOT defended'} at the last round${earlierAttack}` : `; no attacker, and the majority ${analysis.mdsr ? 'right' : 'wrong'} at the last round`;
  out.push(`Verdict: ${attackers} attacker(s), ${infected} infected, ${analysis.agents.length - attackers - infected} benign${majority}`);
  const last = analysis.rounds[rounds - 1];
  const flagged = last ? analysis.agents.filter((a) => last.agents[a.id].category !== 'benign') : [];
  if (flagged.length) {
    out.push(`Why (round ${last.round}):`);
    for (const agent of flagged) {
      const { rule, evidence } = last.agents[agent.id];
      const quoted = evidence !== undefined ? `; round ${evidence.round}: "${inline(evidence.text)}"` : '';
      out.push(`  ${inline(agent.id)}: ${RULE_TEXT[rule]}${quoted}${evidence === undefined ? earlierEvidence(analysis, agent.id) : ''}${answerWords(analysis, agent.id, rule)}`);
    }
  }
  const cleared = last ? analysis.agents.filter((a) => CLEARING_RULES.has(last.agents[a.id].rule)) : [];
  if (cleared.length) {
    out.push(`Flag cleared by a rule (round ${last.round}):`);
    for (const agent of cleared) {
      const { rule } = last.agents[agent.id];
      out.push(`  ${inline(agent.id)}: ${RULE_TEXT[rule]}${answerWords(analysis, agent.id, rule)}`);
    }
  }
  const earlier = flaggedEarlier(analysis);
  if (earlier.length) out.push(`Flagged in earlier rounds, benign in the last: ${earlier.join(', ')}`, ...earlierReasons(analysis));
  if (analysis.sources.length) out.push(`Sources: ${analysis.sources.map(inline).join(', ')}`);
  if (analysis.infectionPaths.length) {
    out.push('Infection paths:');
    for (const path of analysis.infectionPaths) out.push(`  ${path.map(inline).join(' -> ')}`);
  }
  if (analysis.remediation.length) {
    out.push('Remediation:');
    for (const step of analysis.remediation) {
      out.push(`  ${inline(step.agent)}: ${remediationSummary(step, inline)} — ${inline(step.reason)}`);
    }
  }
  if (analysis.evaluation) out.push(`Against labels: ${evaluationText(analysis.evaluation)}`);
  out.push(...formatAlerts((analysis.alerts ?? []).map((alert) => ({ alert }))));
  for (const warning of analysis.warnings) out.push(`warning: ${inline(warningText(warning))}`);
  return out.join('\n') + '\n';
}

/** The latest words an agent was flagged on in an earlier round (a declaration the last round's rule does not carry). */
function earlierEvidence(analysis: Analysis, id: string): string {
  for (let k = analysis.rounds.length - 2; k >= 0; k--) {
    const { rule, evidence } = analysis.rounds[k].agents[id];
    if (evidence) return `; earlier, round ${evidence.round}: ${RULE_TEXT[rule]}: "${inline(evidence.text)}"`;
  }
  return '';
}

/** Agents flagged in some round but benign in the last, with the rounds and what they were flagged as. */
function flaggedEarlier(analysis: Analysis): string[] {
  return earlierFlags(analysis).map(({ id, flags }) => `${inline(id)} (${flags.join(', ')})`);
}

/** Why each agent flagged only in earlier rounds was flagged, in the latest such round: the rule and the words it read. */
function earlierReasons(analysis: Analysis): string[] {
  return earlierFlags(analysis).map(({ id, latest }) => {
    const { rule, evidence } = analysis.rounds[latest].agents[id];
    const quoted = evidence !== undefined ? `; round ${evidence.round}: "${inline(evidence.text)}"` : '';
    return `  ${inline(id)}, round ${analysis.rounds[latest].round}: ${RULE_TEXT[rule]}${quoted}`;
  });
}

/**
 * The agents benign in the last round that an earlier round flagged, with those flags (`infected in round 1`) and the
 * index of the latest round that flagged them.
 */
function earlierFlags(analysis: Analysis): { id: string; flags: string[]; latest: number }[] {
  const last = analysis.rounds.at(-1);
  if (!last) return [];
  return analysis.agents.flatMap((agent) => {
    if (last.agents[agent.id].category !== 'benign') return [];
    const flagged = analysis.rounds.flatMap((r, index) => (r.agents[agent.id].category !== 'benign' ? [index] : []));
    const flags = flagged.map((index) => `${analysis.rounds[index].agents[agent.id].category} in round ${analysis.rounds[index].round}`);
    return flagged.length ? [{ id: agent.id, flags, latest: flagged[flagged.length - 1] }] : [];
  });
}

/** A warning as one line: its trace line when it has one (0: the whole run), then its words. */
export function warningText(warning: { line: number; message: string }): string {
  return `${warning.line ? `line ${warning.line}: ` : ''}${warning.message}`;
}

function evaluationText(e: Evaluation): string {
  const pct = (v: number | null) => (v === null ? '—' : v.toFixed(2));
  const scores = (s: ClassScores) => unmeasured(s) ?? `P ${pct(s.precision)} R ${pct(s.recall)} F1 ${pct(s.f1)}`;
  return `attacker ${scores(e.attacker)}; infected ${scores(e.infected)}; benign FPR ${pct(e.benignFalsePositiveRate)}`;
}

/** A class the labels hold no agent of has no recall or F1: says so (and how many agents were flagged as it anyway). */
export function unmeasured(s: ClassScores): string | undefined {
  if (s.support > 0) return undefined;
  return s.fp === 0 ? 'none labelled or found' : `none labelled, ${s.fp} flagged`;
}

/** What the report of a file's runs (`analyze --all`) keeps of each run's analysis. */
export interface RunSummary {
  run: string;
  agents: number;
  rounds: number;
  attackers: string[];
  infected: string[];
  /** Agents benign in the last round that an earlier round flagged. */
  flaggedEarlier: string[];
  evaluation?: Evaluation;
  warnings: string[];
}

/** The part of one run's analysis the report of a file's runs shows. */
export function summarizeRun(analysis: Analysis, index: number): RunSummary {
  const ids = (category: Category) => analysis.agents.filter((a) => a.category === category).map((a) => a.id);
  return {
    run: analysis.run ?? `run ${index}`,
    agents: analysis.agents.length,
    rounds: analysis.rounds.length,
    attackers: ids('attacker'),
    infected: ids('infected'),
    flaggedEarlier: earlierFlags(analysis).map(({ id }) => id),
    evaluation: analysis.evaluation,
    warnings: analysis.warnings.map(warningText),
  };
}

/** The widest agent id shown in the table of a run's agents. */
const AGENT_ID_WIDTH = 40;

/** The widest run id shown in the report of a file's runs. */
const RUN_ID_WIDTH = 56;

/** The readable report of every run of a file: one line per run, how many were attacked, and the figures pooled over the labelled ones. */
export function formatRunsText(source: string, runs: readonly RunSummary[]): string {
  const few = (ids: string[]) => (ids.length <= 4 ? ids : [...ids.slice(0, 4), `… (${ids.length - 4} more)`]).map((id) => inline(id)).join(', ');
  // Run ids that share a folder ("gpt-4o/banking/user_task_8/…") are shown without it, so the part that tells them
  // apart is not what the column cuts.
  const shared = sharedFolder(runs.map((r) => r.run));
  const shown = (r: RunSummary) => inline(r.run.slice(shared.length));
  const width = Math.min(RUN_ID_WIDTH, Math.max(3, ...runs.map((r) => shown(r).length)));
  const indexWidth = String(runs.length - 1).length + 1;
  const out = [`${inline(source)}: ${runs.length} run(s)${shared ? ` in ${inline(shared)}` : ''}; #N is the run's --episode N`, ''];
  runs.forEach((r, i) => {
    const found = [r.attackers.length ? `attackers ${few(r.attackers)}` : '', r.infected.length ? `infected ${few(r.infected)}` : ''].filter(Boolean);
    const clean = r.flaggedEarlier.length ? `clean in the last round (flagged earlier: ${few(r.flaggedEarlier)})` : 'clean';
    out.push(`${`#${i}`.padStart(indexWidth)}  ${middleCut(shown(r), width).padEnd(width)}  ${String(r.agents).padStart(4)} agents  ${String(r.rounds).padStart(3)} rounds  ${found.length ? found.join('; ') : clean}`);
  });
  const attacked = runs.filter((r) => r.attackers.length + r.infected.length > 0).length;
  out.push('', `Attacked: ${attacked} of ${runs.length} run(s) (attackers found in ${runs.filter((r) => r.attackers.length).length}, infected agents in ${runs.filter((r) => r.infected.length).length})`);
  const labelled = runs.flatMap((r) => (r.evaluation ? [r.evaluation] : []));
  if (labelled.length) out.push(`Against labels, pooled over ${labelled.length} labelled run(s): ${evaluationText(poolEvaluations(labelled))}`);
  out.push(...groupedWarnings(runs));
  return out.join('\n') + '\n';
}

/** The folder every run id starts with ("gpt-4o/banking/"), up to its last slash; empty when they share none, or for one run. */
function sharedFolder(ids: readonly string[]): string {
  if (ids.length < 2) return '';
  const first = ids[0];
  let length = first.length;
  for (const id of ids) {
    let k = 0;
    while (k < length && id[k] === first[k]) k++;
    length = k;
  }
  return length === 0 ? '' : first.slice(0, first.lastIndexOf('/', length - 1) + 1);
}

/**
 * The runs' warnings, a warning that recurs in other runs (the same words, other numbers: "episode 7 has no …") shown
 * once with how many more runs have it, so a file of a thousand runs does not print a thousand copies.
 */
function groupedWarnings(runs: readonly RunSummary[]): string[] {
  const groups = new Map<string, { first: string; more: number }>();
  for (const r of runs) {
    for (const warning of r.warnings) {
      const key = warning.replace(/\d+/g, '#');
      const group = groups.get(key);
      if (group) group.more++;
      else groups.set(key, { first: `warning: ${inline(r.run)}: ${inline(warning)}`, more: 0 });
    }
  }
  return [...groups.values()].map(({ first, more }) => (more ? `${first} (and ${more} more like it in other runs)` : first));
}

/** Text on one line (white space runs collapsed), cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** The editor's texts of Analyze Trace: the file picker, the progress, the failure and the graph panel. */
export const analyzeNotice = {
  /** The file picker's filter name. */
  traceFilter: 'Agent traces and logs',
  /** The progress title while `file` is analysed. */
  progressTitle: (file: string) => `Agent Immune: analysing ${file}`,
  /** The progress message after a round is decided. */
  progressRound: (round: number, rounds: number) => `round ${round + 1} of ${rounds}`,
  /** The analysis of `file` failed. */
  cannotAnalyse: (file: string, reason: string) => `cannot analyse ${file}: ${reason}`,
  /** The guard could not read the run's language (`why`: the warning's message). */
  notRead: (file: string, why: string) => `${file}: ${why}.`,
  /** The title of a trace's graph panel (`run`: the run shown, when the user chose one of several). */
  panelTitle: (fileName: string, run?: string) => `Infection graph: ${fileName}${run === undefined ? '' : ` (${run})`}`,
  /** `file` holds several runs and the first, `run`, was analysed. */
  severalRuns: (file: string, run: string) => `${file} holds several runs; the analysis and graph show the first, "${run}".`,
  /** The button that offers the other runs of a file. */
  chooseRun: 'Choose Run…',
  /** The run picker's title. */
  pickRunTitle: (file: string) => `Which run of ${file} to analyse?`,
  /** A run picker item's description: its 0-based position. */
  pickRunDescription: (index: number) => `run ${index}`,
  /** The picture the graph panel exports. */
  pngExport: 'PNG image',
  /** The self-contained HTML report the graph panel exports. */
  htmlExport: 'HTML report',
  /** The save button of the graph panel's export dialog. */
  saveLabel: (what: string) => `Save ${what}`,
} as const;

/** Warnings the guard adds to an analysis about what it could not read. */
export const guardWarning = {
  /** The agents' latest outputs read as another language than English (`share`: their words that are common English words). */
  notEnglish: (share: number) =>
    `the agents' outputs do not read as English (${(100 * share).toFixed(1)} % of their words are common English words; English runs measured 6–51 %): the embedded guard's word lists and text model are English, so its verdicts here rest on the answers and the graph, and most attackers go unfound (it found 5 % of them in runs written in Vietnamese)`,
} as const;

/** The editor's output-channel lines about Analyze Trace and the graph panel (`label`: the command's name). */
export const analyzeLog = {
  /** The user cancelled the analysis. */
  cancelled: (label: string) => `${label} cancelled.`,
  /** A newer analysis of the same trace started, so this result is dropped. */
  superseded: (label: string, file: string) => `${label}: a newer analysis of ${file} started; this result is not shown.`,
  /** The analysis finished and flagged `flagged` output lines. */
  flagged: (label: string, flagged: number, file: string) => `${label}: ${flagged} flagged output line(s) in ${file}`,
  /** The analysis failed. */
  failed: (label: string, reason: string) => `${label} failed: ${reason}`,
  /** The graph page sent a message the extension does not accept. */
  malformedPageMessage: 'Infection graph: ignored a malformed message from the page',
  /** Handling a message of the graph page failed. */
  panelFailed: (reason: string) => `Infection graph: ${reason}`,
  /** The graph panel saved an export. */
  saved: (what: string, file: string) => `Infection graph: saved ${what} to ${file}`,
  /** The graph panel re-analysed its trace after a change. */
  reanalysed: (file: string) => `Infection graph: re-analysed ${file}`,
  /** The graph panel's re-analysis failed. */
  reanalysisFailed: (reason: string) => `Infection graph: re-analysis failed: ${reason}`,
} as const;

/** What a remediation step does, in a few words ("replace with donor a2", "quarantine (removed 4 passage(s))"); `show` renders trace text. */
export function remediationSummary(step: RemediationStep, show: (text: string) => string): string {
  if (step.action === 'replace') return `replace${step.donor ? ` with donor ${show(step.donor)}` : ''}`;
  if (step.action === 'quarantine') return `quarantine (${step.filtered ? `removed ${step.removed?.length ?? 0} passage(s)` : 'withhold'})`;
  if (step.restore) return `rehabilitate: restore round ${step.restore.round}${step.restore.answer !== undefined ? ` (answer ${show(step.restore.answer)})` : ''}`;
  return `rehabilitate (removed ${step.removed?.length ?? 0} passage(s))`;
}
