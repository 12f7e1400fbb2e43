// Wording of Watch Live Runs in the editor: notifications, the status bar, the Live Runs view and its rows, and log
// lines (the editor adds the "Agent Immune: " prefix to notifications).
import type { RunSummary } from './runs';

/** Where the editor's live runs come from: its own receiver (`server` set), or a running `agent-immune serve`. */
export interface LiveSourceWording {
  url: string;
  server?: object;
}

/** What a run's row says about its verdict, with the graph view's glyphs (▲ attackers, ◆ infected). */
function verdictText(run: RunSummary): string {
  if (run.error) return 'cannot be analysed yet';
  if (run.rounds === 0) return 'waiting for a closed round';
  if (run.attackers.length + run.infected.length === 0) return 'no attacker';
  return `▲ ${run.attackers.length} ◆ ${run.infected.length}`;
}

/** Open or closed, as a run's row and the run picker say it. */
function stateText(run: RunSummary): string {
  return run.state === 'open' ? 'live' : 'closed';
}

/** Where spans go (or which receiver is watched), without a full stop. */
export function liveSourceText(source: LiveSourceWording): string {
  return source.server ? `Receiving OTLP spans at ${source.url}/v1/traces` : `Watching ${source.url}`;
}

/** The editor's texts of Watch Live Runs. */
export const liveNotice = {
  /** Watch Live Runs in Restricted Mode. */
  restricted: 'Watch Live Runs is off in Restricted Mode: it opens a network port and writes alerts and closed runs into this folder. Trust the folder to watch live runs.',
  /** The action that opens the workspace trust editor. */
  manageTrust: 'Manage Workspace Trust',
  /** Stop Watching while nothing is watched. */
  notWatching: 'not watching live runs.',
  /** Open Live Run while nothing is watched. */
  notWatchingOpen: 'not watching live runs: run Watch Live Runs first.',
  /** The message of the Live Runs view while watching. */
  viewMessage: (source: LiveSourceWording, runs: number) =>
    runs ? `${liveSourceText(source)}.` : `${liveSourceText(source)}. No run yet: point your agents' OpenTelemetry exporter here (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with message content capture on; each trace or conversation appears as its spans arrive.`,
  /** The message of the Live Runs view after the event stream of a serve ended. */
  reconnecting: (url: string) => `Lost ${url}; reconnecting…`,
  /** The name of the status bar item. */
  statusName: 'Agent Immune: live runs',
  /** The status bar item: the receiver's host, then open / listed runs once there is one. */
  statusText: (source: LiveSourceWording, open: number, listed: number) => `$(broadcast) Live ${new URL(source.url).host}${listed ? ` · ${open}/${listed}` : ''}`,
  /** The status bar item's tooltip. */
  statusTooltip: (source: LiveSourceWording, open: number, listed: number) => `Agent Immune: ${liveSourceText(source)}. ${open} open run(s), ${listed} listed. Click to show the Live Runs view.`,
  /** Watch Live Runs while already watching. */
  alreadyWatching: (source: LiveSourceWording) => `already watching: ${liveSourceText(source)}.`,
  /** Watch Live Runs failed. */
  cannotWatch: (reason: string) => `cannot watch live runs: ${reason}`,
  /** The receiver started. */
  receiving: (url: string) => `receiving OpenTelemetry spans at ${url}/v1/traces (OTLP/HTTP, JSON or protobuf).`,
  /** The action that copies the endpoint. */
  copyEndpoint: 'Copy Endpoint',
  /** The receiver needs a workspace folder. */
  noFolder: 'open a folder first: the receiver appends alerts to its alert log and writes closed runs into it',
  /** The configured host is reachable from other machines. */
  notLoopback: (host: string) =>
    `agentImmune.live.host is ${host}, which other machines can reach; the editor binds loopback only. To receive from other machines, run \`agent-immune serve --host ${host} --allow-remote --token TOKEN\` and set agentImmune.live.connectUrl`,
  /** A receiver already listens on the port: the question whether to watch it. */
  receiverOnPort: (url: string) => `a receiver (agent-immune serve?) already listens on ${url}. Watch its runs instead?`,
  /** The answer that watches it. */
  watchIt: 'Watch It',
  /** Another program holds the port (`isDefaultPort`: it is OTLP's 4318). */
  portTaken: (host: string, port: number, code: string, isDefaultPort: boolean) =>
    `cannot listen on ${host}:${port} (${code}): another program uses it. Set agentImmune.live.port (0 picks a free port${isDefaultPort ? '; 4318 is also the OpenTelemetry Collector\'s port' : ''}).`,
  /** The action that opens the live settings. */
  openSettings: 'Open Settings',
  /** The title of the receiver token input. */
  tokenTitle: 'Agent Immune: receiver token',
  /** The prompt of the receiver token input. */
  tokenPrompt: (url: string) => `${url} needs its bearer token (the --token given to agent-immune serve). Kept in the editor's secret storage.`,
  /** A run was asked for before any of its rounds was decided. */
  noDecidedRound: (run: string) => `run ${run} has no decided round yet; its graph opens when the first round is decided.`,
  /** The receiver holds no analysis of a run. */
  noRoundInMemory: (run: string) => `run ${run.slice(0, 80)} has no decided round in memory`,
  /** The receiver sent an analysis the graph view cannot draw. */
  undrawable: (run: string) => `the receiver sent an analysis of run ${run.slice(0, 80)} that cannot be drawn`,
  /** The title of a live run's graph panel. */
  panelTitle: (run: string) => `Live run: ${run.slice(0, 40)}`,
  /** The title of a live run's graph. */
  graphTitle: (run: string) => `live: ${run}`,
  /** Opening a live run failed. */
  cannotOpen: (run: string, reason: string) => `cannot open live run ${run.slice(0, 80)}: ${reason}`,
  /** Open Live Run before any run arrived. */
  noRunYet: 'no live run yet: point your agents\' OpenTelemetry exporter at the receiver.',
  /** The title of the run picker. */
  pickTitle: 'Agent Immune: open a live run',
  /** A run in the run picker. */
  pickDescription: (run: RunSummary) => `${stateText(run)} · ${run.rounds} rounds · ${run.attackers.length} attackers, ${run.infected.length} infected`,
  /** The command of a row of the Live Runs view. */
  openGraph: 'Open the run\'s graph',
  /** The description of a run's row. */
  rowDescription: (run: RunSummary) => `${stateText(run)} · ${verdictText(run)} · ${run.agents} agents · ${run.rounds} rounds`,
  /** The tooltip of a run's row. */
  rowTooltip: (run: RunSummary) =>
    [
      `Run ${run.id} (trace ${run.traceId}), ${run.state === 'open' ? 'receiving spans' : 'closed'}`,
      `${run.spans} spans, ${run.rounds} rounds decided, ${run.agents} agents, ${run.alerts} propagation alerts`,
      run.attackers.length ? `Attackers: ${run.attackers.join(', ')}` : '',
      run.infected.length ? `Infected: ${run.infected.join(', ')}` : '',
      run.error ? `Cannot be analysed yet: ${run.error}` : '',
    ].filter(Boolean).join('\n'),
} as const;

/** The editor's output-channel lines about Watch Live Runs. */
export const liveLog = {
  /** Watching started. */
  watching: (source: LiveSourceWording) => `Watch Live Runs: ${liveSourceText(source)}`,
  /** Watch Live Runs failed. */
  failed: (reason: string) => `Watch Live Runs failed: ${reason}`,
  /** Another program holds the port. */
  portTaken: (host: string, port: number, code: string) => `Watch Live Runs: cannot listen on ${host}:${port} (${code})`,
  /** An open panel could not take a run's new rounds. */
  cannotUpdate: (run: string, reason: string) => `Watch Live Runs: cannot update run ${run}: ${reason}`,
  /** The runs of a receiver could not be listed. */
  cannotList: (url: string, reason: string) => `Watch Live Runs: cannot list the runs of ${url}: ${reason}`,
  /** The event stream of a receiver ended with an error. */
  streamFailed: (url: string, reason: string) => `Watch Live Runs: the event stream of ${url} failed: ${reason}`,
  /** A run's graph panel opened. */
  opened: (run: string) => `Watch Live Runs: opened run ${run}`,
  /** A run's graph panel could not open. */
  cannotOpen: (run: string, reason: string) => `Watch Live Runs: cannot open run ${run}: ${reason}`,
  /** Stop Watching stopped the editor's receiver, which wrote its open runs into `dir`. */
  stoppedReceiver: (url: string, dir: string) => `Watch Live Runs: stopped the receiver on ${url}; open runs were written to ${dir}/`,
  /** Stop Watching left a serve running. */
  disconnected: (url: string) => `Watch Live Runs: disconnected from ${url}`,
} as const;
