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
/** Quiet time after a folder is created or removed in an ignored folder before the full verify that walks it. */
const SETTLE_MS = 2000;
/** Above this many changed paths (a git checkout, a branch switch) one full verify is cheaper than many small ones. */
const FULL_VERIFY_ABOVE = 256;

/** Watches one folder and reports each fresh verify result. */
export class FolderIntegrity implements vscode.Disposable {
  state: VerifyState | undefined;
  private watcher: FSWatcher | undefined;
  private editorWatcher: vscode.FileSystemWatcher | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  /** The folders holding verified files, for the latest result (holdsPinned). */
  private pinnedFolders: Set<string> | undefined;
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
    // there is pinned: the editor's own watcher, which watches the workspace anyway, reports what changes in them. It
    // also reports deletions everywhere: chokidar never lists a file created while it was scanning the folder at start
    // (after a settings change restarts it), so that file's deletion would leave its finding shown.
    this.editorWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root.uri, '**/*'));
    // A folder created or deleted with what it holds may be one event: a full verify walks it, once the events of a
    // burst (pip install, a build) have settled; a file's own event is re-verified as any other.
    const fromEditor = async (uri: vscode.Uri, change: 'created' | 'changed' | 'deleted') => {
      const rel = path.relative(this.root.uri.fsPath, uri.fsPath).split(path.sep).join('/');
      const matcher = this.state?.ws.matcher;
      if (!matcher || rel === '' || rel.startsWith('..')) return;
      const folders = rel.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'));
      // Nothing under a folder the walk never enters (node_modules, .git) is pinned, the folder itself included.
      if (folders.concat(rel).some((folder) => matcher.isForcedOut(folder, true))) return;
      const ignored = folders.concat(rel).some((folder) => excluded(folder, true));
      if (!ignored && change !== 'deleted') return;
      if (inScope(this.state!, rel) || matcher.isSkillMarker(rel)) this.queue(rel);
      else if (change === 'deleted' ? this.holdsPinned(rel) : ignored && change === 'created' && (await stat(uri.fsPath).then((info) => info.isDirectory(), () => false))) this.settleThenVerifyAll();
    };
    this.editorWatcher.onDidCreate((uri) => void fromEditor(uri, 'created'));
    this.editorWatcher.onDidChange((uri) => void fromEditor(uri, 'changed'));
    this.editorWatcher.onDidDelete((uri) => void fromEditor(uri, 'deleted'));
    // Changes made while chokidar was still setting up its watches are caught by one more full verify when it is ready.
    this.watcher.on('ready', () => void this.verifyNow(true));
    this.watcher.on('error', (error) => this.output.warn(integrityLog.watcherError(this.root.name, String(error))));
  }

  /** True when a verified file lies under `folder` (the folders that hold them, computed once per result). */
  private holdsPinned(folder: string): boolean {
    if (!this.pinnedFolders) {
      this.pinnedFolders = new Set();
      for (const file of [...(this.state?.digests.keys() ?? []), ...Object.keys(this.state?.lock?.files ?? {})]) {
        for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) this.pinnedFolders.add(file.slice(0, slash));
      }
    }
    return this.pinnedFolders.has(folder);
  }

  /** One full verify once folder events in ignored folders have been quiet for SETTLE_MS. */
  private settleThenVerifyAll(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      if (!this.disposed) void this.verifyNow(true);
    }, SETTLE_MS);
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
      this.pinnedFolders = undefined;
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
    if (this.settleTimer) clearTimeout(this.settleTimer);
    void this.watcher?.close();
    this.editorWatcher?.dispose();
  }
}
