// Prompt hardening over a project: discovers the prompts of every file (code by its sinks, YAML agent configs,
// notebooks, Markdown prompt files), reports those without the immunity warning and each place another agent's
// output enters a prompt outside a boundary, and computes the text edits that fix each finding.
import type { HardenConfig } from './config';
import { discoverCode, type CrewInput, type FoundDelegation, type FoundPrompt } from './discover';
import { containsImmunityWarning, isInsideBoundary } from './detect';
import { encodeForLiteral } from './encode';
import { inFixOrder } from './findings';
import { enclosingGuards } from './guards';
import { tokenize, type CodeLanguage, type StringLiteral } from './lexer';
import { fencedRanges, frontMatterEnd, isJinjaTemplate, jinjaOpening, markdownInsertion, markdownPlaceholders } from './markdown';
import { notebookOffset, notebookSource, notebookText, withinOneString, type NotebookSource } from './notebook';
import { dirOf, joinPath, ProjectModel, type CodeSource, type ModuleCache } from './project';
import { delegatedByName, nameWords, readReason } from './resolve';
import { escapeRegExp } from '../regexSafety';
import { DELEGATION_BOUNDARY_LABEL, DELEGATION_CLOSE_TAG, DELEGATION_OPEN_TAG, MIND_VIRUS_IMMUNITY_WARNING } from './texts';
import type { FileAnalysis, HardenFinding, PromptFileKind, PromptSite, TextEdit } from './types';
import { discoverYaml, mayHoldPrompts, yamlBoundaryEdits, yamlPlaceholders, yamlWarningEdit, type YamlDiscovery } from './yaml';

/** One file handed to the analysis: its path (POSIX, relative to the project root), kind and text. */
export interface ProjectFile {
  path: string;
  kind: PromptFileKind;
  text: string;
}

/** A span of text to wrap in a boundary: an interpolation, a placeholder, or a selection. */
export interface Interpolation {
  start: number;
  end: number;
  expression: string;
  /** The literal it sits in (code only), for encoding the boundary text. */
  literal?: StringLiteral;
}

/** Why a fix is left to the user, by cause; each reads after "no automatic fix: ". */
const MANUAL = {
  raw: 'the string is raw, so it cannot hold the inserted text (a line break, quote or backslash)',
  tableRow: 'the placeholder sits in a Markdown table row, which a boundary on lines of its own would split',
  glued: 'the placeholder is part of a word, path or URL (`file://{path}`), which a boundary on lines of its own would break',
  appended: 'the prompt opens with a value computed at run time, and this text is appended to it (`+=`): the warning belongs where that value is written',
  wholeInput: (value: string) => `\`${value}\` is the whole input of a runnable, which may take a dict, and wrapping it would make it a string`,
  messageObject: (value: string) => `\`${value}\` reads as a message object handed whole to the agent, and wrapping it would make it a string`,
  multipart: (value: string, type: string) => `\`${value}\` is the content of a ${type}, which may hold images or other parts, and wrapping it would make it a string`,
  compound: (value: string) => `\`${value}\` is not a plain name or call, so wrapping it could change what it means`,
  bytes: (value: string) => `\`${value}\` goes to the stdin of a process started without text=True, which takes bytes, and wrapping it would make it a str`,
  notebookLines: 'the edit would cross a line of the notebook cell\'s source',
  noLiteral: 'it sits in no string literal the fix can edit',
  yaml: 'no edit of this YAML scalar keeps its value',
  conditional: (statement: string) => `the template opens with {% ${statement} %}, so it may render nothing, and a warning in front would always render: put it where the text is`,
  extends: (parent: string) => `the template extends ${parent}, which harden does not read, and Jinja drops text outside a child's blocks: the warning goes in ${parent}`,
} as const;

/** The finding's fix, with the reason it is left to the user when there is no edit. */
function fixOr(edits: TextEdit[], why: string): Pick<HardenFinding, 'fix' | 'manual'> {
  return edits.length > 0 ? { fix: edits } : { fix: [], manual: why };
}

/** OpenAI's switch that turns markdown back on for reasoning models, with the line break or space after it. */
const FORMATTING_SWITCH = /^Formatting re-enabled\.?(?:\r?\n|\\n| )/i;

/** The edit inserting the immunity warning into a code literal: on its own line in multi-line literals, else in front. */
function literalWarningEdit(text: string, literal: StringLiteral): TextEdit | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // OpenAI's "Formatting re-enabled" switch works only as the developer message's first line: the warning goes after it.
  const formatting = FORMATTING_SWITCH.exec(text.slice(literal.contentStart, literal.contentEnd))?.[0].length ?? 0;
  if (formatting > 0) {
    const warning = encodeForLiteral(`${MIND_VIRUS_IMMUNITY_WARNING}\n\n`, literal);
    const at = literal.contentStart + formatting;
    return warning === undefined ? undefined : { start: at, end: at, newText: warning };
  }
  const content = text.slice(literal.contentStart, literal.contentEnd);
  const insideHole = (at: number) => literal.holes.some((hole) => at > hole.start && at < hole.end);
  if (literal.multiline) {
    // The opening line break may follow a line continuation (`"""\` and agno's `""" \`): the warning goes on the next line.
    const lead = /^([ \t]*\\?\r?\n)([ \t]*)/.exec(content);
    const warning = encodeForLiteral(MIND_VIRUS_IMMUNITY_WARNING, literal);
    if (warning === undefined) return undefined;
    if (lead && !insideHole(literal.contentStart + lead[1].length)) {
      const at = literal.contentStart + lead[1].length;
      return { start: at, end: at, newText: `${lead[2]}${warning}${eol}${eol}` };
    }
    // The text that opened on the quotes' line moves down to the indentation of the lines after it, so that
    // `inspect.cleandoc` (a docstring: DSPy's instructions) and `dedent` still find one common indentation.
    const newText = content.trim() === '' ? warning : `${warning}${eol}${eol}${laterLinesIndent(content)}`;
    return { start: literal.contentStart, end: literal.contentStart, newText };
  }
  const newText = encodeForLiteral(content === '' ? MIND_VIRUS_IMMUNITY_WARNING : `${MIND_VIRUS_IMMUNITY_WARNING}\n\n`, literal);
  return newText === undefined ? undefined : { start: literal.contentStart, end: literal.contentStart, newText };
}

/** The indentation every non-blank line after the first shares ('' when there is none). */
function laterLinesIndent(content: string): string {
  const indents = content.split(/\r?\n/).slice(1).filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0]);
  return indents.length === 0 ? '' : indents.reduce((a, b) => (b.length < a.length ? b : a));
}

/**
 * The edits wrapping an interpolation in the delegation boundary: the label and opening tag before it, the closing tag
 * after, each on lines of their own (a line break is added where the interpolation sits mid-line).
 */
export function boundaryEdits(text: string, found: Interpolation): TextEdit[] {
  const interpolation = aroundFence(text, found);
  const literal = interpolation.literal;
  // The label and tags take the indentation of the interpolation's line (`  {itinerary}`, `    Draft: {draft}`): at
  // column 0 they would stop `dedent(...)` from taking the prompt's indentation off.
  const lineStart = text.slice(Math.max(literal?.contentStart ?? 0, interpolation.start - 400), interpolation.start);
  const real = lineStart.lastIndexOf('\n');
  const escaped = lineStart.lastIndexOf('\\n');
  const lineFrom = Math.max(real < 0 ? -1 : real + 1, escaped < 0 ? -1 : escaped + 2);
  const onLine = lineFrom < 0 ? undefined : lineStart.slice(lineFrom);
  const indent = onLine === undefined ? '' : /^[ \t]*/.exec(onLine)![0];
  const lineBefore = onLine !== undefined && /^[ \t]*$/.test(onLine);
  const lineAfter = /^(?:\r?\n|\\n)/.test(text.slice(interpolation.end, interpolation.end + 2));
  const atEnd = literal ? interpolation.end >= literal.contentEnd : interpolation.end >= text.length;
  const before = `${lineBefore ? '' : `\n${indent}`}${DELEGATION_BOUNDARY_LABEL}\n${indent}${DELEGATION_OPEN_TAG}\n${indent}`;
  const after = `\n${indent}${DELEGATION_CLOSE_TAG}${lineAfter || atEnd ? '' : `\n${indent}`}`;
  const encodedBefore = literal ? encodeForLiteral(before, literal) : before;
  const encodedAfter = literal ? encodeForLiteral(after, literal) : after;
  if (encodedBefore === undefined || encodedAfter === undefined) return [];
  return [
    { start: interpolation.start, end: interpolation.start, newText: encodedBefore },
    { start: interpolation.end, end: interpolation.end, newText: encodedAfter },
  ];
}

/** How far back the line of an interpolation is looked for. */
const LINE_LOOKBACK = 8192;

/**
 * Why a boundary on lines of its own would break the line an interpolation sits in (a Markdown table row, the word,
 * path or URL it is glued to); undefined when it would not.
 */
function splitByBoundary(text: string, found: Interpolation): string | undefined {
  const from = found.literal?.contentStart ?? 0;
  const to = found.literal?.contentEnd ?? text.length;
  // The line back to its start (a table row's cells may run long), within a bound a hostile one-line file cannot stretch.
  const before = text.slice(Math.max(from, found.start - LINE_LOOKBACK), found.start);
  const escaped = before.lastIndexOf('\\n');
  const line = before.slice(Math.max(before.lastIndexOf('\n') + 1, escaped < 0 ? 0 : escaped + 2));
  if (/^[ \t]*\|/.test(line)) return MANUAL.tableRow;
  // An escape (`\n`, `\t`) before or after is white space, not a word.
  const glued = (line !== '' && /[\w/:.@#=?&%~-]$/.test(line) && !/\\[ntr]$/.test(line)) || (found.end < to && /^[\w/]/.test(text.slice(found.end, found.end + 1)));
  return glued ? MANUAL.glued : undefined;
}

/**
 * An interpolation inside a fenced code block (ADK's "```python\n{generated_code}\n```") is bounded fence and all: the
 * label and tags go outside the fence, where they read as prose.
 */
function aroundFence(text: string, interpolation: Interpolation): Interpolation {
  const literal = interpolation.literal;
  const fence = fencedRanges(literal ? text.slice(0, literal.contentEnd) : text, literal?.contentStart ?? 0).find(([a, b]) => interpolation.start >= a && interpolation.end <= b);
  return fence ? { ...interpolation, start: fence[0], end: fence[1] } : interpolation;
}

const BOUNDARY_PREFIX = `${DELEGATION_BOUNDARY_LABEL}\\n${DELEGATION_OPEN_TAG}\\n`;
const BOUNDARY_SUFFIX = `\\n${DELEGATION_CLOSE_TAG}`;

/** A value its name says is a message object, not text (`input_msg`, `response.msg`). */
const MESSAGE_OBJECT = /(?:^|[._])msg$/i;

/** The edits wrapping a whole value or a `+` operand in code (a new string around it). */
function valueBoundaryEdits(text: string, start: number, end: number, language: 'python' | 'typescript', operand: boolean): TextEdit[] {
  const value = text.slice(start, end);
  if (operand) {
    if (!/^[\p{L}_$][\p{L}\p{N}_$.]*(?:\(.*\)|\[.*\])*$/su.test(value.trim())) return [];
    return [
      { start, end: start, newText: `"${BOUNDARY_PREFIX}" + ` },
      { start: end, end, newText: ` + "${BOUNDARY_SUFFIX}"` },
    ];
  }
  if (language === 'typescript') return [{ start, end, newText: `\`${BOUNDARY_PREFIX}\${${value}}${BOUNDARY_SUFFIX}\`` }];
  return [{ start, end, newText: `"${BOUNDARY_PREFIX}" + str(${value}) + "${BOUNDARY_SUFFIX}"` }];
}

/**
 * The findings and edits of a Markdown prompt file (the whole body is the prompt). A Jinja template that opens by
 * extending or including a prompt file of the project (`isPromptFile`) has the warning from it; one that opens by
 * extending another template, or with a condition or loop, is left to the user.
 */
function markdownAnalysis(file: ProjectFile, config: HardenConfig, isPromptFile: (name: string, from: string) => boolean): FileAnalysis {
  const text = file.text;
  const bodyStart = frontMatterEnd(text);
  const start = bodyStart + (/^\s*/.exec(text.slice(bodyStart))?.[0].length ?? 0);
  const anchor = file.path.slice(file.path.lastIndexOf('/') + 1);
  const opening = isJinjaTemplate(file.path) ? jinjaOpening(text, start) : undefined;
  const inherited = opening !== undefined && 'name' in opening && isPromptFile(opening.name, file.path);
  const hardened = inherited || containsImmunityWarning(text.slice(start));
  const role = namesUserTurn(anchor) ? 'message' : 'system';
  const site: PromptSite = { kind: 'markdown', role, anchor, framework: 'prompt file', start, end: text.length, byName: false, hardened };
  const findings: HardenFinding[] = [];
  if (!hardened && role === 'system') {
    const { at, newText } = markdownInsertion(text, MIND_VIRUS_IMMUNITY_WARNING);
    const manual = opening?.how === 'extends' ? MANUAL.extends(opening.name) : opening?.how === 'if' || opening?.how === 'for' ? MANUAL.conditional(opening.how) : undefined;
    const fix = manual ? fixOr([], manual) : { fix: [{ start: at, end: at, newText }] };
    findings.push({ code: 'missing-immunity-warning', severity: config.severity['missing-immunity-warning'], start, end: text.length, site, ...fix });
  }
  const scope = text.slice(start);
  for (const placeholder of markdownPlaceholders(text, start)) {
    if (!delegatedByName(placeholder.expression)) continue;
    if (isInsideBoundary(scope, placeholder.start - start, placeholder.end - start)) continue;
    const split = splitByBoundary(text, placeholder);
    findings.push({
      code: 'unbounded-delegation', severity: config.severity['unbounded-delegation'], start: placeholder.start, end: placeholder.end, site,
      expression: placeholder.expression, source: `named ${placeholder.expression}`, scope: { start, end: text.length }, ...(split ? fixOr([], split) : fixOr(boundaryEdits(text, placeholder), MANUAL.raw)),
    });
  }
  return { path: file.path, kind: 'markdown', prompts: [site], findings, unread: [] };
}

/** A prompt file named as the user's turn (`user_prompt.j2`, `summary_user_message.txt`): a message, not a system prompt. */
function namesUserTurn(fileName: string): boolean {
  const words = nameWords(fileName.replace(/\.[^.]*$/, ''));
  return words.some((word, i) => word === 'user' && (i === words.length - 1 || ['prompt', 'message', 'msg', 'template', 'turn', 'input'].includes(words[i + 1])));
}

/** The findings of a YAML file, given the state keys other agents write (for ADK `{key}` placeholders). */
function yamlAnalysis(file: ProjectFile, found: YamlDiscovery, stateKeys: ReadonlyMap<string, string>, crewInputs: readonly CrewInput[], config: HardenConfig): FileAnalysis {
  const analysis: FileAnalysis = { path: file.path, kind: 'yaml', prompts: [], findings: [], unread: [] };
  if (found.error) return { ...analysis, error: `not valid YAML: ${found.error}` };
  const text = file.text;
  for (const prompt of found.prompts) {
    const primary = prompt.scalars[0];
    const site: PromptSite = { kind: 'yaml', role: prompt.role, anchor: prompt.anchor, framework: prompt.framework, start: primary.start, end: primary.end, byName: false, hardened: prompt.hardened };
    analysis.prompts.push(site);
    if (prompt.role === 'system' && !prompt.hardened) {
      analysis.findings.push({ code: 'missing-immunity-warning', severity: config.severity['missing-immunity-warning'], start: primary.start, end: primary.end, site, ...fixOr(yamlWarningEdit(text, primary), MANUAL.yaml) });
    }
    for (const scalar of prompt.scalars) {
      for (const ph of yamlPlaceholders(text, scalar, prompt.placeholders)) {
        const writer = prompt.placeholders === 'adk-state' ? stateKeys.get(ph.name) : undefined;
        // A CrewAI task's `{x}` is filled by the inputs its crew is kicked off with, from a file whose folder holds this one.
        const input = prompt.framework === 'CrewAI' ? crewInputs.find((c) => c.key === ph.name && file.path.startsWith(c.dir)) : undefined;
        const source = prompt.delegated?.[ph.name] ?? (writer ? `state key "${ph.name}" ${writer}` : input ? `crew input "${ph.name}", ${input.why}` : delegatedByName(ph.name) ? `named ${ph.name}` : undefined);
        if (!source) continue;
        analysis.findings.push({
          code: 'unbounded-delegation', severity: config.severity['unbounded-delegation'], start: ph.start, end: ph.end, site, expression: ph.name, source,
          scope: { start: scalar.start, end: scalar.end }, ...fixOr(yamlBoundaryEdits(text, scalar, ph.start, ph.end), MANUAL.yaml),
        });
      }
    }
  }
  return analysis;
}

/** The site of a code prompt in the file of its first literal. */
function codeSite(prompt: FoundPrompt, kind: PromptFileKind, text: string): PromptSite {
  const { start, end } = literalRun(text, prompt);
  const sink = prompt.sink.file !== prompt.primary.file ? { path: prompt.sink.file, start: prompt.sink.start } : undefined;
  const { role, anchor, framework, byName, hardened } = prompt;
  return { kind, role, anchor, framework, start, end, sink, byName, hardened };
}

/** The run of adjacent literals around the prompt's first (`"a" "b"`, `"a" + "b"` over lines): the prompt's text in this file. */
function literalRun(text: string, prompt: FoundPrompt): { start: number; end: number } {
  const pieces = prompt.pieces.filter((p) => p.file === prompt.primary.file && !p.nested).map((p) => p.literal).sort((a, b) => a.start - b.start);
  let i = pieces.indexOf(prompt.primary.literal);
  if (i === -1) return { start: prompt.primary.literal.start, end: prompt.primary.literal.end };
  let j = i;
  const joins = (a: StringLiteral, b: StringLiteral) => b.start >= a.end && /^[\s+()\\]*$/.test(text.slice(a.end, b.start));
  while (i > 0 && joins(pieces[i - 1], pieces[i])) i--;
  while (j < pieces.length - 1 && joins(pieces[j], pieces[j + 1])) j++;
  return { start: pieces[i].start, end: pieces[j].end };
}

/** The fix of a delegation in code, or why there is none. */
function delegationFix(text: string, found: FoundDelegation, language: 'python' | 'typescript'): Pick<HardenFinding, 'fix' | 'manual'> {
  const c = found.candidate;
  if (c.kind === 'hole' || c.kind === 'placeholder') {
    if (!c.literal) return fixOr([], MANUAL.noLiteral);
    const interpolation: Interpolation = { start: c.start, end: c.end, expression: c.text, literal: c.literal };
    const split = splitByBoundary(text, interpolation);
    return split ? fixOr([], split) : fixOr(boundaryEdits(text, interpolation), MANUAL.raw);
  }
  // A message object handed whole to an agent's run or to an agent (`role_play_session.step(input_msg)`,
  // `ChatAgent(sys_msg)`: CAMEL's BaseMessage) would become a string: the finding stands, with no automatic fix. Where
  // the slot takes text (`"content": msg`), it is fixed.
  if (c.kind !== 'operand' && found.prompt.framework !== 'chat API' && MESSAGE_OBJECT.test(c.text.trim())) return fixOr([], MANUAL.messageObject(c.text.trim()));
  // A value handed whole to a runnable known only as a model call (`step.invoke(result)` in a pipeline of steps) that
  // may be a dict the step reads as such: wrapping it would make it a string (Upsonic's chains then raised TypeError).
  if (found.wholeInput) return fixOr([], MANUAL.wholeInput(c.text.trim()));
  if (found.prompt.bytes) return fixOr([], MANUAL.bytes(c.text.trim()));
  // The content of a multi-part message (`elif isinstance(m, MultiModalMessage): UserMessage(content=m.content)`) is a
  // list of text and images: `str(…)` would turn the images into their repr.
  const multipart = language === 'python' && c.kind !== 'operand' ? multipartGuard(text, c) : undefined;
  if (multipart) return fixOr([], MANUAL.multipart(c.text.trim(), multipart));
  // An awaited value (`content=await template.render(…)`) is wrapped with its `await`: wrapping only the operand would
  // await a string (a TypeError at run time) and never await the call.
  const awaited = c.kind === 'operand' ? undefined : /\bawait\s+$/.exec(text.slice(Math.max(0, c.start - 40), c.start));
  const start = awaited ? c.start - awaited[0].length : c.start;
  const edits = valueBoundaryEdits(text, start, c.end, language, c.kind === 'operand');
  // A shorthand property (`{ instructions }`) keeps its key: `{ instructions: \`…${instructions}…\` }`.
  const shorthand = c.expr?.k === 'name' && c.expr.shorthand === true;
  return fixOr(shorthand ? edits.map((edit) => ({ ...edit, newText: `${c.text}: ${edit.newText}` })) : edits, MANUAL.compound(c.text.trim()));
}

/** Message classes whose content is a list of parts (text, images, audio), not text. */
const MULTIPART_CLASS = /multi_?modal|image|audio|video|vision|multipart/i;

/** The multi-part class an `isinstance` test around a message's content (`m.content`) says the message is, if any. */
function multipartGuard(text: string, c: FoundDelegation['candidate']): string | undefined {
  const root = /^([A-Za-z_]\w*)\.content$/.exec(c.text.trim())?.[1];
  if (!root) return undefined;
  for (const guard of enclosingGuards(text, c.start)) {
    if (guard.name === root && 'classes' in guard) return guard.classes.find((name) => MULTIPART_CLASS.test(name));
  }
  return undefined;
}

/** Moves a notebook finding from code offsets to file offsets (a fix that would cross a cell line is dropped). */
function toNotebook(finding: HardenFinding, source: NotebookSource): HardenFinding {
  const mappable = finding.fix.every((e) => withinOneString(source, e.start, e.end));
  const map = (offset: number) => notebookOffset(source, offset);
  return {
    ...finding,
    start: map(finding.start),
    end: map(finding.end),
    site: { ...finding.site, start: map(finding.site.start), end: map(finding.site.end) },
    ...(finding.scope ? { scope: { start: map(finding.scope.start), end: map(finding.scope.end) } } : {}),
    ...(mappable ? { fix: finding.fix.map((e) => ({ start: map(e.start), end: map(e.end), newText: notebookText(e.newText) })) } : fixOr([], MANUAL.notebookLines)),
  };
}

/**
 * Analyses a project: every file in `files` is read as context (imports, callers, state keys); findings are
 * reported for the files `report` selects (all by default). One file that cannot be analysed gets an error of its
 * own and does not stop the others. `cache` keeps scanned modules between calls (the editor's re-checks).
 */
export function analyzeProject(files: readonly ProjectFile[], config: HardenConfig, report: (path: string) => boolean = () => true, cache?: ModuleCache): FileAnalysis[] {
  const notebooks = new Map<string, NotebookSource>();
  const sources: CodeSource[] = [];
  const results = new Map<string, FileAnalysis>();
  const yamls = new Map<string, YamlDiscovery>();
  const stateKeys = new Map<string, string>();
  for (const file of files) {
    if (file.kind === 'python' || file.kind === 'typescript') sources.push({ path: file.path, language: file.kind, text: file.text });
    else if (file.kind === 'notebook') {
      // Nothing imports a notebook: one that is not reported is no context for the others (and may be megabytes).
      if (!report(file.path)) continue;
      const source = notebookSource(file.text);
      if (source && source.language !== 'other') {
        notebooks.set(file.path, source);
        sources.push({ path: file.path, language: source.language, text: source.code });
      } else if (report(file.path)) {
        // A notebook of another language (C#, R ...) is read and holds nothing harden reads, like a .cs file.
        results.set(file.path, { path: file.path, kind: 'notebook', prompts: [], findings: [], unread: [], ...(source ? {} : { error: 'not a notebook (its JSON or its cells could not be read)' }) });
      }
    } else if (file.kind === 'yaml' && mayHoldPrompts(file.text)) {
      const found = discoverYaml(file.text, file.path);
      yamls.set(file.path, found);
      for (const [key, who] of found.outputKeys) stateKeys.set(key, who);
    }
  }
  const project = new ProjectModel(sources, cache);
  // Sinks that can reach a reported file's literals are in that file, in files importing it, or in files it imports.
  const reported = sources.map((s) => s.path).filter(report);
  const sinkFiles = reported.length === sources.length ? reported : [...project.neighbourhood(reported)];
  const code = discoverCode(project, sinkFiles, new RegExp(config.systemPromptNames, 'i'), stateKeys);
  for (const [key, who] of code.stateKeys) if (!stateKeys.has(key)) stateKeys.set(key, who);

  const codeKinds = new Map(files.map((f) => [f.path, f.kind]));
  const ensure = (path: string): FileAnalysis => {
    let entry = results.get(path);
    if (!entry) {
      entry = { path, kind: codeKinds.get(path) ?? 'python', prompts: [], findings: [], unread: [] };
      results.set(path, entry);
    }
    return entry;
  };
  for (const prompt of code.prompts) {
    const path = prompt.primary.file;
    if (!report(path)) continue;
    const entry = ensure(path);
    const site = codeSite(prompt, entry.kind, project.source(path)!.text);
    entry.prompts.push(site);
    if (prompt.role === 'system' && !prompt.hardened) {
      const edit = prompt.primary.appended ? undefined : literalWarningEdit(project.source(path)!.text, prompt.primary.literal);
      const why = prompt.primary.appended ? MANUAL.appended : MANUAL.raw;
      entry.findings.push({ code: 'missing-immunity-warning', severity: config.severity['missing-immunity-warning'], start: site.start, end: site.end, site, ...fixOr(edit ? [edit] : [], why) });
    }
  }
  for (const found of code.delegations) {
    const path = found.candidate.file;
    if (!report(path)) continue;
    const entry = ensure(path);
    // One value reached by two sinks (`new Agent({ name, instructions })`: the constructor and the agent config) is one finding.
    if (entry.findings.some((f) => f.code === 'unbounded-delegation' && f.start === found.candidate.start && f.end === found.candidate.end)) continue;
    const source = project.source(path)!;
    const site = found.prompt.primary && found.prompt.primary.file === path
      ? codeSite(found.prompt, entry.kind, source.text)
      : {
          kind: entry.kind, role: found.prompt.role, anchor: found.prompt.anchor, framework: found.prompt.framework,
          start: found.candidate.start, end: found.candidate.end, byName: found.prompt.byName, hardened: found.prompt.hardened,
        };
    // A prompt that is delegated content alone (no literal of its own) is a prompt too: --write makes it one.
    if (!found.prompt.primary && !entry.prompts.some((p) => p.start === site.start && p.end === site.end)) entry.prompts.push(site);
    entry.findings.push({
      code: 'unbounded-delegation', severity: config.severity['unbounded-delegation'], start: found.candidate.start, end: found.candidate.end, site,
      expression: found.candidate.text, source: found.why, scope: found.context, ...delegationFix(source.text, found, source.language),
    });
  }
  // A prompt read from a prompt file of the project is checked in that file; any other read is listed as not checked.
  const promptFiles = new Set(files.filter((f) => f.kind === 'markdown').map((f) => f.path));
  const checkedThere = (read: { from: string; path: string }) => [joinPath(dirOf(read.from), read.path), joinPath('', read.path)].some((p) => p !== undefined && promptFiles.has(p));
  for (const sink of code.unresolved) {
    if (!report(sink.file)) continue;
    const checked = new Set(sink.reads.filter(checkedThere).map((read) => readReason(read.path)));
    const left = sink.reasons.filter((reason) => !checked.has(reason));
    if (left.length === 0) continue;
    const unreadFile = sink.reads.some((read) => readReason(read.path) === left[0]);
    const entry = ensure(sink.file);
    for (const read of sink.reads) {
      if (checkedThere(read)) continue;
      // `./x.md` is beside the reading file; a bare relative path may be from either folder.
      const candidates = read.path.startsWith('./') ? [joinPath(dirOf(read.from), read.path)] : [joinPath(dirOf(read.from), read.path), joinPath('', read.path)];
      for (const candidate of candidates) if (candidate !== undefined && !(entry.readsPromptsFrom ??= []).includes(candidate)) entry.readsPromptsFrom.push(candidate);
    }
    const unread = { start: sink.start, anchor: sink.anchor, reason: left[0] + (unreadFile ? ' (not a prompt file of the project that harden reads)' : '') };
    // One sink reached twice (a kwargs dict passed to two calls) is listed once.
    const list = entry.unread;
    if (!list.some((u) => u.start === unread.start && u.anchor === unread.anchor && u.reason === unread.reason)) list.push(unread);
  }
  for (const [path, message] of code.failed) if (report(path)) ensure(path).error = `could not be analysed: ${message}`;

  for (const file of files) {
    if (!report(file.path)) continue;
    if (file.kind === 'markdown') results.set(file.path, markdownAnalysis(file, config, (name, from) => checkedThere({ from, path: name })));
    else if (file.kind === 'yaml') {
      const found = yamls.get(file.path);
      results.set(file.path, found ? yamlAnalysis(file, found, stateKeys, code.crewInputs, config) : { path: file.path, kind: 'yaml', prompts: [], findings: [], unread: [] });
    } else if (!results.has(file.path)) results.set(file.path, { path: file.path, kind: file.kind, prompts: [], findings: [], unread: [] });
  }
  for (const [path, source] of notebooks) {
    const entry = results.get(path);
    if (!entry) continue;
    entry.findings = entry.findings.map((f) => toNotebook(f, source));
    entry.prompts = entry.prompts.map((p) => ({ ...p, start: notebookOffset(source, p.start), end: notebookOffset(source, p.end) }));
    entry.unread = entry.unread.map((u) => ({ ...u, start: notebookOffset(source, u.start) }));
  }
  for (const entry of results.values()) entry.findings.sort((a, b) => a.start - b.start || (a.code === b.code ? 0 : a.code === 'missing-immunity-warning' ? -1 : 1));
  return files.filter((f) => report(f.path)).map((f) => results.get(f.path)!).filter(Boolean);
}

/** All findings for one file's text, each with its fix, as if the file were the whole project. */
export function hardenText(text: string, kind: PromptFileKind, fileName: string, config: HardenConfig): HardenFinding[] {
  return analyzeProject([{ path: fileName, kind, text }], config)[0]?.findings ?? [];
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
  return applyEdits(text, fixEdits(findings));
}

/** The label as a boundary's opening edit writes it, with the line break and indentation after it in any encoding (a
 * blank line too, as in a YAML folded scalar; a notebook's JSON-escaped "\\n" as a line break). */
const LABEL_IN_EDIT = new RegExp(`${escapeRegExp(DELEGATION_BOUNDARY_LABEL)}(?:(?:(?:(?:\\\\r)?\\\\n|\\r?\\n)[ \\t]*)+| )`);

/**
 * The edits that fix `findings` together, in fix order: a boundary after another in the same text carries only its
 * tags, since the first one's label ("the content between the delegated_task tags below …") covers it.
 */
export function fixEdits(findings: readonly HardenFinding[]): TextEdit[] {
  const labelled: { start: number; end: number; at: number }[] = [];
  const sharesLabel = (f: HardenFinding) => f.scope !== undefined && labelled.some((l) => l.start === f.scope!.start && l.end === f.scope!.end && l.at < f.start);
  const boundaries = findings.filter((f) => f.code === 'unbounded-delegation' && f.fix.length > 0).sort((a, b) => a.start - b.start);
  const trimmed = new Map<HardenFinding, TextEdit[]>();
  // Two placeholders in one fenced block are bounded fence and all, by the same edits: the block is wrapped once.
  const spans = new Set<string>();
  for (const f of boundaries) {
    const span = `${f.fix[0].start}:${f.fix[f.fix.length - 1].end}`;
    if (spans.has(span)) {
      trimmed.set(f, []);
      continue;
    }
    spans.add(span);
    if (sharesLabel(f) && LABEL_IN_EDIT.test(f.fix[0].newText)) trimmed.set(f, [{ ...f.fix[0], newText: f.fix[0].newText.replace(LABEL_IN_EDIT, '') }, ...f.fix.slice(1)]);
    else if (f.scope && LABEL_IN_EDIT.test(f.fix[0].newText)) labelled.push({ ...f.scope, at: f.start });
  }
  return inFixOrder(findings).flatMap((f) => trimmed.get(f) ?? f.fix);
}

/** The edit inserting the immunity warning as its own paragraph at `offset`, encoded for the literal when inside one. */
export function warningInsertionAt(text: string, offset: number, literal?: StringLiteral): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const newText = literal ? encodeForLiteral(`${MIND_VIRUS_IMMUNITY_WARNING}\n\n`, literal) : `${MIND_VIRUS_IMMUNITY_WARNING}${eol}${eol}`;
  return newText === undefined ? [] : [{ start: offset, end: offset, newText }];
}

/** The string literal whose content holds `offset` (top-level literals only), for edits at a cursor. */
export function literalAt(source: string, language: CodeLanguage, offset: number): StringLiteral | undefined {
  for (const token of tokenize(source, language)) {
    if (token.start > offset) break;
    if (token.type === 'string' && token.literal.contentStart <= offset && offset <= token.literal.contentEnd) return token.literal;
  }
  return undefined;
}
