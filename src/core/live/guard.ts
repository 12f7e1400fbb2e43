// The online guard as a library for agent code (the seed's middleware / guard-node shape): record each agent's output
// for a round, close the round, read categories, sources and the remediation plan, apply it, go on to the next round.
import type { ProjectConfig } from '../config';
import { InputError } from '../errors';
import { OnlineGuard } from '../guard/online';
import type { Analysis, RehabFilter, RemediationStep } from '../guard/types';
import type { MonitorFinding } from '../monitor/types';
import { TraceBuilder } from '../trace/parse';
import type { Category, TaskInfo } from '../trace/types';

/** Who talks to whom: every agent, and directed edges [from, to] (from's output is delivered to to). */
export interface GuardTopology {
  agents: string[];
  edges: [string, string][];
  /** Agents' roles where they matter: 'tool' (a tool or retrieval result: quarantined, never replaced) and 'user' (never a donor). */
  roles?: Record<string, string>;
}

/** Options of createGuard. */
export interface CreateGuardOptions {
  topology: GuardTopology;
  /** The task; with `answer`, the rounds report ASR. */
  task?: TaskInfo;
  /** Project config (agent-immune.config.json as loaded); the defaults otherwise. */
  config?: ProjectConfig;
  /** Rehabilitation filter; the embedded one by default. */
  filter?: RehabFilter;
}

/** What a closed round decided. */
export interface RoundReport {
  round: number;
  /** Category of every agent in this round. */
  categories: Record<string, Category>;
  attackers: string[];
  infected: string[];
  /** Likely sources of the malicious content, most likely first. */
  sources: string[];
  infectionPaths: string[][];
  /** One step per attacker (replace, with the donor whose role to copy; quarantine for a poisoned tool result) and per infected agent (rehabilitate). */
  remediation: RemediationStep[];
  alerts: MonitorFinding[];
  /** The whole analysis so far (schema agent-immune/analysis/v1). */
  analysis: Analysis;
}

/** The remediation applied to a round's outputs: what each agent's latest output becomes, and who is replaced by whom. */
export interface AppliedRemediation {
  /** The outputs to deliver: infected agents' outputs rehabilitated, attackers' dropped (a poisoned tool result's filtered), the rest unchanged. */
  outputs: Record<string, string>;
  /** Attacker -> donor whose role and system prompt to copy (undefined donor: restore the agent from a trusted copy). */
  replaced: Record<string, string | undefined>;
  rehabilitated: string[];
}

/** The guard of one running system. */
export interface LiveGuard {
  /** The round being recorded (0-based). */
  readonly round: number;
  /** Records what `agent` sent in the current round (several calls for one agent are joined, as in a trace). */
  record(agent: string, output: string): void;
  /** Closes the current round: decides it (only the new round's outputs are measured) and returns what it found. */
  closeRound(): Promise<RoundReport>;
  /** Applies a report's plan to the outputs of its round (the default: the outputs recorded for that round). */
  apply(report: RoundReport, outputs?: Record<string, string>): AppliedRemediation;
}

/** Creates an online guard for a system with a known topology. */
export function createGuard(options: CreateGuardOptions): LiveGuard {
  const { agents, edges } = options.topology;
  const known = new Set(agents);
  if (agents.length === 0 || known.size !== agents.length) throw new InputError('invalid-field', 'topology.agents must list each agent once');
  for (const [from, to] of edges) if (!known.has(from) || !known.has(to)) throw new InputError('unknown-agent', `edge [${from}, ${to}] names an agent not in topology.agents`);
  const roles = options.topology.roles ?? {};
  for (const [id, role] of Object.entries(roles)) {
    if (!known.has(id)) throw new InputError('unknown-agent', `topology.roles names "${id}", which is not in topology.agents`);
    if (typeof role !== 'string') throw new InputError('invalid-field', `topology.roles.${id} must be a string`);
  }
  const online = new OnlineGuard({ config: options.config, filter: options.filter });
  const agentHeader = (id: string) => (Object.hasOwn(roles, id) ? { id, role: roles[id] } : { id });
  const header = { type: 'header', schema: 'agent-trace/v1', agents: agents.map(agentHeader), edges, ...(options.task ? { task: options.task } : {}) };
  const messages: Record<string, unknown>[] = [];
  const recorded: Record<string, string>[] = [{}];
  let round = 0;

  return {
    get round() {
      return round;
    },
    record(agent, output) {
      if (!known.has(agent)) throw new InputError('unknown-agent', `agent "${agent}" is not in topology.agents`);
      if (typeof output !== 'string') throw new InputError('invalid-field', `the output of ${agent} must be a string`);
      messages.push({ type: 'message', round, from: agent, content: output });
      const current = recorded[round];
      current[agent] = current[agent] === undefined ? output : `${current[agent]}\n\n${output}`;
    },
    async closeRound() {
      if (Object.keys(recorded[round]).length === 0) throw new InputError('no-content', `round ${round} has no recorded output; call record() first`);
      const builder = new TraceBuilder();
      builder.addRecord(header, 0);
      messages.forEach((m, i) => builder.addRecord(m, i + 1));
      const analysis = (await online.update(builder.finish()))!;
      const decided = analysis.rounds[round];
      const categories: Record<string, Category> = Object.create(null);
      for (const id of agents) categories[id] = decided.agents[id].category;
      const report: RoundReport = {
        round,
        categories,
        attackers: agents.filter((id) => categories[id] === 'attacker'),
        infected: agents.filter((id) => categories[id] === 'infected'),
        sources: analysis.sources,
        infectionPaths: analysis.infectionPaths,
        remediation: analysis.remediation,
        alerts: analysis.alerts ?? [],
        analysis,
      };
      round++;
      recorded.push({});
      return report;
    },
    apply(report, outputs = recorded[report.round] ?? {}) {
      const applied: AppliedRemediation = { outputs: { ...outputs }, replaced: {}, rehabilitated: [] };
      for (const step of report.remediation) {
        if (step.action === 'replace') {
          applied.replaced[step.agent] = step.donor;
          delete applied.outputs[step.agent];
        } else if (step.action === 'quarantine') {
          // A poisoned tool result goes on filtered, or not at all.
          if (step.filtered) applied.outputs[step.agent] = step.filtered;
          else delete applied.outputs[step.agent];
        } else {
          applied.outputs[step.agent] = step.filtered ?? '';
          applied.rehabilitated.push(step.agent);
        }
      }
      return applied;
    },
  };
}
