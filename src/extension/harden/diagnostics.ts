// Hardening diagnostics: re-checks prompt files as they open and change (debounced, stale results dropped by the
// shared DocumentChecker) and keeps each document's findings, with their fixes, for the code actions.
import * as vscode from 'vscode';
import { hardenText } from '../../core/harden/analyze';
import type { HardenConfig, PromptFileMatcher } from '../../core/harden/config';
import { describeFinding, HARDEN_FINDINGS } from '../../core/harden/findings';
import type { HardenFinding, PromptFileKind } from '../../core/harden/types';
import { findingDiagnostic } from '../diagnostics';
import { DocumentChecker } from '../documentChecker';
import { affects, setting } from '../settings';
import { documentKind, hardenConfigFor } from './settings';

/** A document's findings at the version they were computed for. */
export interface DocumentFindings {
  kind: PromptFileKind;
  findings: HardenFinding[];
}

/** The range a finding is shown on: the interpolation, the literal(s), or the first line of a Markdown prompt. */
export function findingRange(document: vscode.TextDocument, finding: HardenFinding): vscode.Range {
  const start = document.positionAt(finding.start);
  if (finding.site.kind === 'markdown' && HARDEN_FINDINGS[finding.code].attach === 'prompt') return document.lineAt(start.line).range;
  return new vscode.Range(start, document.positionAt(finding.end));
}

/** The diagnostic of one finding. */
function toDiagnostic(document: vscode.TextDocument, finding: HardenFinding): vscode.Diagnostic {
  return findingDiagnostic(findingRange(document, finding), describeFinding(finding), finding.severity, finding.code, HARDEN_FINDINGS[finding.code].docs);
}

/** Owns the hardening checker and the per-folder configs. */
export class HardenDiagnostics implements vscode.Disposable {
  private readonly configs = new Map<string, Promise<{ config: HardenConfig; matcher: PromptFileMatcher }>>();
  private readonly checker: DocumentChecker<DocumentFindings>;

  constructor(private readonly output: vscode.LogOutputChannel) {
    this.checker = new DocumentChecker('harden', 'Hardening', (uri, document) => this.check(uri, document), output);
  }

  /** Subscribes to document and configuration events and checks the documents already open. */
  register(subscriptions: vscode.Disposable[]): void {
    subscriptions.push(
      this,
      vscode.workspace.onDidOpenTextDocument((d) => this.checker.schedule(d.uri, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.checker.schedule(e.document.uri, 300)),
      vscode.workspace.onDidCloseTextDocument((d) => this.checker.forget(d.uri)),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.uri.path.endsWith('/agent-immune.config.json')) this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'harden')) this.reset();
      }),
    );
    this.reset();
  }

  /** The config and matcher for the folder of `uri` (cached until settings or the config file change). */
  configFor(uri: vscode.Uri): Promise<{ config: HardenConfig; matcher: PromptFileMatcher }> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const key = folder?.uri.toString() ?? '';
    let entry = this.configs.get(key);
    if (!entry) {
      entry = hardenConfigFor(folder, this.output);
      this.configs.set(key, entry);
    }
    return entry;
  }

  /** Findings of the document at its current version (computed now when missing or stale). */
  findingsFor(document: vscode.TextDocument): Promise<DocumentFindings | undefined> {
    return this.checker.valueFor(document);
  }

  /** Drops cached configs and re-checks every open document. */
  reset(): void {
    this.configs.clear();
    this.checker.clear();
    for (const document of vscode.workspace.textDocuments) this.checker.schedule(document.uri, 0);
  }

  private async check(uri: vscode.Uri, document: vscode.TextDocument | undefined) {
    if (!document) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const { config, matcher } = await this.configFor(uri);
    const kind = documentKind(document, folder, matcher);
    if (!kind || !setting('harden.enabled', folder)) return undefined;
    const findings = hardenText(document.getText(), kind, vscode.workspace.asRelativePath(uri), config);
    return { diagnostics: findings.map((finding) => toDiagnostic(document, finding)), value: { kind, findings } };
  }

  dispose(): void {
    this.checker.dispose();
  }
}
