// One root's integrity state (a workspace folder or an extra root): a full verify at start, then a chokidar watcher whose events are debounced
// and re-verified incrementally; a generation counter drops any result computed before newer changes arrived.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { integrityLog } from '../../core/integrity/messages';
import type { IntegrityConfig } from '../../core/integrity/scope';
import { inScope, reverifyPaths, verifyWorkspace, type VerifyState } from '../../node/integrity/verify';

/** A folder verified on its own: a workspace folder, or an extra root such as ~/.claude/skills. */
export interface IntegrityRoot {
  key: string;
  name: string;
  uri: vscode.Uri;
  overrides(): Partial<IntegrityConfig>;
}

/** Debounce between the last file event and the re-verify. */
const DEBOUNCE_MS = 200;
/** Above this many changed paths (a git checkout, a branch switch) one full verify is cheaper than many small ones. */
const FULL_VERIFY_ABOVE = 256;

/** Watches one folder and reports each fresh verify result. */
export class FolderIntegrity implements vscode.Disposable {
  state: VerifyState | undefined;
  private watcher: FSWatcher | undefined;
  private ignoredFolders: vscode.FileSystemWatcher | undefined;
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  private running: Promise<void> | undefined;
  private full = true;
  private disposed = false;
  private shown: string | undefined;

  constructor(
    readonly root: IntegrityRoot,
    private readonly onResult: (folder: FolderIntegrity) => void,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  /** Runs the first verify and starts watching. */
  async start(): Promise<void> {
    await this.verifyNow(true);
    if (this.disposed || !this.state) return;
    const root = this.state.ws.root;
    const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
    // The scope as the latest verify read it (a .gitignore or the config may have changed since the watcher started).
    const excluded = (rel: string, isDir: boolean) => rel !== '' && !rel.startsWith('..') && this.state!.ws.matcher.isExcluded(rel, isDir);
    this.watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (file: string, stats?: { isDirectory(): boolean }) => excluded(relative(file), stats?.isDirectory() ?? false),
    });
    const onEvent = (file: string) => this.queue(relative(file));
    this.watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent);
    // chokidar does not enter git-ignored folders (a .venv would cost thousands of watches), yet a prompt file or a skill
    // there is pinned: the editor's own watcher, which watches the workspace anyway, reports what changes in them.
    this.ignoredFolders = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root.uri, '**/*'));
    // A folder created or deleted with what it holds may be one event: a new folder is walked by a full verify, and the
    // files known under a deleted one are queued.
    const inIgnoredFolder = async (uri: vscode.Uri, change: 'created' | 'changed' | 'deleted') => {
      const rel = path.relative(this.root.uri.fsPath, uri.fsPath).split(path.sep).join('/');
      const folders = rel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
      const isFolder = change === 'created' && (await stat(uri.fsPath).then((info) => info.isDirectory(), () => false));
      if (change !== 'deleted' && !isFolder) folders.pop();
      const matcher = this.state?.ws.matcher;
      if (!matcher || folders.some((folder) => matcher.isForcedOut(folder, true)) || !folders.some((folder) => excluded(folder, true))) return;
      if (isFolder) this.full = true;
      const known = change === 'deleted' ? [...this.state!.digests.keys(), ...Object.keys(this.state!.lock?.files ?? {})].filter((file) => file.startsWith(`${rel}/`)) : [];
      for (const file of [rel, ...known]) if (isFolder || inScope(this.state!, file) || matcher.isSkillMarker(file)) this.queue(file);
    };
    this.ignoredFolders.onDidCreate((uri) => void inIgnoredFolder(uri, 'created'));
    this.ignoredFolders.onDidChange((uri) => void inIgnoredFolder(uri, 'changed'));
    this.ignoredFolders.onDidDelete((uri) => void inIgnoredFolder(uri, 'deleted'));
    // Changes made while chokidar was still setting up its watches are caught by one more full verify when it is ready.
    this.watcher.on('ready', () => void this.verifyNow(true));
    this.watcher.on('error', (error) => this.output.warn(integrityLog.watcherError(this.root.name, String(error))));
  }

  /**
   * Queues a changed path (cheap: a set insert and a timer reset, so 2,000 events never block the editor). The first
   * event after a quiet spell (a save) is verified at once; the rest of a burst waits for the debounce.
   */
  queue(file: string, settling = false): void {
    this.generation++;
    this.pending.add(file);
    const quiet = !this.timer && !this.running;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, quiet ? 0 : DEBOUNCE_MS);
    // A file verified at once may have been read mid-write (truncated, then written within one mtime tick, which
    // the watcher reports once), so it is verified once more after the debounce; an unchanged result is not republished.
    if (quiet && !settling) setTimeout(() => this.disposed || this.queue(file, true), DEBOUNCE_MS);
  }

  /** Re-verifies a file the editor just saved at once, without waiting for the watcher's event and debounce. */
  async saved(file: string): Promise<void> {
    const rel = path.relative(this.root.uri.fsPath, file).split(path.sep).join('/');
    if (!this.state || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
    this.pending.add(rel);
    await this.verifyNow(false);
  }

  /** Forces a full verify now (commands, settings changes) and waits for its result. */
  async verifyNow(full = true): Promise<void> {
    this.generation++;
    this.full ||= full;
    await this.flush();
  }

  private async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.disposed) return;
    this.running = this.run().finally(() => (this.running = undefined));
    await this.running;
  }

  private async run(): Promise<void> {
    const generation = this.generation;
    const files = [...this.pending];
    this.pending.clear();
    const full = this.full || !this.state || files.length > FULL_VERIFY_ABOVE;
    this.full = false;
    try {
      this.state = full ? await verifyWorkspace(this.root.uri.fsPath, this.root.overrides()) : await reverifyPaths(this.state!, files);
    } catch (error) {
      this.output.error(integrityLog.checkFailed(this.root.name, errorMessage(error)));
      return;
    }
    // Newer events arrived while this ran: their flush will publish; a stale result is never shown.
    if (this.disposed || generation !== this.generation) return;
    // An unchanged result is not republished (a republish would cancel code-action requests in flight).
    const shown = JSON.stringify(this.state.report);
    if (shown === this.shown) return;
    this.shown = shown;
    this.onResult(this);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    void this.watcher?.close();
    this.ignoredFolders?.dispose();
  }
}
