// `agent-immune harden [PATHS...]`: lists prompts lacking the immunity warning or a delegation boundary (--check),
// or inserts them (--write, idempotent), or shows that fix as a diff (--diff) or writes it as a patch (--patch FILE);
// re-pins hardened files that the integrity lockfile pins when asked.
import { stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { writingTo } from '../../core/errors';
import { resolveHardenConfig } from '../../core/harden/config';
import { countHardenFindings, describeFinding, hardenSarifRules } from '../../core/harden/findings';
import type { HardenFinding } from '../../core/harden/types';
import { nothingToHarden, notCheckedSummary, otherLanguagesSummary } from '../../core/harden/messages';
import { loadCheckedConfig } from '../../node/config';
import { hardenPaths, pinnedAmong, repinHardened, UnsupportedFileError, type HardenedFile, type SkippedPath } from '../../node/harden/scan';
import { loadAuditKey } from '../../node/integrity/auditKey';
import { auditWriter } from '../../node/integrity/auditLog';
import { inline, shellWord } from '../../core/text/printable';
import { lineLocator } from '../../core/text/lineIndex';
import { existingFile, existingPath, outputFile, refuseScannedFile } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { writeSarifFile } from '../sarif';
import { NO_FOLLOW_WRITE } from '../../node/workspaceFs';

/** Schema id of the --json output (a contract: docs/hardening.md). */
export const HARDEN_SCHEMA = 'agent-immune/harden/v1';

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  // One index for the text asked last: findings come file by file (a file of 6,000 findings was split 6,000 times).
  if (text !== located.text) Object.assign(located, { text, locate: lineLocator(text) });
  const at = located.locate(offset);
  return { line: at.line + 1, column: at.column + 1 };
}

const located = { text: undefined as string | undefined, locate: lineLocator('') };

function findingJson(file: HardenedFile, finding: HardenFinding, fixed: boolean | undefined) {
  const start = lineColumn(file.text, finding.start);
  const end = lineColumn(file.text, finding.end);
  return {
    code: finding.code,
    severity: finding.severity,
    path: file.path,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    prompt: { kind: finding.site.kind, role: finding.site.role, anchor: finding.site.anchor, framework: finding.site.framework },
    ...(finding.expression !== undefined ? { expression: finding.expression } : {}),
    ...(finding.source !== undefined ? { source: finding.source } : {}),
    fixable: finding.fix.length > 0,
    ...(finding.manual !== undefined ? { manual: finding.manual } : {}),
    ...(fixed === undefined ? {} : { fixed }),
    message: describeFinding(finding),
  };
}

/** Every prompt found, with where it is, where it goes and whether it carries the warning (a system prompt's need). */
function promptSitesJson(files: readonly HardenedFile[]) {
  return files.flatMap((file) =>
    file.analysis.prompts.map((p) => {
      const at = lineColumn(file.text, p.start);
      return { path: file.path, ...at, kind: p.kind, role: p.role, anchor: p.anchor, framework: p.framework, byName: p.byName, hardened: p.hardened };
    }),
  );
}

/** One prompt as a line of the text listing. */
function promptLine(site: ReturnType<typeof promptSitesJson>[number]): string {
  const state = site.role === 'message' ? 'other prompt (checked for delegation)' : site.hardened ? 'system prompt, has the warning' : 'system prompt, lacks the warning';
  const found = site.byName ? ', found by its name' : '';
  return `${inline(site.path)}:${site.line}:${site.column}  prompt  ${inline(site.anchor)} (${inline(site.framework)}${found})  ${state}`;
}

/** The sinks whose value could not be read, with their positions. */
function unreadJson(files: readonly HardenedFile[]) {
  return files.flatMap((file) =>
    file.analysis.unread.map((u) => ({ path: file.path, ...lineColumn(file.text, u.start), anchor: u.anchor, reason: u.reason })),
  );
}

export const hardenCommand: Command = {
  name: 'harden',
  summary: 'find prompts lacking the immunity warning or a delegation boundary, and insert them',
  usage: `Usage: agent-immune harden [PATHS...] [--check | --write | --diff | --patch FILE] [--json] [--sarif FILE]

Finds the prompts of agent code by where they go (the system/instructions parameters of the OpenAI
Agents SDK, OpenAI and Anthropic APIs, LangChain/LangGraph, AutoGen/AG2, CrewAI, Google ADK, Claude
Agent SDK, Vercel AI SDK, Semantic Kernel...), through constants, imports, functions and f-strings;
YAML agent configs (CrewAI agents.yaml, AutoGen, ADK), notebooks, and prompt files (SKILL.md, AGENTS.md,
CLAUDE.md, *.prompt.md, prompts/*.md, ...). Reports missing-immunity-warning and unbounded-delegation
findings (docs/hardening.md), and every file or prompt it could not read.

Each path is scanned from its project root (the nearest folder above it with agent-immune.config.json,
agent-immune.lock or .git): that root's config, globs (harden.include / harden.exclude, tests and
fixtures excluded by default) and lockfile apply. A file named explicitly is always scanned; one of a
kind harden does not read is an error.

Options:
  --check            list the findings (the default)
  --write            insert the warning and boundaries in place; a second run changes nothing
  --diff             print what --write would change as a unified diff, and write nothing (control
                     characters, carriage returns too, are shown escaped: to apply it, use --patch)
  --patch FILE       write what --write would change as a patch to FILE, byte for byte (git apply and
                     patch -p1 apply it), and write nothing else
  --repin            with --write: re-pin hardened files that the lockfile pins, recorded in the audit trail
  --prompts          also list every prompt found, where it goes and whether it has the warning
                     (--json always lists them, as promptSites)
  --json             print one JSON document (schema ${HARDEN_SCHEMA})
  --sarif FILE       also write the findings as SARIF 2.1.0 to FILE
  --config FILE      config for every path (default: each project root's agent-immune.config.json)
  -h, --help         show this help

Exit codes: 0 nothing to harden (or all fixed), 1 findings (--check, --diff, --patch), findings left unfixed
(--write) or files that could not be read, 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      check: { type: 'boolean' },
      write: { type: 'boolean' },
      diff: { type: 'boolean' },
      patch: { type: 'string' },
      repin: { type: 'boolean' },
      prompts: { type: 'boolean' },
      json: { type: 'boolean' },
      sarif: { type: 'string' },
      config: { type: 'string' },
    });
    const preview = values.diff === true || values.patch !== undefined;
    if ([values.check, values.write, values.diff, values.patch !== undefined].filter(Boolean).length > 1) throw new UsageError('--check, --write, --diff and --patch are exclusive');
    if (preview && (values.json || values.prompts)) throw new UsageError('--diff and --patch show a patch: not with --json or --prompts');
    if (values.repin && !values.write) throw new UsageError('--repin needs --write');
    const cwd = io.cwd;
    const explicit = values.config && (await existingFile(cwd, values.config, { flag: '--config' }));
    // Read once per project root and target: each warning is said once.
    const warned = new Set<string>();
    const warn = (line: string) => {
      if (warned.has(line)) return;
      warned.add(line);
      io.stderr(`agent-immune harden: ${line}\n`);
    };
    const configFor = async (root: string) => {
      const project = await loadCheckedConfig(root, explicit || undefined, warn);
      return resolveHardenConfig(project.sections.harden, explicit || path.join(root, 'agent-immune.config.json'));
    };
    const typed = positionals.length > 0 ? positionals : ['.'];
    const targets = await Promise.all(typed.map((p) => existingPath(cwd, p, {})));
    const sarif = await outputFile(cwd, values.sarif, { flag: '--sarif' }, [...targets, ...(explicit ? [explicit] : [])]);
    await refuseScannedFile(cwd, values.sarif, { flag: '--sarif' }, await foldersAmong(targets));
    const patchFile = await outputFile(cwd, values.patch, { flag: '--patch' }, [...targets, ...(explicit ? [explicit] : [])]);
    await refuseScannedFile(cwd, values.patch, { flag: '--patch' }, await foldersAmong(targets));
    const write = values.write === true;
    let run;
    try {
      run = await hardenPaths(cwd, targets, configFor, write ? 'write' : preview ? 'diff' : 'check');
    } catch (error) {
      if (error instanceof UnsupportedFileError) throw new UsageError(error.message);
      throw error;
    }
    const { files, skipped, otherLanguages } = run;

    const changed = files.filter((f) => f.changed);
    const pins = await pinsOf(files, changed);
    const repinned: string[] = [];
    const drifted: string[] = [];
    if (values.repin) {
      for (const [root, files] of groupByRoot(changed, pins.pinned)) {
        const writer = auditWriter('agent-immune-cli', (await loadAuditKey(io.env, root))?.key);
        const result = await repinHardened(root, files.map((f) => ({ rel: f.rel, before: f.hashes })), writer);
        repinned.push(...result.repinned.map((r) => displayOf(changed, root, r.path)));
        drifted.push(...result.drifted.map((rel) => displayOf(changed, root, rel)));
      }
    }
    const entries = files.flatMap((file) => {
      const left = write ? leftAfterWrite(file.analysis.findings, file.unfixed ?? []) : new Set<HardenFinding>();
      return file.analysis.findings.map((finding) => ({ file, finding, fixed: write ? !left.has(finding) : undefined }));
    });
    const unfixed = write ? files.reduce((n, f) => n + (f.unfixed?.length ?? 0), 0) : entries.length;

    if (sarif) {
      const results = entries.map(({ file, finding }) => ({
        ruleId: finding.code,
        message: describeFinding(finding),
        path: file.path,
        line: lineColumn(file.text, finding.start).line,
        fingerprint: `${finding.code}:${file.path}:${finding.site.anchor}:${finding.expression ?? ''}`,
      }));
      const severity = (await configFor(files[0]?.root ?? cwd)).severity;
      await writeSarifFile(sarif, hardenSarifRules(severity), results);
    }

    if (preview) {
      const { patch, left } = patchOf(changed);
      if (patchFile) await writingTo(patchFile, () => writeFile(patchFile, patch, { flag: NO_FOLLOW_WRITE }));
      else io.stdout(patch);
      for (const file of left) io.stderr(`agent-immune harden: not in the patch: ${inline(file.path)}: its path cannot be written in a patch's header (outside the current folder, or a control character in it)\n`);
      for (const { path: skippedPath, reason } of skipped) io.stderr(`agent-immune harden: skipped ${inline(skippedPath)}: ${inline(reason)}\n`);
      return entries.length > 0 || skipped.length > 0 ? ExitCode.Findings : ExitCode.Ok;
    }
    const prompts = files.flatMap((f) => f.analysis.prompts);
    const pinnedPaths = pins.pinned.map((p) => displayOf(changed, p.root, p.rel));
    if (values.json) {
      const report = {
        schema: HARDEN_SCHEMA,
        mode: write ? 'write' : 'check',
        files: files.length,
        prompts: prompts.length,
        promptsByRole: { system: prompts.filter((p) => p.role === 'system').length, message: prompts.filter((p) => p.role === 'message').length },
        promptSites: promptSitesJson(files),
        findings: entries.map(({ file, finding, fixed }) => findingJson(file, finding, fixed)),
        unread: unreadJson(files),
        skipped,
        otherLanguages,
        changed: changed.map((f) => f.path),
        pinned: { lockfile: pins.lockfile, changed: pinnedPaths, repinned, drifted },
      };
      io.stdout(JSON.stringify(report, null, 2) + '\n');
    } else {
      const next = ['agent-immune', 'harden', ...(positionals.length > 0 ? positionals : []), ...(values.config ? ['--config', values.config] : []), '--write'].map(shellWord).join(' ');
      const changedPaths = changed.map((f) => f.path);
      const listed = values.prompts ? promptSitesJson(files).map((site) => promptLine(site) + '\n').join('') : '';
      const report = { files, skipped, otherLanguages, entries, write, changed: changedPaths, pinned: pinnedPaths, lockfile: pins.lockfile, repinned, drifted, next };
      io.stdout(listed + formatText(report));
    }
    return unfixed > 0 || skipped.length > 0 || drifted.length > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

/**
 * The unified diff of the changed files as they are on disk (a byte-order mark and carriage returns kept), `a/` and
 * `b/` before paths relative to the current folder; a file outside it, or named with a control character, is left out.
 */
function patchOf(changed: readonly HardenedFile[]): { patch: string; left: HardenedFile[] } {
  const writable = (file: HardenedFile) => !file.path.startsWith('../') && !path.isAbsolute(file.path) && inline(file.path) === file.path;
  const bom = (file: HardenedFile) => (file.bom ? '\uFEFF' : '');
  const patch = changed
    .filter(writable)
    .map((f) => createTwoFilesPatch(`a/${f.path}`, `b/${f.path}`, bom(f) + f.text, bom(f) + f.fixed!, '', '', { headerOptions: FILE_HEADERS_ONLY }))
    .join('');
  return { patch, left: changed.filter((file) => !writable(file)) };
}

/** The display path of a changed file given its root and root-relative path. */
function displayOf(changed: readonly HardenedFile[], root: string, rel: string): string {
  return changed.find((f) => f.root === root && f.rel === rel)?.path ?? rel;
}

/** The changed files that are pinned, by project root. */
function groupByRoot(changed: readonly HardenedFile[], pinned: readonly { root: string; rel: string }[]): Map<string, HardenedFile[]> {
  const out = new Map<string, HardenedFile[]>();
  for (const { root, rel } of pinned) out.set(root, [...(out.get(root) ?? []), changed.find((f) => f.root === root && f.rel === rel)!]);
  return out;
}

/** The changed files each root's lockfile pins (the lockfile of the file's own project), and the state of the lockfiles of every file read. */
async function pinsOf(read: readonly HardenedFile[], changed: readonly HardenedFile[]): Promise<{ pinned: { root: string; rel: string }[]; lockfile: 'absent' | 'corrupt' | 'ok' }> {
  const pinned: { root: string; rel: string }[] = [];
  let lockfile: 'absent' | 'corrupt' | 'ok' = 'absent';
  const byRoot = new Map<string, string[]>(read.map((file) => [file.root, []]));
  for (const file of changed) byRoot.get(file.root)!.push(file.rel);
  for (const [root, rels] of byRoot) {
    const found = await pinnedAmong(root, rels);
    if (found.lockfile === 'corrupt' || lockfile === 'absent') lockfile = found.lockfile === 'absent' ? lockfile : found.lockfile;
    pinned.push(...found.pinned.map((rel) => ({ root, rel })));
  }
  return { pinned, lockfile };
}

/**
 * The findings a write left, matched to the re-check's findings by code, expression and prompt (their offsets moved).
 * Two findings alike in those (one prompt's `m.content` twice) are told apart by the fix: one without an edit is left first.
 */
function leftAfterWrite(findings: readonly HardenFinding[], unfixed: readonly HardenFinding[]): Set<HardenFinding> {
  const key = (f: HardenFinding) => `${f.code}\0${f.expression ?? ''}\0${f.site.anchor}`;
  const remaining = new Map<string, number>();
  for (const u of unfixed) remaining.set(key(u), (remaining.get(key(u)) ?? 0) + 1);
  const left = new Set<HardenFinding>();
  for (const finding of [...findings].sort((a, b) => a.fix.length - b.fix.length)) {
    const count = remaining.get(key(finding)) ?? 0;
    if (count === 0) continue;
    remaining.set(key(finding), count - 1);
    left.add(finding);
  }
  return left;
}

interface TextReport {
  files: HardenedFile[];
  skipped: SkippedPath[];
  otherLanguages: Record<string, number>;
  entries: { file: HardenedFile; finding: HardenFinding; fixed?: boolean }[];
  write: boolean;
  changed: string[];
  pinned: string[];
  lockfile: string;
  repinned: string[];
  /** Pinned files not re-pinned: their content before harden's edit no longer matched the pin. */
  drifted: string[];
  /** The command that fixes the findings, with the user's own paths. */
  next: string;
}

function formatText(r: TextReport): string {
  const prompts = r.files.flatMap((f) => f.analysis.prompts);
  const system = prompts.filter((p) => p.role === 'system').length;
  const counted = `${prompts.length} prompt(s): ${system} system, ${prompts.length - system} other`;
  const lines = r.entries
    .filter(({ fixed }) => !r.write || !fixed)
    .map(({ file, finding }) => {
      const at = lineColumn(file.text, finding.start);
      const why = finding.source ? ` (${finding.source})` : '';
      return `${inline(file.path)}:${at.line}:${at.column}  ${finding.severity}  ${finding.code}  ${inline(describeFinding(finding))}${inline(why)}`;
    });
  const unread = unreadJson(r.files);
  for (const u of unread) lines.push(`${inline(u.path)}:${u.line}:${u.column}  not checked  ${inline(u.anchor)}: ${inline(u.reason)}`);
  for (const s of r.skipped) lines.push(`${inline(s.path)}  not read  ${inline(s.reason)}`);
  const read = `${r.files.length} file(s) read`;
  const notChecked = notCheckedSummary(unread.length, r.skipped.length);
  const others = otherLanguagesSummary(r.otherLanguages);
  const caveat = `${notChecked ? ` Not checked: ${notChecked} (listed above).` : ''}${others ? ` ${others}` : ''}`;
  if (!r.write) {
    const withFindings = new Set(r.entries.map((e) => e.file.path)).size;
    if (r.entries.length > 0) {
      const kinds = countHardenFindings(r.entries.map((e) => e.finding));
      lines.push(`${r.entries.length} finding(s) (${kinds}) in ${withFindings} of ${read} (${counted}).${caveat} Run "${r.next}" to fix them.`);
    }
    else if (prompts.length === 0) lines.push(`No prompts found in ${read}.${caveat}`);
    else lines.push(`${system > 0 ? 'Hardened' : 'Nothing to harden'}: ${nothingToHarden(read, system, prompts.length - system)}.${caveat}`);
  } else {
    const fixed = r.entries.filter((e) => e.fixed).length;
    const left = r.entries.length - fixed;
    if (r.entries.length === 0) lines.push(prompts.length === 0 ? `No prompts found in ${read}; nothing to change.${caveat}` : `Nothing to change: ${nothingToHarden(read, system, prompts.length - system)}.${caveat}`);
    else lines.push(`Fixed ${fixed} finding(s) in ${r.changed.length} file(s) (${read}, ${counted}).${caveat}`);
    if (left > 0) lines.push(`${left} finding(s) need a manual fix (no safe text edit).`);
    const notRepinned = r.pinned.filter((p) => !r.repinned.includes(p) && !r.drifted.includes(p));
    if (notRepinned.length > 0) {
      lines.push(`Pinned file(s) changed, so their hash no longer matches the lockfile: ${notRepinned.map(inline).join(', ')}.`, 'Review them with "agent-immune verify" (lock would also approve any change made before harden\'s), then run "agent-immune lock" to approve the new content; --write --repin re-pins only what harden changed, as it writes.');
    }
    if (r.drifted.length > 0) {
      lines.push(`Not re-pinned: ${r.drifted.map(inline).join(', ')} no longer matched the lockfile before harden edited it (changed since it was pinned). Review that change with "agent-immune verify"; "agent-immune lock" approves it with harden's edit.`);
    }
    if (r.repinned.length > 0) lines.push(`Re-pinned ${r.repinned.map(inline).join(', ')} (recorded in the audit trail).`);
    if (r.lockfile === 'corrupt' && r.changed.length > 0) lines.push('The lockfile is corrupt: pins of the changed files were not checked (run "agent-immune verify").');
  }
  return lines.join('\n') + '\n';
}

/** The folders among the paths a run is given (their files are read too). */
async function foldersAmong(targets: readonly string[]): Promise<string[]> {
  const kinds = await Promise.all(targets.map((t) => stat(t).then((info) => info.isDirectory(), () => false)));
  return targets.filter((_, i) => kinds[i]);
}
