// The Live Runs view: one item per run the receiver knows (id, live or closed, agents, rounds decided, verdict), its
// attackers and infected agents beneath it; clicking opens the run's graph. Registered at activation (so the view and
// its welcome show at once), fed by the live feature once watching; it imports no guard code.
import * as vscode from 'vscode';
import { liveNotice } from '../../core/live/messages';
import type { RunSummary } from '../../core/live/runs';
import { CommandId } from '../ids';

/** A row of the view: a run, or one flagged agent of it. */
export type LiveTreeNode = { kind: 'run'; run: RunSummary } | { kind: 'agent'; run: RunSummary; agent: string; category: 'attacker' | 'infected' };

/** The least time between two repaints of the view: a burst of events (a round's spans, many runs) repaints once. */
export const TREE_REPAINT_MS = 200;

/** The runs shown, most recently active open ones first, as the receiver lists them. */
export class LiveRunsTree implements vscode.TreeDataProvider<LiveTreeNode>, vscode.Disposable {
  private runs: RunSummary[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private repaint: ReturnType<typeof setTimeout> | undefined;
  private lastRepaint = 0;

  /** Replaces every run (a fresh list from the receiver). */
  setRuns(runs: RunSummary[]): void {
    this.runs = runs;
    this.repaintSoon();
  }

  /** Adds or updates one run (an event); a run that became active moves to the top. */
  upsert(run: RunSummary): void {
    this.runs = [run, ...this.runs.filter((r) => r.id !== run.id)];
    this.repaintSoon();
  }

  /** One repaint for every change until it runs, at most one per TREE_REPAINT_MS. */
  private repaintSoon(): void {
    if (this.repaint) return;
    this.repaint = setTimeout(() => {
      this.repaint = undefined;
      this.lastRepaint = Date.now();
      this.changed.fire();
    }, Math.max(0, this.lastRepaint + TREE_REPAINT_MS - Date.now()));
  }

  /** The run listed under `id`, if any. */
  find(id: string): RunSummary | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** Every run listed. */
  list(): readonly RunSummary[] {
    return this.runs;
  }

  getChildren(node?: LiveTreeNode): LiveTreeNode[] {
    if (!node) return this.runs.map((run) => ({ kind: 'run', run }));
    if (node.kind === 'agent') return [];
    const { run } = node;
    return [...run.attackers.map((agent) => ({ kind: 'agent' as const, run, agent, category: 'attacker' as const })), ...run.infected.map((agent) => ({ kind: 'agent' as const, run, agent, category: 'infected' as const }))];
  }

  getTreeItem(node: LiveTreeNode): vscode.TreeItem {
    const open: vscode.Command = { command: CommandId.OpenLiveRun, title: liveNotice.openGraph, arguments: [node.run.id] };
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.agent, vscode.TreeItemCollapsibleState.None);
      // A stable id, so the view keeps the row (its selection, a click on it) when the next event refreshes the tree.
      item.id = `agent:${node.run.id}:${node.category}:${node.agent}`;
      item.description = node.category;
      item.iconPath = categoryIcon(node.category);
      item.command = open;
      item.contextValue = 'liveRunAgent';
      return item;
    }
    const { run } = node;
    const flagged = run.attackers.length + run.infected.length > 0;
    const item = new vscode.TreeItem(run.id, flagged ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // A new id once agents are flagged, so the row opens on them (a row's open state is kept per id).
    item.id = `run:${run.id}${flagged ? ':flagged' : ''}`;
    item.description = liveNotice.rowDescription(run);
    item.tooltip = liveNotice.rowTooltip(run);
    item.iconPath = run.error ? new vscode.ThemeIcon('error') : run.attackers.length ? categoryIcon('attacker') : run.infected.length ? categoryIcon('infected') : run.rounds === 0 ? new vscode.ThemeIcon(run.state === 'open' ? 'loading~spin' : 'circle-outline') : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    item.command = open;
    item.contextValue = run.state === 'open' ? 'liveRunOpen' : 'liveRunClosed';
    return item;
  }

  dispose(): void {
    clearTimeout(this.repaint);
    this.changed.dispose();
  }
}

function categoryIcon(category: 'attacker' | 'infected'): vscode.ThemeIcon {
  return category === 'attacker' ? new vscode.ThemeIcon('bug', new vscode.ThemeColor('errorForeground')) : new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground'));
}
