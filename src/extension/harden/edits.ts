// Turns core text edits (offsets) into editor edits, and re-pins hardened files that the lockfile pins.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineLocator } from '../../core/text/lineIndex';
import { errorMessage } from '../../core/errors';
import { hardenLog, hardenNotice } from '../../core/harden/messages';
import type { TextEdit } from '../../core/harden/types';
import { integrityNotice } from '../../core/integrity/messages';
import { pinnedAmong, repinHardened } from '../../node/harden/scan';
import { pinnableHashes } from '../../node/integrity/hashFile';
import { editorAuditWriter } from '../integrity/auditKey';
import { showError, showWarning } from '../notify';
import type { BaseServices } from '../services';

/** Position lookup for a text that may not be open in an editor. */
export function positionsOf(text: string): (offset: number) => vscode.Position {
  const locate = lineLocator(text);
  return (offset) => {
    const { line, column } = locate(offset);
    return new vscode.Position(line, column);
  };
}

/** Adds core edits for one file to a workspace edit, with optional metadata (label, preview confirmation). */
export function addEdits(
  target: vscode.WorkspaceEdit,
  uri: vscode.Uri,
  positionAt: (offset: number) => vscode.Position,
  edits: readonly TextEdit[],
  metadata?: vscode.WorkspaceEditEntryMetadata,
): void {
  for (const edit of edits) target.replace(uri, new vscode.Range(positionAt(edit.start), positionAt(edit.end)), edit.newText, metadata);
}

/** Folder root and POSIX relative path of a file, when it is inside a workspace folder. */
export function workspacePath(uri: vscode.Uri): { root: string; relative: string } | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || uri.scheme !== 'file') return undefined;
  return { root: folder.uri.fsPath, relative: path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/') };
}

/** True when the file is pinned in its folder's integrity lockfile (false when there is none or it is unreadable). */
export async function isPinned(uri: vscode.Uri): Promise<boolean> {
  const where = workspacePath(uri);
  if (!where) return false;
  return (await pinnedAmong(where.root, [where.relative])).pinned.length > 0;
}

/**
 * Whether the document's text is on disk, saving it if needed. VS Code saves the files a refactoring touched by itself
 * (`files.refactoring.autoSave`); while that save is under way ours returns false, so wait for the document to be clean.
 */
async function savedToDisk(document: vscode.TextDocument, timeoutMs = 5000): Promise<boolean> {
  if (!document.isDirty || (await document.save())) return true;
  for (const started = Date.now(); document.isDirty && Date.now() - started < timeoutMs; ) await new Promise((resolve) => setTimeout(resolve, 50));
  return !document.isDirty;
}

/**
 * The hashes a pin of the file a hardening edit starts from may hold (pinnableHashes): the saved file, when its editor
 * holds no unsaved change (an unsaved change would be approved with the edit, so it counts as a drift: undefined).
 */
export async function savedHashes(uri: vscode.Uri): Promise<string[] | undefined> {
  if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty)) return undefined;
  return readFile(uri.fsPath).then((bytes) => pinnableHashes(bytes, uri.fsPath), () => undefined);
}

/** A file hardening edited, with the hash of what was saved on disk before the edit. */
export interface EditedFile {
  uri: vscode.Uri;
  before: readonly string[] | undefined;
}

/** Each file with the hash of the content an edit starts from, taken before it is applied. */
export async function beforeEditing(uris: readonly vscode.Uri[]): Promise<EditedFile[]> {
  return Promise.all(uris.map(async (uri) => ({ uri, before: await savedHashes(uri) })));
}

/**
 * After hardening changed pinned files: says their hash changed and offers to re-pin them now (saving them first);
 * `confirm: false` re-pins without asking. A file whose saved content before the edit no longer matched its pin is
 * not re-pinned (that would approve a change made before hardening). Returns the re-pinned paths.
 */
export async function offerRepin(edited: readonly EditedFile[], services: BaseServices, confirm = true): Promise<string[]> {
  const output = services.output;
  const pinned: vscode.Uri[] = [];
  const before = new Map(edited.map((file) => [file.uri.toString(), file.before]));
  for (const { uri } of edited) if (await isPinned(uri)) pinned.push(uri);
  if (pinned.length === 0) return [];
  const names = pinned.map((uri) => vscode.workspace.asRelativePath(uri)).join(', ');
  if (!vscode.workspace.isTrusted) {
    void showWarning(hardenNotice.repinUntrusted(names));
    return [];
  }
  if (confirm) {
    const choice = await showWarning(hardenNotice.repinQuestion(names, pinned.length), hardenNotice.repin, hardenNotice.later);
    if (choice !== hardenNotice.repin) return [];
  }
  const repinned: string[] = [];
  for (const uri of pinned) {
    // Not `workspace.textDocuments`: a document the edit just opened may not be listed there yet, and re-pinning its old
    // disk content would leave drift once it is saved. openTextDocument returns the edited document itself.
    if (!(await savedToDisk(await vscode.workspace.openTextDocument(uri)))) {
      output.error(hardenLog.repinUnsaved(vscode.workspace.asRelativePath(uri)));
      continue;
    }
    const where = workspacePath(uri)!;
    try {
      const result = await repinHardened(where.root, [{ rel: where.relative, before: before.get(uri.toString()) }], await editorAuditWriter(services, where.root));
      repinned.push(...result.repinned.map((r) => r.path));
      for (const file of result.drifted) {
        output.warn(hardenLog.repinDrifted(file));
        void showWarning(hardenNotice.repinDrifted(file));
      }
    } catch (error) {
      output.error(hardenLog.repinFailed(where.relative, errorMessage(error)));
      void showError(integrityNotice.cannotRepin(where.relative, errorMessage(error)));
    }
  }
  if (repinned.length > 0) output.info(hardenLog.repinned(repinned));
  return repinned;
}
