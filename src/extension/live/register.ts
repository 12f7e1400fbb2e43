// Watch Live Runs in the editor: the commands and the Live Runs view, registered at activation; the receiver, its
// client and the live graph panels (dist/live.js) load on the first Watch. No receiver in an untrusted workspace.
import * as vscode from 'vscode';
import { liveNotice } from '../../core/live/messages';
import { loadBundle } from '../bundles';
import { CommandId, ViewId } from '../ids';
import { showInfo, showWarning } from '../notify';
import type { Services } from '../services';
import type { LiveFeature } from './feature';
import { LiveRunsTree } from './tree';

/** Registers Watch / Stop Watching / Open Live Run and the Live Runs view; disposing the extension stops the watch. */
export function registerLive(services: Services): void {
  const tree = new LiveRunsTree();
  const view = vscode.window.createTreeView(ViewId.LiveRuns, { treeDataProvider: tree });
  let feature: LiveFeature | undefined;
  const live = () => (feature ??= loadBundle(services, 'live').createLiveFeature(services, tree, view));
  services.context.subscriptions.push(
    tree,
    view,
    vscode.commands.registerCommand(CommandId.WatchLiveRuns, async () => {
      if (!vscode.workspace.isTrusted) {
        // The command returns at once; the notification waits for the user on its own.
        void showWarning(liveNotice.restricted, liveNotice.manageTrust).then((picked) => {
          if (picked === liveNotice.manageTrust) void vscode.commands.executeCommand('workbench.trust.manage');
        });
        return undefined;
      }
      return live().watch();
    }),
    vscode.commands.registerCommand(CommandId.StopWatchingLiveRuns, async () => {
      if (!feature?.watching()) return void showInfo(liveNotice.notWatching);
      await feature.stop();
    }),
    vscode.commands.registerCommand(CommandId.OpenLiveRun, async (id?: unknown) => {
      if (!feature?.watching()) return void showInfo(liveNotice.notWatchingOpen);
      return feature.open(typeof id === 'string' ? id : undefined);
    }),
    { dispose: () => void feature?.stop().catch(() => undefined) },
  );
}
