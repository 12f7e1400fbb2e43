// Checks files as their documents open and change, and publishes the diagnostics of each check, for every feature
// that lints text (hardening, the propagation monitor): one debounce timer per file, and a generation per file so a
// result computed before a newer check started, or for an older version of the document, is never published.
import * as vscode from 'vscode';
import { errorMessage } from '../core/errors';

/** What one check of a file produced: its diagnostics, and the value a feature keeps (findings and their fixes). */
export interface CheckResult<T> {
  diagnostics: vscode.Diagnostic[];
  value: T;
}

/** A feature's check of one file: undefined when the file is not its business (its diagnostics are cleared). */
export type Check<T> = (uri: vscode.Uri, document: vscode.TextDocument | undefined) => Promise<CheckResult<T> | undefined>;

/** One feature's checker and diagnostic collection. */
export class DocumentChecker<T> implements vscode.Disposable {
  readonly collection: vscode.DiagnosticCollection;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();
  private readonly values = new Map<string, { version: number | undefined; value: T }>();

  /** `name` names the collection (agent-immune-<name>), `label` the feature in log lines; `check` checks one file. */
  constructor(
    name: string,
    private readonly label: string,
    private readonly check: Check<T>,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.collection = vscode.languages.createDiagnosticCollection(`agent-immune-${name}`);
  }

  /** Checks `uri` after `delayMs` without a newer schedule for it (0: on the next turn); failures are logged. */
  schedule(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.checkNow(uri).catch((error: unknown) => this.output.error(`${this.label} check of ${uri.fsPath} failed: ${errorMessage(error)}`));
      }, delayMs),
    );
  }

  /** Checks `uri` now and publishes the result, unless a newer check started or the document changed meanwhile. */
  async checkNow(uri: vscode.Uri): Promise<T | undefined> {
    const key = uri.toString();
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    const document = openDocument(uri);
    const version = document?.version;
    const result = await this.check(uri, document);
    if (this.generations.get(key) !== generation || document?.isClosed || (document && document.version !== version)) return undefined;
    if (!result) {
      this.values.delete(key);
      this.collection.delete(uri);
      return undefined;
    }
    this.values.set(key, { version, value: result.value });
    this.collection.set(uri, result.diagnostics);
    return result.value;
  }

  /** The value of the last check of the document at its current version, checked now when missing or stale. */
  async valueFor(document: vscode.TextDocument): Promise<T | undefined> {
    const known = this.values.get(document.uri.toString());
    if (known && known.version === document.version) return known.value;
    return this.checkNow(document.uri);
  }

  /** Forgets a file: its pending check, kept value and diagnostics. */
  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.values.delete(key);
    this.collection.delete(uri);
  }

  /** Drops every value and diagnostic (settings or config changed); the caller schedules the re-checks. */
  clear(): void {
    this.values.clear();
    this.collection.clear();
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.collection.dispose();
  }
}

/** The open document of a file, if any. */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}
