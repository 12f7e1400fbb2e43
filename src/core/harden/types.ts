// Data shapes of prompt hardening: file kinds, prompts found, findings, the text edits that fix them, and what
// could not be read.
import type { Severity } from '../findings';

/** What a prompt is for: `system` prompts need the immunity warning; `message` text is checked for delegation only. */
export type SinkRole = 'system' | 'message';

/** The kinds of file prompts are found in. */
export type PromptFileKind = 'markdown' | 'typescript' | 'python' | 'yaml' | 'notebook';

/** Stable finding codes (a contract: docs/hardening.md), each described in findings.ts. */
export type HardenCode = 'missing-immunity-warning' | 'unbounded-delegation';

/** A replacement of `text[start, end)` by `newText` (an insertion when start === end). */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** A prompt found in a file: where its text starts (where the warning goes) and the sink it reaches. */
export interface PromptSite {
  kind: PromptFileKind;
  /** `system` for system prompts (they need the warning); `message` for other prompt text (checked for delegation only). */
  role: 'system' | 'message';
  /** The sink as written: `Agent(instructions=)`, `role: system`, `researcher (agent)`, the file name of a prompt file. */
  anchor: string;
  /** The framework the sink belongs to (docs/hardening.md, "Sinks"). */
  framework: string;
  /** The prompt's text in this file (its first literal, scalar, or the body of a prompt file). */
  start: number;
  end: number;
  /** Where the prompt meets its sink when that is elsewhere: a path relative to the project root and an offset. */
  sink?: { path: string; start: number };
  /** Found by its name only (a constant named like a system prompt), not at a sink. */
  byName: boolean;
  hardened: boolean;
}

/** One finding: data only, worded by its code's entry in findings.ts. */
export interface HardenFinding {
  code: HardenCode;
  /** The severity the user chose for the code (default: the catalogue's). */
  severity: Severity;
  /** Range reported: the prompt for missing-immunity-warning, the interpolation for unbounded-delegation. */
  start: number;
  end: number;
  site: PromptSite;
  /** The interpolated expression (unbounded-delegation only). */
  expression?: string;
  /** Why the content is another agent's output (unbounded-delegation only). */
  source?: string;
  /** The edits that fix it; empty when no safe text edit exists (for example a raw string that cannot hold the text). */
  fix: TextEdit[];
  /** Why no safe text edit exists ("a raw string cannot hold …"): present exactly when `fix` is empty. */
  manual?: string;
  /**
   * unbounded-delegation: the text its boundary sits in (the string literal, the YAML scalar, the prompt file's body).
   * Fixed together, boundaries in one such text share the first one's label.
   */
  scope?: { start: number; end: number };
}

/** A system-prompt sink whose value could not be read, and why. */
export interface UnreadSink {
  start: number;
  anchor: string;
  reason: string;
}

/** Everything hardening found in one file. */
export interface FileAnalysis {
  path: string;
  kind: PromptFileKind;
  prompts: PromptSite[];
  findings: HardenFinding[];
  unread: UnreadSink[];
  /**
   * Files of the project this file's code reads into a system prompt at run time that were not read as prompt files
   * (`(Path(__file__).parent / "system_prompt.md").read_text()`): root-relative paths, each a candidate to read as one.
   */
  readsPromptsFrom?: string[];
  /** Set when the file could not be analysed (invalid YAML, not a notebook); nothing else is then reported. */
  error?: string;
}
