// Data shapes of prompt hardening: file kinds, prompt sites, findings and the text edits that fix them.
import type { Severity } from '../findings';
import type { StringLiteral } from './lexer';

/** The kinds of file prompts are found in. */
export type PromptFileKind = 'markdown' | 'typescript' | 'python';

/** Stable finding codes (a contract: docs/hardening.md), each described in findings.ts. */
export type HardenCode = 'missing-immunity-warning' | 'unbounded-delegation';

/** A replacement of `text[start, end)` by `newText` (an insertion when start === end). */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** An interpolation of outside content into a prompt: `${peerReply}`, `{peer_output}`, `{{ upstream }}`. */
export interface Interpolation {
  start: number;
  end: number;
  expression: string;
  /** The literal it sits in (code only), for encoding the boundary text. */
  literal?: StringLiteral;
}

/** A prompt found in a file: the whole Markdown body, or the string literal(s) of a system prompt in code. */
export interface PromptSite {
  kind: PromptFileKind;
  /** `system` for system prompts (they need the warning); `message` for other prompt text (checked for delegation only). */
  role: 'system' | 'message';
  /** What made it a prompt: the file name, the variable or key name, or `role: system`. */
  anchor: string;
  start: number;
  end: number;
  /** The string literals of the prompt, in order (code only). */
  literals: StringLiteral[];
  interpolations: Interpolation[];
  /** Names concatenated onto the prompt (`"..." + EXTRA`), so a referenced warning constant counts. */
  references: string[];
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
  /** The edits that fix it; empty when no safe text edit exists (for example a raw string that cannot hold the text). */
  fix: TextEdit[];
}
