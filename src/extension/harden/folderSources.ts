// The files of a workspace folder as the hardening analysis reads them: every prompt-kind file the folder's globs
// take, read once through the workspace file-system layer and kept up to date by a file watcher; open documents
// replace their file's text. Scanned modules are cached between checks, so a re-check rescans only what changed.
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProjectFile } from '../../core/harden/analyze';
import { PROMPT_FILE_WATCH_GLOB, type PromptFileMatcher } from '../../core/harden/config';
import type { FileAnalysis, PromptFileKind } from '../../core/harden/types';
import type { ModuleCache } from '../../core/harden/project';
import { listPromptFiles, promptFilesReadAtRunTime, readPromptFile, type SkippedPath } from '../../node/harden/scan';

const exists = (abs: string) => lstat(abs).then(() => true, () => false);

/** The prompt-kind files of one folder, with their texts. */
export class FolderSources implements vscode.Disposable {
  readonly cache: ModuleCache = new Map();
  private loaded?: Promise<Map<string, ProjectFile>>;
  /** The prompt files that could not be read, folder-relative, with why (too large, binary, permission denied). */
  private readonly unread = new Map<string, string>();
  private readonly watcher: vscode.FileSystemWatcher;
  private readonly saves: vscode.Disposable;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Saves whose text is being taken into the folder's files. */
  private readonly pendingSaves = new Set<Promise<void>>();
  /** Fires after a file of the folder changed on disk (other documents' findings may depend on it). */
  readonly onDidChange = this.emitter.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly matcher: PromptFileMatcher,
  ) {
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, PROMPT_FILE_WATCH_GLOB));
    const refresh = (uri: vscode.Uri) => void this.refresh(uri);
    this.watcher.onDidChange(refresh);
    this.watcher.onDidCreate(refresh);
    this.watcher.onDidDelete(refresh);
    // A save is known at once: the watcher's event may come after the next analysis (Harden All twice in a row), and
    // the next analysis waits for the saves under way to be taken in.
    this.saves = vscode.workspace.onDidSaveTextDocument((document) => {
      const taken = this.saved(document);
      this.pendingSaves.add(taken);
      void taken.finally(() => this.pendingSaves.delete(taken));
    });
  }

  private async saved(document: vscode.TextDocument): Promise<void> {
    if (!this.loaded || document.uri.scheme !== 'file' || !this.holds(document.uri)) return;
    const map = await this.loaded;
    const rel = this.relative(document.uri);
    const kind = this.matcher.kindOf(rel);
    // A saved symlink is still a symlink: the same check as for an open document keeps it out.
    if (kind && (await this.readable(rel))) {
      map.set(rel, { path: rel, kind, text: document.getText() });
      this.unread.delete(rel);
    } else map.delete(rel);
  }

  /** Whether `uri` lies in this folder (by URI: the folder object may be a newer one than the one this was made with). */
  private holds(uri: vscode.Uri): boolean {
    return vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() === this.folder.uri.toString();
  }

  private relative(uri: vscode.Uri): string {
    return path.relative(this.folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
  }

  private load(): Promise<Map<string, ProjectFile>> {
    this.loaded ??= (async () => {
      const root = await realpath(this.folder.uri.fsPath);
      const { files } = await listPromptFiles(root, this.matcher);
      const map = new Map<string, ProjectFile>();
      for (const { file, kind } of files) await this.readInto(map, root, file, kind);
      return map;
    })();
    return this.loaded;
  }

  private async refresh(uri: vscode.Uri): Promise<void> {
    if (!this.loaded) return;
    const map = await this.loaded;
    const rel = this.relative(uri);
    const kind = this.matcher.kindOf(rel);
    const root = await realpath(this.folder.uri.fsPath).catch(() => this.folder.uri.fsPath);
    const read = kind ? await readPromptFile(root, path.join(root, rel)) : undefined;
    this.unread.delete(rel);
    if (kind && read && 'text' in read) map.set(rel, { path: rel, kind, text: read.text });
    else {
      map.delete(rel);
      // A file that is gone is not unread; one that is there and cannot be read is.
      if (read && 'reason' in read && (await exists(path.join(root, rel)))) this.unread.set(rel, read.reason);
    }
    this.emitter.fire();
  }

  /**
   * The folder's files for one analysis: open documents' current text in place of what is on disk. An open document
   * the folder's scan has not read yet joins only when the workspace file layer can read it: a symlink, or a path
   * through one, stays out, so no finding (and no Harden All edit) writes through it to a file outside the folder.
   */
  async files(): Promise<ProjectFile[]> {
    const map = await this.load();
    await Promise.all(this.pendingSaves);
    const open = this.openTexts();
    const files = [...map.values()].map((f) => (open.has(f.path) ? { ...f, text: open.get(f.path)! } : f));
    for (const [rel, text] of open) {
      const kind = this.matcher.kindOf(rel);
      if (kind && !map.has(rel) && (await this.readable(rel))) files.push({ path: rel, kind, text });
    }
    return files;
  }

  /**
   * The prompt files the code of `files` reads into system prompts at run time (`analyses` say which) that `files` lacks,
   * as Markdown prompt files: an open document's current text, else the file on disk (never through a link), as the CLI
   * reads them.
   */
  async readAtRunTime(files: readonly ProjectFile[], analyses: readonly FileAnalysis[]): Promise<ProjectFile[]> {
    const root = await realpath(this.folder.uri.fsPath).catch(() => undefined);
    if (root === undefined) return [];
    const known = new Set(files.map((f) => f.path));
    const open = this.openTexts();
    const found = await promptFilesReadAtRunTime(root, this.matcher, analyses, (rel) => known.has(rel));
    return found.map(({ rel, read }) => ({ path: rel, kind: 'markdown', text: open.get(rel) ?? read.text }));
  }

  /** The current text of the folder's open documents, by folder-relative path. */
  private openTexts(): Map<string, string> {
    const open = new Map<string, string>();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === 'file' && this.holds(document.uri)) open.set(this.relative(document.uri), document.getText());
    }
    return open;
  }

  /** Reads one listed prompt file into `map`, or records why it could not be read. */
  private async readInto(map: Map<string, ProjectFile>, root: string, file: string, kind: PromptFileKind): Promise<void> {
    const read = await readPromptFile(root, file);
    const rel = path.relative(root, file).split(path.sep).join('/');
    if ('text' in read) map.set(rel, { path: rel, kind, text: read.text });
    else this.unread.set(rel, read.reason);
  }

  /**
   * Walks the folder afresh and brings the files up to date with it: a folder deleted or moved outside the editor
   * reports no event for the files it held. Returns the paths the analysis could not read, sorted: the symbolic links
   * and unreadable folders the walk met, and the prompt files that could not be read.
   */
  async resync(): Promise<SkippedPath[]> {
    const map = await this.load();
    const root = await realpath(this.folder.uri.fsPath);
    const { files, skipped } = await listPromptFiles(root, this.matcher);
    const listed = new Set(files.map(({ file }) => path.relative(root, file).split(path.sep).join('/')));
    for (const rel of [...map.keys(), ...this.unread.keys()]) {
      if (listed.has(rel)) continue;
      map.delete(rel);
      this.unread.delete(rel);
    }
    for (const { file, kind } of files) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (!map.has(rel) && !this.unread.has(rel)) await this.readInto(map, root, file, kind);
    }
    const unread = [...this.unread].map(([rel, reason]) => ({ path: rel, reason }));
    return [...skipped, ...unread].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Whether the workspace file layer reads this folder-relative path as a regular file inside the folder. */
  private async readable(rel: string): Promise<boolean> {
    const root = await realpath(this.folder.uri.fsPath).catch(() => undefined);
    return root !== undefined && 'text' in (await readPromptFile(root, path.join(root, rel)));
  }

  /** The path of a document relative to the folder (POSIX). */
  pathOf(uri: vscode.Uri): string {
    return this.relative(uri);
  }

  dispose(): void {
    this.watcher.dispose();
    this.saves.dispose();
    this.emitter.dispose();
  }
}
