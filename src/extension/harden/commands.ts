// The hardening commands: Insert Immunity Warning (active prompt or selection), Insert Delegation Boundary
// (selection), Harden All Prompts (workspace, previewed), and the re-pin step that follows edits to pinned files.
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { analyzeProject, boundaryEdits, fixAll, literalAt, warningInsertionAt } from '../../core/harden/analyze';
import { fileKindOf, type PromptFileMatcher } from '../../core/harden/config';
import { HARDEN_FINDINGS, inFixOrder } from '../../core/harden/findings';
import { hardenLog, hardenNotice, notCheckedSummary, otherLanguagesSummary } from '../../core/harden/messages';
import { otherLanguagesUnder } from '../../node/harden/scan';
import type { TextEdit } from '../../core/harden/types';
import { showInfo } from '../notify';
import type { Services } from '../services';
import { CommandId } from '../ids';
import type { HardenDiagnostics } from './diagnostics';
import { addEdits, beforeEditing, offerRepin, positionsOf } from './edits';

/** Options of Harden All Prompts (for tests and scripted use): preview off applies without the refactor preview. */
export interface HardenAllOptions {
  preview?: boolean;
  repin?: 'ask' | 'always' | 'never';
}

/** What Harden All Prompts did. */
export interface HardenAllResult {
  files: number;
  findings: number;
  changed: string[];
  applied: boolean;
  repinned: string[];
  /** The prompt sinks it could not check, as `path:line anchor`. */
  notChecked: string[];
  /** The paths it could not read (links out of the folder, unreadable files). */
  notRead: string[];
  /** The findings it has no safe edit for, as `path:line code` (a message object handed whole to a run). */
  manual: string[];
  /** Source files of languages harden does not read that mention instructions or a system prompt, by language. */
  otherLanguages: Record<string, number>;
  /** The prompts found, system prompts and the others (user turns, messages). */
  prompts: { system: number; other: number };
}

async function applyToDocument(document: vscode.TextDocument, edits: readonly TextEdit[], services: Services): Promise<boolean> {
  if (edits.length === 0) return false;
  const edit = new vscode.WorkspaceEdit();
  addEdits(edit, document.uri, (offset) => document.positionAt(offset), edits);
  const edited = await beforeEditing([document.uri]);
  const applied = await vscode.workspace.applyEdit(edit);
  if (applied) await offerRepin(edited, services);
  return applied;
}

/** Inserts the warning into the prompt under the cursor (or the file's prompt), else at the selection. */
async function insertImmunityWarning(services: Services, diagnostics: HardenDiagnostics): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return false;
  const { document, selection } = editor;
  const text = document.getText();
  const found = await diagnostics.findingsFor(document);
  const kind = found?.kind ?? fileKindOf(document.uri.path);
  const offset = document.offsetAt(selection.start);
  const under = (site: { start: number; end: number }) => kind === 'markdown' || (site.start <= offset && offset <= site.end);
  const site = found?.prompts.find((p) => p.role === 'system' && under(p));
  if (site) {
    if (site.hardened) {
      void showInfo(hardenNotice.alreadyHardened);
      return false;
    }
    const finding = found!.findings.find((f) => f.code === 'missing-immunity-warning' && f.site.start === site.start);
    if (finding) return applyToDocument(document, finding.fix, services);
  }
  const literal = kind === 'typescript' || kind === 'python' ? literalAt(text, kind, offset) : undefined;
  return applyToDocument(document, warningInsertionAt(text, offset, literal), services);
}

/** Wraps the selection in the delegation boundary (encoded for the string literal it sits in), or fixes the finding under the cursor. */
async function insertDelegationBoundary(services: Services, diagnostics: HardenDiagnostics): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return false;
  const { document, selection } = editor;
  const text = document.getText();
  const start = document.offsetAt(selection.start);
  const end = document.offsetAt(selection.end);
  if (selection.isEmpty) {
    const finding = (await diagnostics.findingsFor(document))?.findings.find((f) => f.code === 'unbounded-delegation' && f.start <= start && start <= f.end);
    if (finding) return applyToDocument(document, finding.fix, services);
    void showInfo(hardenNotice.selectDelegated);
    return false;
  }
  const kind = fileKindOf(document.uri.path);
  const literal = kind === 'typescript' || kind === 'python' ? literalAt(text, kind, start) : undefined;
  const inside = literal && end <= literal.contentEnd ? literal : undefined;
  return applyToDocument(document, boundaryEdits(text, { start, end, expression: text.slice(start, end), literal: inside }), services);
}

/** Adds the folder's source files of languages harden does not read that mention prompts to `counts`, as the CLI says them. */
async function countOtherLanguages(folder: vscode.WorkspaceFolder, matcher: PromptFileMatcher, counts: Record<string, number>): Promise<void> {
  const root = await realpath(folder.uri.fsPath).catch(() => folder.uri.fsPath);
  for (const [language, n] of Object.entries(await otherLanguagesUnder(root, matcher))) counts[language] = (counts[language] ?? 0) + n;
}

/** Scans every workspace folder and applies all fixes as one workspace edit, shown in the refactor preview first. */
async function hardenAllPrompts(services: Services, diagnostics: HardenDiagnostics, options: HardenAllOptions = {}): Promise<HardenAllResult> {
  const edit = new vscode.WorkspaceEdit();
  const result: HardenAllResult = {
    files: 0, findings: 0, changed: [], applied: false, repinned: [], notChecked: [], notRead: [], manual: [], otherLanguages: {}, prompts: { system: 0, other: 0 },
  };
  const uris: vscode.Uri[] = [];
  const preview = options.preview !== false;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const { config, matcher } = await diagnostics.configFor(folder.uri);
    const sources = await diagnostics.sourcesFor(folder);
    const unreadable = await sources.resync();
    const walked = await sources.files();
    const firstPass = analyzeProject(walked, config, () => true, sources.cache);
    // The prompt files the code reads at run time are hardened too, as the CLI hardens them.
    const readAtRunTime = await sources.readAtRunTime(walked, firstPass);
    const files = [...walked, ...readAtRunTime];
    const analyses = readAtRunTime.length > 0 ? analyzeProject(files, config, () => true, sources.cache) : firstPass;
    const texts = new Map(files.map((f) => [f.path, f.text]));
    for (const { path: rel, reason } of unreadable) {
      const at = vscode.workspace.asRelativePath(vscode.Uri.joinPath(folder.uri, rel));
      result.notRead.push(at);
      services.output.warn(hardenLog.notRead(at, reason));
    }
    for (const analysis of analyses) {
      result.files++;
      for (const prompt of analysis.prompts) result.prompts[prompt.role === 'system' ? 'system' : 'other']++;
      const text = texts.get(analysis.path)!;
      const at = vscode.workspace.asRelativePath(vscode.Uri.joinPath(folder.uri, analysis.path));
      // As the CLI lists them: a file that cannot be analysed is not read, a sink whose value cannot be read is not checked.
      if (analysis.error) {
        result.notRead.push(at);
        services.output.warn(hardenLog.notRead(at, analysis.error));
      }
      const findings = analysis.findings;
      const manual = findings.filter((f) => f.fix.length === 0);
      const lineOf = analysis.unread.length > 0 || manual.length > 0 ? positionsOf(text) : undefined;
      for (const u of analysis.unread) {
        const where = `${at}:${lineOf!(u.start).line + 1}`;
        result.notChecked.push(`${where} ${u.anchor}`);
        services.output.warn(hardenLog.sinkNotChecked(where, u.anchor, u.reason));
      }
      for (const f of manual) result.manual.push(`${at}:${lineOf!(f.start).line + 1} ${f.code}`);
      if (findings.length === 0 || fixAll(text, findings).text === text) continue;
      result.findings += findings.length;
      const uri = vscode.Uri.joinPath(folder.uri, analysis.path);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const positionAt = open ? (offset: number) => open.positionAt(offset) : positionsOf(text);
      for (const finding of inFixOrder(findings)) {
        const metadata = { needsConfirmation: preview, label: HARDEN_FINDINGS[finding.code].fixLabel, description: vscode.workspace.asRelativePath(uri) };
        addEdits(edit, uri, positionAt, finding.fix, metadata);
      }
      uris.push(uri);
      result.changed.push(vscode.workspace.asRelativePath(uri));
    }
    await countOtherLanguages(folder, matcher, result.otherLanguages);
  }
  const others = otherLanguagesSummary(result.otherLanguages);
  if (others) services.output.warn(others);
  const notChecked = notCheckedSummary(result.notChecked.length, result.notRead.length);
  const withOthers = (notice: string) => (others ? `${notice} ${others}` : notice);
  if (uris.length === 0) {
    const { system, other } = result.prompts;
    const notice = result.manual.length > 0 ? hardenNotice.onlyManual(result.manual.length, notChecked) : hardenNotice.allHardened(result.files, system, other, notChecked);
    void showInfo(withOthers(notice));
    return result;
  }
  const edited = await beforeEditing(uris);
  result.applied = await vscode.workspace.applyEdit(edit, { isRefactoring: preview });
  if (result.applied && (notChecked || others || result.manual.length > 0)) void showInfo(withOthers(hardenNotice.hardenedSome(uris.length, notChecked, result.manual.length)));
  if (result.applied && options.repin !== 'never') result.repinned = await offerRepin(edited, services, options.repin !== 'always');
  return result;
}

/** Registers the hardening commands. */
export function registerHardenCommands(services: Services, diagnostics: HardenDiagnostics): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand(CommandId.InsertImmunityWarning, () => insertImmunityWarning(services, diagnostics)),
    vscode.commands.registerCommand(CommandId.InsertDelegationBoundary, () => insertDelegationBoundary(services, diagnostics)),
    vscode.commands.registerCommand(CommandId.HardenAllPrompts, (options?: HardenAllOptions) => hardenAllPrompts(services, diagnostics, options)),
    // The quick fixes pass the hash of the file as saved when they were offered, before their edit.
    vscode.commands.registerCommand(CommandId.RepinHardened, (uri: vscode.Uri, before?: readonly string[]) => offerRepin([{ uri, before }], services)),
  );
}
