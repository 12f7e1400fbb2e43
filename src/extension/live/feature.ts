// Watch Live Runs, loaded on the first Watch (its own bundle, dist/live.js: the receiver, protobufjs, the guard and the
// graph panel stay out of activation). It starts the receiver in the extension host, or connects to a running
// `agent-immune serve`; keeps the Live Runs view and a status bar item current from the receiver's events; and shows a
// run in the graph panel, which takes each newly decided round as it comes.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { buildGraphViewPayload, topologyKey } from '../../node/engine';
import type { GraphViewPayload } from '../../core/graphview/types';
import type { Analysis } from '../../core/guard/types';
import { liveLog, liveNotice } from '../../core/live/messages';
import type { RunSummary } from '../../core/live/runs';
import { parseTraceText } from '../../core/trace/parse';
import { loadProjectConfig } from '../../node/config';
import { LiveClient, ReceiverError, type WireEvent } from '../../node/live/client';
import { DEFAULT_PORT, isLoopback, LIVE_RUNS_DIR, LiveServer, recordingText, safeName } from '../../node/live/server';
import { isGraphViewPayload } from '../../webview/protocol';
import { GraphPanels, type GraphPanel } from '../analyze/graphPanel';
import { LIVE_TOKEN_SECRET, LIVE_WATCHING_CONTEXT, ViewId } from '../ids';
import { showError, showInfo } from '../notify';
import type { Services } from '../services';
import { setting } from '../settings';
import type { LiveRunsTree, LiveTreeNode } from './tree';

/** What the commands ask of the feature. */
export interface LiveFeature {
  /** True while receiving or connected. */
  watching(): boolean;
  /** Watch Live Runs: start the receiver (or connect), list its runs, follow its events; resolves with its address. */
  watch(): Promise<string | undefined>;
  /** Stop Watching: close the port (open runs are written out) or disconnect; open panels keep their last picture. */
  stop(): Promise<void>;
  /** Shows a run's graph (asks which when `id` is not given) and resolves with the analysis drawn; a run without a
   * decided round opens once it has one. */
  open(id?: string): Promise<Analysis | undefined>;
}

/** Where the runs come from: the editor's own receiver, or a running serve over HTTP. */
interface LiveSource {
  /** The receiver's address, as shown and as exporters must be pointed at. */
  url: string;
  /** The receiver the editor runs (stopping the watch stops it); undefined for a serve the editor connected to. */
  server?: LiveServer;
  list(): Promise<RunSummary[]>;
  /** A run's analysis and the recording of the rounds it covers. */
  read(id: string): Promise<{ analysis: Analysis; recording: string }>;
  /** Delivers events until `signal` aborts or the receiver goes away; `onOpen` once they flow. */
  follow(onEvent: (event: WireEvent) => void, signal: AbortSignal, onOpen: () => void): Promise<void>;
}

/** A live run's open panel and what keeps it current. */
interface LivePanel {
  panel: GraphPanel;
  payload: GraphViewPayload;
  /** The recording the payload was built from: what the side panel's line links open. */
  recording: string;
  busy: boolean;
  again: boolean;
}

/** Scheme of the read-only documents showing a live run's recording (the side panel's line links open them). */
const RECORDING_SCHEME = 'agent-immune-live';
/** Pause between two refreshes of one panel, so a burst of rounds repaints a few times, not once per round. */
const REFRESH_SPACING_MS = 150;
/** The command that shows and focuses the Live Runs view (every contributed view has one). */
const FOCUS_VIEW = `${ViewId.LiveRuns}.focus`;
/** Wait before reconnecting to a serve whose event stream ended. */
const RECONNECT_MS = 2000;

/** Creates the feature; its receiver, status bar item and panels are released when the watch stops. */
export function createLiveFeature(services: Services, tree: LiveRunsTree, view: vscode.TreeView<LiveTreeNode>): LiveFeature {
  const { output } = services;
  const panels = new GraphPanels();
  const livePanels = new Map<string, LivePanel>();
  /** Runs asked for before their first round was decided. */
  const pending = new Set<string>();
  const recordings = new vscode.EventEmitter<vscode.Uri>();
  let session: { source: LiveSource; stop: AbortController; status: vscode.StatusBarItem } | undefined;

  services.context.subscriptions.push(
    panels,
    recordings,
    vscode.workspace.registerTextDocumentContentProvider(RECORDING_SCHEME, {
      onDidChange: recordings.event,
      provideTextDocumentContent: (uri) => livePanels.get(runOfRecording(uri))?.recording ?? '',
    }),
  );


  /** The status bar item and the view's message: where spans go, how many runs, and what to do while there is none. */
  function showStatus(): void {
    if (!session) return;
    const { source, status } = session;
    const runs = tree.list();
    view.message = liveNotice.viewMessage(source, runs.length);
    const live = runs.filter((r) => r.state === 'open').length;
    status.text = liveNotice.statusText(source, live, runs.length);
    status.tooltip = liveNotice.statusTooltip(source, live, runs.length);
  }

  async function readView(source: LiveSource, id: string, previous?: GraphViewPayload): Promise<{ payload: GraphViewPayload; recording: string }> {
    const { analysis, recording } = await source.read(id);
    const trace = parseTraceText(recording, { file: `${id}.jsonl` });
    // Keep the layout while the topology stays the same, so the graph does not jump as rounds arrive.
    const positions = previous && topologyKey(previous.analysis) === topologyKey(analysis) ? previous.positions : undefined;
    const payload: GraphViewPayload = { ...buildGraphViewPayload(trace, analysis, { title: liveNotice.graphTitle(id), positions }), live: { state: tree.find(id)?.state ?? 'open' } };
    if (!isGraphViewPayload(payload)) throw new ReceiverError(liveNotice.undrawable(id));
    return { payload, recording };
  }

  /** Brings a run's panel up to the receiver's latest analysis; calls while one is under way coalesce into one more. */
  async function refresh(id: string): Promise<void> {
    const entry = livePanels.get(id);
    if (!entry || !session) return;
    if (entry.busy) return void (entry.again = true);
    entry.busy = true;
    try {
      const next = await readView(session.source, id, entry.payload);
      if (livePanels.get(id) !== entry) return;
      entry.payload = next.payload;
      entry.recording = next.recording;
      entry.panel.update(next.payload);
      recordings.fire(recordingUri(id));
    } catch (error) {
      output.warn(liveLog.cannotUpdate(id, errorMessage(error)));
    } finally {
      entry.busy = false;
      if (entry.again) {
        entry.again = false;
        setTimeout(() => void refresh(id), REFRESH_SPACING_MS);
      }
    }
  }

  function onEvent(event: WireEvent): void {
    if (event.type === 'run' || event.type === 'closed') {
      const run = event.type === 'run' ? event.run : event.summary;
      tree.upsert(run);
      showStatus();
      if (pending.has(run.id) && run.rounds > 0) {
        pending.delete(run.id);
        void open(run.id);
      }
    }
    void refresh(event.type === 'run' ? event.run.id : event.run);
  }

  async function followEvents(source: LiveSource, stop: AbortController): Promise<void> {
    const refreshList = async () => {
      try {
        tree.setRuns(await source.list());
        showStatus();
      } catch (error) {
        output.warn(liveLog.cannotList(source.url, errorMessage(error)));
      }
    };
    while (!stop.signal.aborted) {
      try {
        await source.follow(onEvent, stop.signal, () => void refreshList());
      } catch (error) {
        if (!stop.signal.aborted) output.warn(liveLog.streamFailed(source.url, errorMessage(error)));
      }
      if (stop.signal.aborted) return;
      view.message = liveNotice.reconnecting(source.url);
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }

  /** One Watch at a time: a second one while the first starts waits for it. */
  let starting: Promise<string | undefined> | undefined;
  function watch(): Promise<string | undefined> {
    if (session) {
      void vscode.commands.executeCommand(FOCUS_VIEW);
      void showInfo(liveNotice.alreadyWatching(session.source));
      return Promise.resolve(session.source.url);
    }
    starting ??= start().finally(() => (starting = undefined));
    return starting;
  }

  async function start(): Promise<string | undefined> {
    if (!(await services.runGuard.assertRunAllowed('Watch Live Runs'))) return;
    let source: LiveSource | undefined;
    try {
      const connectUrl = setting('live.connectUrl').trim();
      source = connectUrl ? await connect(connectUrl) : await startReceiver();
    } catch (error) {
      output.error(liveLog.failed(errorMessage(error)));
      void showError(liveNotice.cannotWatch(errorMessage(error)));
      return;
    }
    if (!source) return undefined;
    const status = vscode.window.createStatusBarItem('agentImmune.live', vscode.StatusBarAlignment.Left, 50);
    status.name = liveNotice.statusName;
    status.command = FOCUS_VIEW;
    status.show();
    session = { source, stop: new AbortController(), status };
    showStatus();
    await vscode.commands.executeCommand('setContext', LIVE_WATCHING_CONTEXT, true);
    output.info(liveLog.watching(source));
    void vscode.commands.executeCommand(FOCUS_VIEW);
    void followEvents(source, session.stop);
    if (source.server) {
      void showInfo(liveNotice.receiving(source.url), liveNotice.copyEndpoint).then((picked) => {
        if (picked === liveNotice.copyEndpoint) void vscode.env.clipboard.writeText(`${source.url}/v1/traces`);
      });
    }
    return source.url;
  }

  /** Starts the receiver in the extension host, writing into the first workspace folder. */
  async function startReceiver(): Promise<LiveSource | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error(liveNotice.noFolder);
    const host = setting('live.host').trim() || '127.0.0.1';
    if (!isLoopback(host)) throw new Error(liveNotice.notLoopback(host));
    const port = setting('live.port');
    const server = new LiveServer({
      host,
      port,
      root: folder.uri.fsPath,
      config: await loadProjectConfig(folder.uri.fsPath),
      log: (level, message) => output[level](message),
    });
    let url: string;
    try {
      url = (await server.start()).url;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw error;
      return portTaken(host, port, code);
    }
    const runs = server.runs;
    return {
      url,
      server,
      list: async () => runs.list(),
      read: async (id) => {
        const analysis = runs.analysis(id);
        const records = runs.recording(id);
        if (!analysis || !records) throw new ReceiverError(liveNotice.noRoundInMemory(id));
        return { analysis, recording: recordingText(records) };
      },
      follow: (onEvent, signal, onOpen) =>
        new Promise<void>((resolve) => {
          const unsubscribe = runs.subscribe((event) => onEvent(event.type === 'closed' ? { type: 'closed', run: event.run, summary: event.summary } : event));
          onOpen();
          signal.addEventListener('abort', () => {
            unsubscribe();
            resolve();
          });
        }),
    };
  }

  /** The port is taken: by a receiver (offer to watch it), or by something else (say how to pick another port). */
  async function portTaken(host: string, port: number, code: string): Promise<LiveSource | undefined> {
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const isReceiver = code === 'EADDRINUSE' && (await new LiveClient(url, { timeoutMs: 3000 }).runs().then(() => true, () => false));
    if (isReceiver) {
      const picked = await showInfo(liveNotice.receiverOnPort(url), liveNotice.watchIt);
      return picked === liveNotice.watchIt ? connect(url) : undefined;
    }
        output.error(liveLog.portTaken(host, port, code));
    void showError(liveNotice.portTaken(host, port, code, port === DEFAULT_PORT), liveNotice.openSettings).then((picked) => {
      if (picked === liveNotice.openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', 'agentImmune.live');
    });
    return undefined;
  }

  /** Connects to a running serve; asks for its bearer token once if it wants one (kept in secret storage). */
  async function connect(url: string): Promise<LiveSource | undefined> {
    let client = new LiveClient(url, { token: await services.context.secrets.get(LIVE_TOKEN_SECRET) });
    try {
      await client.runs();
    } catch (error) {
      if (!(error instanceof ReceiverError && error.status === 401)) throw error;
      const token = await vscode.window.showInputBox({
        title: liveNotice.tokenTitle,
        prompt: liveNotice.tokenPrompt(client.url),
        password: true,
        ignoreFocusOut: true,
      });
      if (!token?.trim()) return undefined;
      client = new LiveClient(url, { token: token.trim() });
      await client.runs();
      await services.context.secrets.store(LIVE_TOKEN_SECRET, token.trim());
    }
    return {
      url: client.url,
      list: () => client.runs(),
      read: (id) => client.run(id),
      follow: (onEvent, signal, onOpen) => client.events(onEvent, signal, onOpen),
    };
  }

  async function open(id?: string): Promise<Analysis | undefined> {
    if (!session) return;
    const { source } = session;
    const target = id ?? (await pickRun());
    if (!target) return;
    const existing = livePanels.get(target);
    if (existing) {
      existing.panel.panel.reveal(undefined, true);
      await refresh(target);
      return existing.payload.analysis;
    }
    if (!tree.find(target)?.rounds) {
      pending.add(target);
      void showInfo(liveNotice.noDecidedRound(target));
      return undefined;
    }
    try {
      const { payload, recording } = await readView(source, target);
      if (session?.source !== source || livePanels.has(target)) return;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
      const panel = panels.showSubject(services, {
        key: `live:${target}`,
        title: liveNotice.panelTitle(target),
        saveBase: path.join(folder, LIVE_RUNS_DIR, safeName(target)),
        openLine: (line) => openRecording(target, line),
      }, payload);
      const entry: LivePanel = { panel, payload, recording, busy: false, again: false };
      livePanels.set(target, entry);
      panel.panel.onDidDispose(() => livePanels.get(target) === entry && livePanels.delete(target));
      output.info(liveLog.opened(target));
      // Rounds decided while the panel was being built.
      void refresh(target);
      return payload.analysis;
    } catch (error) {
      output.error(liveLog.cannotOpen(target, errorMessage(error)));
      void showError(liveNotice.cannotOpen(target, errorMessage(error)));
      return undefined;
    }
  }

  async function pickRun(): Promise<string | undefined> {
    const runs = tree.list();
    if (runs.length === 0) return void showInfo(liveNotice.noRunYet);
    const picked = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: r.id, description: liveNotice.pickDescription(r) })),
      { title: liveNotice.pickTitle },
    );
    return picked?.label;
  }

  async function openRecording(id: string, line: number): Promise<void> {
    const document = await vscode.workspace.openTextDocument(recordingUri(id));
    if (line > document.lineCount) return;
    const start = document.lineAt(line - 1).range.start;
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(start, start), preserveFocus: false });
  }

  async function stop(): Promise<void> {
    const current = session;
    if (!current) return;
    session = undefined;
    pending.clear();
    current.stop.abort();
    current.status.dispose();
    view.message = undefined;
    tree.setRuns([]);
    await vscode.commands.executeCommand('setContext', LIVE_WATCHING_CONTEXT, false);
    const { server } = current.source;
    if (server) {
      // Stopping closes the open runs (their last round is decided) and writes them out; the panels show that end.
      await server.stop();
      for (const [id, entry] of livePanels) {
        const analysis = server.runs.analysis(id);
        const records = server.runs.recording(id);
        if (analysis && records) entry.payload = buildGraphViewPayload(parseTraceText(recordingText(records), { file: `${id}.jsonl` }), analysis, { title: liveNotice.graphTitle(id), positions: entry.payload.positions });
        entry.panel.update({ ...entry.payload, live: { state: 'closed' } });
      }
      output.info(liveLog.stoppedReceiver(current.source.url, LIVE_RUNS_DIR));
    } else {
      // The serve goes on; the panels keep their last picture without the live marker.
      for (const entry of livePanels.values()) entry.panel.update({ ...entry.payload, live: undefined });
      output.info(liveLog.disconnected(current.source.url));
    }
    livePanels.clear();
  }

  return { watching: () => session !== undefined, watch, stop, open };
}

/** The read-only document of a run's recording. */
function recordingUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RECORDING_SCHEME, path: `/${encodeURIComponent(id)}.jsonl` });
}

function runOfRecording(uri: vscode.Uri): string {
  return decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.jsonl$/, ''));
}

