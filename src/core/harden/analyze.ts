// Prompt hardening, one file at a time: find the prompts, report those without the immunity warning or with
// delegated content outside a boundary, and compute the text edits that fix each finding.
import { findCodePrompts, type PromptNamePatterns } from './code';
import type { HardenConfig } from './config';
import { isDelegatedExpression } from './delegation';
import { containsImmunityWarning, isInsideBoundary } from './detect';
import { encodeForLiteral } from './encode';
import { inFixOrder } from './findings';
import type { StringLiteral } from './lexer';
import { frontMatterEnd, markdownInsertion, markdownPlaceholders } from './markdown';
import { DELEGATION_BOUNDARY_LABEL, DELEGATION_CLOSE_TAG, DELEGATION_OPEN_TAG, MIND_VIRUS_IMMUNITY_WARNING } from './texts';
import type { HardenFinding, Interpolation, PromptFileKind, PromptSite, TextEdit } from './types';

/** The prompts of one file: the Markdown body, or the prompt literals found in code. */
export function findPrompts(text: string, kind: PromptFileKind, fileName: string, config: Pick<HardenConfig, 'systemPromptNames' | 'messageNames'>): PromptSite[] {
  if (kind !== 'markdown') {
    const names: PromptNamePatterns = { system: new RegExp(config.systemPromptNames, 'i'), message: new RegExp(config.messageNames, 'i') };
    return findCodePrompts(text, kind, names);
  }
  const bodyStart = frontMatterEnd(text);
  const start = bodyStart + (/^\s*/.exec(text.slice(bodyStart))?.[0].length ?? 0);
  const anchor = fileName.slice(fileName.lastIndexOf('/') + 1);
  return [{ kind, role: 'system', anchor, start, end: text.length, literals: [], interpolations: markdownPlaceholders(text, start), references: [] }];
}

/** True when the prompt carries the immunity warning, as text or as a reference to the exported constant. */
function hasWarning(text: string, site: PromptSite): boolean {
  const names = [...site.references, ...site.interpolations.map((i) => i.expression)];
  if (names.some((name) => /immunity_?warning|with_?immunity_?warning/i.test(name))) return true;
  return containsImmunityWarning(text.slice(site.start, site.end));
}

/** The edit inserting the immunity warning into a code literal: on its own line in multi-line literals, else in front. */
function literalWarningEdit(text: string, literal: StringLiteral): TextEdit | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const content = text.slice(literal.contentStart, literal.contentEnd);
  const insideHole = (at: number) => literal.holes.some((hole) => at > hole.start && at < hole.end);
  if (literal.multiline) {
    const lead = /^(\\?\r?\n)([ \t]*)/.exec(content);
    const warning = encodeForLiteral(MIND_VIRUS_IMMUNITY_WARNING, literal);
    if (warning === undefined) return undefined;
    if (lead && !insideHole(literal.contentStart + lead[1].length)) {
      const at = literal.contentStart + lead[1].length;
      return { start: at, end: at, newText: `${lead[2]}${warning}${eol}${eol}` };
    }
    const newText = content.trim() === '' ? warning : `${warning}${eol}${eol}`;
    return { start: literal.contentStart, end: literal.contentStart, newText };
  }
  const newText = encodeForLiteral(content === '' ? MIND_VIRUS_IMMUNITY_WARNING : `${MIND_VIRUS_IMMUNITY_WARNING}\n\n`, literal);
  return newText === undefined ? undefined : { start: literal.contentStart, end: literal.contentStart, newText };
}

/** The edits inserting the immunity warning into a prompt (empty when no safe edit exists). */
export function immunityWarningEdits(text: string, site: PromptSite): TextEdit[] {
  if (site.kind === 'markdown') {
    const { at, newText } = markdownInsertion(text, MIND_VIRUS_IMMUNITY_WARNING);
    return [{ start: at, end: at, newText }];
  }
  const edit = literalWarningEdit(text, site.literals[0]);
  return edit ? [edit] : [];
}

/**
 * The edits wrapping an interpolation in the delegation boundary: the label and opening tag before it, the closing tag
 * after, each on lines of their own (a line break is added where the interpolation sits mid-line).
 */
export function boundaryEdits(text: string, interpolation: Interpolation): TextEdit[] {
  const lineBefore = /(?:\n|\\n)$/.test(text.slice(Math.max(0, interpolation.start - 2), interpolation.start));
  const lineAfter = /^(?:\r?\n|\\n)/.test(text.slice(interpolation.end, interpolation.end + 2));
  const literal = interpolation.literal;
  const atEnd = literal ? interpolation.end >= literal.contentEnd : interpolation.end >= text.length;
  const before = `${lineBefore ? '' : '\n'}${DELEGATION_BOUNDARY_LABEL}\n${DELEGATION_OPEN_TAG}\n`;
  const after = `\n${DELEGATION_CLOSE_TAG}${lineAfter || atEnd ? '' : '\n'}`;
  const encodedBefore = literal ? encodeForLiteral(before, literal) : before;
  const encodedAfter = literal ? encodeForLiteral(after, literal) : after;
  if (encodedBefore === undefined || encodedAfter === undefined) return [];
  return [
    { start: interpolation.start, end: interpolation.start, newText: encodedBefore },
    { start: interpolation.end, end: interpolation.end, newText: encodedAfter },
  ];
}

/** All findings for one file's text, each with its fix. */
export function hardenText(text: string, kind: PromptFileKind, fileName: string, config: HardenConfig): HardenFinding[] {
  const findings: HardenFinding[] = [];
  for (const site of findPrompts(text, kind, fileName, config)) {
    if (site.role === 'system' && !hasWarning(text, site)) {
      findings.push({ code: 'missing-immunity-warning', severity: config.severity['missing-immunity-warning'], start: site.start, end: site.end, site, fix: immunityWarningEdits(text, site) });
    }
    const scope = text.slice(site.start, site.end);
    for (const interpolation of site.interpolations) {
      if (!isDelegatedExpression(interpolation.expression)) continue;
      if (isInsideBoundary(scope, interpolation.start - site.start, interpolation.end - site.start)) continue;
      findings.push({
        code: 'unbounded-delegation', severity: config.severity['unbounded-delegation'], start: interpolation.start, end: interpolation.end,
        site, expression: interpolation.expression, fix: boundaryEdits(text, interpolation),
      });
    }
  }
  return findings;
}

/**
 * Applies non-overlapping edits (insertions at one offset keep their given order); an edit overlapping an earlier
 * one is skipped and returned in `skipped`.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): { text: string; skipped: TextEdit[] } {
  const ordered = edits.map((edit, i) => ({ edit, i })).sort((a, b) => a.edit.start - b.edit.start || a.i - b.i);
  const skipped: TextEdit[] = [];
  let out = '';
  let cursor = 0;
  for (const { edit } of ordered) {
    if (edit.start < cursor) {
      skipped.push(edit);
      continue;
    }
    out += text.slice(cursor, edit.start) + edit.newText;
    cursor = edit.end;
  }
  return { text: out + text.slice(cursor), skipped };
}

/** The whole file with every finding fixed (warning edits before boundary edits at a shared offset). */
export function fixAll(text: string, findings: readonly HardenFinding[]): { text: string; skipped: TextEdit[] } {
  return applyEdits(text, inFixOrder(findings).flatMap((finding) => finding.fix));
}

/** The edit inserting the immunity warning as its own paragraph at `offset`, encoded for the literal when inside one. */
export function warningInsertionAt(text: string, offset: number, literal?: StringLiteral): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const newText = literal ? encodeForLiteral(`${MIND_VIRUS_IMMUNITY_WARNING}\n\n`, literal) : `${MIND_VIRUS_IMMUNITY_WARNING}${eol}${eol}`;
  return newText === undefined ? [] : [{ start: offset, end: offset, newText }];
}
