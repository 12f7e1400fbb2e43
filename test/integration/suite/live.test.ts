// Watch Live Runs inside the real editor: the receiver starts in the extension host (or the editor connects to a running
// serve), a star run's spans sent by the real OTel exporter are decided round by round, the run's graph opens and
// follows them, and stopping closes the port and writes the run out.
import * as assert from 'assert';
import * as fs from 'fs';
import { request } from 'http';
import * as net from 'net';
import { tmpdir } from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import type { Analysis } from '../../../src/core/guard/types';
import type { RunSummary } from '../../../src/core/live/runs';
import { CommandId, ViewId } from '../../../src/extension/ids';
import { LiveRunsTree, TREE_REPAINT_MS } from '../../../src/extension/live/tree';
import { LiveServer } from '../../../src/node/live/server';
import { readAnyTrace } from '../../../src/node/readAnyTrace';
import { crewProvider, emitCrewRun, hubRun, recordCrewRun } from '../../support/otlpRuns';
import { activeExtension, loadedBundles, updateSetting, waitFor as waitForShort, workspaceRoot } from '../helpers';

const waitFor = <T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000) => waitForShort(what, check, timeoutMs);

/** This bundle runs from <repo>/dist/test/integration/suite. */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const STAR = hubRun(fs.readFileSync(path.join(REPO, 'examples', 'traces', 'star-8.jsonl'), 'utf8'));
const EPOCH = Date.UTC(2026, 0, 5, 9);

/** Sends the star run's spans to `url` as an instrumented app would, one hub round every `paceMs`. */
async function sendStarRun(url: string, conversation: string, paceMs: number): Promise<void> {
  const provider = crewProvider(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${url}/v1/traces` }), { scheduledDelayMillis: 10 }));
  const start = Date.now();
  await emitCrewRun(provider.getTracer('star'), STAR, conversation, EPOCH, async (offset) => {
    await provider.forceFlush();
    const due = start + (offset / 4) * paceMs;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
  });
  await provider.shutdown();
}

/** GET a receiver endpoint as JSON; undefined while nothing listens. */
function getJson<T>(url: string): Promise<T | undefined> {
  return new Promise((resolve) => {
    const req = request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(res.statusCode === 200 ? (JSON.parse(body) as T) : undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

const run = async (url: string, id: string) => (await getJson<{ runs: RunSummary[] }>(`${url}/v1/runs`))?.runs.find((r) => r.id === id);
const livePanels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(ViewId.GraphPanel) && t.label.startsWith('Live run: '));
const flaggedOf = (analysis: Analysis | undefined) => analysis && [analysis.agents.filter((a) => a.category === 'attacker').map((a) => a.id), analysis.agents.filter((a) => a.category === 'infected').map((a) => a.id)];

suite('Watch Live Runs', function () {
  this.timeout(180_000);
  let expected: Analysis;

  suiteSetup(async () => {
    await activeExtension();
    // The recorded run the live one must match: a0 and a1 attack, a2, a4 and a7 are infected.
    const file = path.join(tmpdir(), `ai-star-${process.pid}.otlp.json`);
    fs.writeFileSync(file, await recordCrewRun(STAR, 'star-8', EPOCH));
    expected = await analyzeTrace(await readAnyTrace(file));
    fs.rmSync(file, { force: true });
    assert.deepStrictEqual(flaggedOf(expected), [['a0', 'a1'], ['a2', 'a4', 'a7']]);
    await updateSetting('live.port', 0, vscode.ConfigurationTarget.Global);
  });
  teardown(async () => {
    await vscode.commands.executeCommand(CommandId.StopWatchingLiveRuns);
  });
  suiteTeardown(async () => {
    for (const key of ['live.port', 'live.connectUrl'] as const) await updateSetting(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('receives a run in the editor, opens its graph mid-run and follows it to the verdict analyze gives', async () => {
    const url = await vscode.commands.executeCommand<string>(CommandId.WatchLiveRuns);
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(loadedBundles(await activeExtension()).includes('live'), 'the receiver loaded on the first Watch');
    const sending = sendStarRun(url!, 'star-8', 400);
    await waitFor('the first decided round', async () => ((await run(url!, 'star-8'))?.rounds ?? 0) > 0);
    // Asked for before the view heard of its first round, the run opens once it has; then the command returns its graph.
    const first = await waitFor('the live graph', async () => vscode.commands.executeCommand<Analysis | undefined>(CommandId.OpenLiveRun, 'star-8'));
    assert.ok(first && first.rounds.length < expected.rounds.length, 'the graph opened before the run was over');
    await waitFor('the live run\'s panel', () => livePanels().map((t) => t.label).join() === 'Live run: star-8');
    await sending;
    // The open panel follows: asking for it again returns what it now draws.
    const last = await waitFor('the panel at the last round', async () => {
      const shown = await vscode.commands.executeCommand<Analysis>(CommandId.OpenLiveRun, 'star-8');
      return shown?.rounds.length === expected.rounds.length ? shown : undefined;
    });
    assert.deepStrictEqual(flaggedOf(last), flaggedOf(expected));
    assert.deepStrictEqual(last.rounds.map((r) => r.agents), expected.rounds.map((r) => r.agents));
    assert.deepStrictEqual(livePanels().length, 1, 'one panel per run');

    // Stop Watching closes the port; the run is written out and reads back to the same verdicts.
    await vscode.commands.executeCommand(CommandId.StopWatchingLiveRuns);
    assert.strictEqual(await getJson(`${url}/v1/runs`), undefined, 'nothing listens any more');
    const written = path.join(workspaceRoot().fsPath, '.agent-immune', 'live', 'star-8.jsonl');
    assert.ok(fs.existsSync(written), `${written} was written`);
    assert.deepStrictEqual(flaggedOf(await analyzeTrace(await readAnyTrace(written))), flaggedOf(expected));
  });

  test('Live Runs rows keep their ids when the next event refreshes the view, so a click between two events is not lost', () => {
    const tree = new LiveRunsTree();
    const run = (rounds: number, infected: string[]): RunSummary => ({ id: 'conv-1', traceId: 't1', state: 'open', spans: rounds * 8, rounds, agents: 8, attackers: ['hub'], infected, alerts: 0, updatedAt: EPOCH + rounds });
    const ids = () => tree.getChildren(tree.getChildren()[0]).map((node) => tree.getTreeItem(node).id);
    tree.upsert(run(1, ['a1']));
    const before = ids();
    tree.upsert(run(2, ['a1', 'a2']));
    const after = ids();
    assert.strictEqual(new Set(after).size, 3, `every row has its own id: ${after.join(', ')}`);
    assert.deepStrictEqual(after.slice(0, 2), before, 'the rows that were there keep their ids');
    tree.dispose();
  });

  test('Live Runs repaints once for a burst of events, showing the last of them', async () => {
    const tree = new LiveRunsTree();
    let repaints = 0;
    tree.onDidChangeTreeData(() => repaints++);
    const run = (n: number): RunSummary => ({ id: `run-${n % 5}`, traceId: `t${n}`, state: 'open', spans: n, rounds: n, agents: 3, attackers: [], infected: [], alerts: 0, updatedAt: EPOCH + n });
    for (let n = 1; n <= 200; n++) tree.upsert(run(n));
    await new Promise((resolve) => setTimeout(resolve, TREE_REPAINT_MS + 100));
    assert.strictEqual(repaints, 1, 'one repaint for 200 events');
    assert.deepStrictEqual(tree.getChildren().map((node) => [node.run.id, node.run.rounds]), [['run-0', 200], ['run-4', 199], ['run-3', 198], ['run-2', 197], ['run-1', 196]]);
    tree.upsert(run(201));
    await new Promise((resolve) => setTimeout(resolve, TREE_REPAINT_MS + 100));
    assert.strictEqual(repaints, 2, 'the next event repaints again');
    tree.dispose();
  });

  test('says so when another program holds the port, and watches nothing', async () => {
    const other = net.createServer((socket) => socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      await updateSetting('live.port', (other.address() as net.AddressInfo).port, vscode.ConfigurationTarget.Global);
      assert.strictEqual(await vscode.commands.executeCommand(CommandId.WatchLiveRuns), undefined);
      assert.strictEqual(await vscode.commands.executeCommand(CommandId.OpenLiveRun, 'star-8'), undefined, 'not watching');
    } finally {
      await updateSetting('live.port', 0, vscode.ConfigurationTarget.Global);
      other.close();
    }
  });

  test('connects to a running agent-immune serve given in agentImmune.live.connectUrl, and leaves it running', async () => {
    const root = fs.mkdtempSync(path.join(tmpdir(), 'ai-serve-'));
    const serve = new LiveServer({ root, port: 0 });
    const { url } = await serve.start();
    try {
      await updateSetting('live.connectUrl', url, vscode.ConfigurationTarget.Global);
      assert.strictEqual(await vscode.commands.executeCommand<string>(CommandId.WatchLiveRuns), url);
      await sendStarRun(url, 'star-remote', 0);
      await waitFor('the run decided', async () => (await run(url, 'star-remote'))?.rounds === expected.rounds.length);
      const shown = await vscode.commands.executeCommand<Analysis>(CommandId.OpenLiveRun, 'star-remote');
      assert.deepStrictEqual(flaggedOf(shown), flaggedOf(expected));
      await vscode.commands.executeCommand(CommandId.StopWatchingLiveRuns);
      assert.ok(await getJson(`${url}/v1/runs`), 'the serve the editor connected to still answers');
    } finally {
      await updateSetting('live.connectUrl', undefined, vscode.ConfigurationTarget.Global);
      await serve.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
