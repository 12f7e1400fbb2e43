// `agent-immune harden [PATHS...]`: lists prompts lacking the immunity warning or a delegation boundary (--check),
// or inserts them (--write, idempotent); re-pins hardened files that the integrity lockfile pins when asked.
import { resolveHardenConfig } from '../../core/harden/config';
import { describeFinding, hardenSarifRules } from '../../core/harden/findings';
import type { HardenFinding } from '../../core/harden/types';
import { loadProjectConfig } from '../../node/config';
import { hardenPaths, pinnedAmong, repinHardened, type HardenedFile } from '../../node/harden/scan';
import { auditWriter } from '../../node/integrity/auditLog';
import { loadAuditKey } from '../../node/integrity/auditKey';
import { inline } from '../../core/text/printable';
import { existingFile, existingPath, outputFile } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { writeSarifFile } from '../sarif';

/** Schema id of the --json output (a contract: docs/hardening.md). */
export const HARDEN_SCHEMA = 'agent-immune/harden/v1';

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

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
    prompt: { kind: finding.site.kind, role: finding.site.role, anchor: finding.site.anchor },
    ...(finding.expression !== undefined ? { expression: finding.expression } : {}),
    fixable: finding.fix.length > 0,
    ...(fixed === undefined ? {} : { fixed }),
    message: describeFinding(finding),
  };
}

export const hardenCommand: Command = {
  name: 'harden',
  summary: 'find prompts lacking the immunity warning or a delegation boundary, and insert them',
  usage: `Usage: agent-immune harden [PATHS...] [--check | --write] [--json] [--sarif FILE]

Scans prompt files (SKILL.md, AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, *.instructions.md,
*.prompt.md, .cursor/rules/*.mdc) and system prompts in TypeScript/JavaScript and Python code, and
reports missing-immunity-warning and unbounded-delegation findings (docs/hardening.md). Folders are
walked with the harden.include / harden.exclude globs; a file named explicitly is always scanned.

Options:
  --check            list the findings (the default)
  --write            insert the warning and boundaries in place; a second run changes nothing
  --repin            with --write: re-pin hardened files that the lockfile pins, recorded in the audit trail
  --json             print one JSON document (schema ${HARDEN_SCHEMA})
  --sarif FILE       also write the findings as SARIF 2.1.0 to FILE
  --config FILE      project config (default: ./agent-immune.config.json when present)
  -h, --help         show this help

Exit codes: 0 nothing to harden (or all fixed), 1 findings (--check) or findings left unfixed (--write),
2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      check: { type: 'boolean' },
      write: { type: 'boolean' },
      repin: { type: 'boolean' },
      json: { type: 'boolean' },
      sarif: { type: 'string' },
      config: { type: 'string' },
    });
    if (values.check && values.write) throw new UsageError('--check and --write are exclusive');
    if (values.repin && !values.write) throw new UsageError('--repin needs --write');
    if (values.sarif === '') throw new UsageError('--sarif needs a file name');
    const root = io.cwd;
    const project = await loadProjectConfig(root, values.config && (await existingFile(root, values.config, { flag: '--config' })));
    const config = resolveHardenConfig(project.sections.harden, values.config ?? 'agent-immune.config.json');
    const targets = await Promise.all((positionals.length > 0 ? positionals : ['.']).map((p) => existingPath(root, p, {})));
    const sarif = values.sarif && (await outputFile(root, values.sarif, { flag: '--sarif' }));
    const write = values.write === true;
    const files = await hardenPaths(root, targets, config, write);

    const changed = files.filter((f) => f.changed).map((f) => f.path);
    const pins = changed.length > 0 ? await pinnedAmong(root, changed) : { pinned: [], lockfile: 'absent' as const };
    const repinned = values.repin && pins.pinned.length > 0 ? (await repinHardened(root, pins.pinned, auditWriter('agent-immune-cli', (await loadAuditKey(io.env, root))?.key))).map((r) => r.path) : [];
    const entries = files.flatMap((file) =>
      file.findings.map((finding) => {
        const left = file.unfixed?.some((u) => u.code === finding.code && (u.expression ?? '') === (finding.expression ?? '') && u.site.anchor === finding.site.anchor);
        return { file, finding, fixed: write ? !left : undefined };
      }),
    );
    const unfixed = write ? files.reduce((n, f) => n + (f.unfixed?.length ?? 0), 0) : entries.length;

    if (sarif) {
      const results = entries.map(({ file, finding }) => ({
        ruleId: finding.code,
        message: describeFinding(finding),
        path: file.path,
        line: lineColumn(file.text, finding.start).line,
        fingerprint: `${finding.code}:${file.path}:${finding.site.anchor}:${finding.expression ?? ''}`,
      }));
      await writeSarifFile(sarif, hardenSarifRules(config.severity), results);
    }

    if (values.json) {
      const report = {
        schema: HARDEN_SCHEMA,
        mode: write ? 'write' : 'check',
        files: files.length,
        prompts: files.reduce((n, f) => n + f.prompts, 0),
        findings: entries.map(({ file, finding, fixed }) => findingJson(file, finding, fixed)),
        changed,
        pinned: { lockfile: pins.lockfile, changed: pins.pinned, repinned },
      };
      io.stdout(JSON.stringify(report, null, 2) + '\n');
    } else {
      io.stdout(formatText(files, entries, write, changed, pins, repinned));
    }
    return unfixed > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

function formatText(
  files: HardenedFile[],
  entries: { file: HardenedFile; finding: HardenFinding; fixed?: boolean }[],
  write: boolean,
  changed: string[],
  pins: { pinned: string[]; lockfile: string },
  repinned: string[],
): string {
  const prompts = files.reduce((n, f) => n + f.prompts, 0);
  const lines = entries
    .filter(({ fixed }) => !write || !fixed)
    .map(({ file, finding }) => {
      const at = lineColumn(file.text, finding.start);
      return `${inline(file.path)}:${at.line}:${at.column}  ${finding.severity}  ${finding.code}  ${inline(describeFinding(finding))}`;
    });
  if (!write) {
    const withFindings = new Set(entries.map((e) => e.file.path)).size;
    lines.push(
      entries.length === 0
        ? `Hardened: ${prompts} prompt(s) in ${files.length} file(s) carry the warning and their boundaries.`
        : `${entries.length} finding(s) in ${withFindings} of ${files.length} file(s) (${prompts} prompts). Run "agent-immune harden --write" to fix them.`,
    );
  } else {
    const fixed = entries.filter((e) => e.fixed).length;
    lines.push(fixed === 0 && lines.length === 0 ? `Nothing to change: ${prompts} prompt(s) in ${files.length} file(s) are hardened.` : `Fixed ${fixed} finding(s) in ${changed.length} file(s).`);
    if (lines.length > 1) lines.push(`${entries.length - fixed} finding(s) need a manual fix (no safe text edit).`);
    const notRepinned = pins.pinned.filter((p) => !repinned.includes(p));
    if (notRepinned.length > 0) {
      lines.push(`Pinned file(s) changed, so their hash no longer matches the lockfile: ${notRepinned.join(', ')}.`, 'Re-run with --repin (or run "agent-immune lock") to approve the new content.');
    }
    if (repinned.length > 0) lines.push(`Re-pinned ${repinned.join(', ')} (recorded in the audit trail).`);
    if (pins.lockfile === 'corrupt') lines.push('The lockfile is corrupt: pins of the changed files were not checked (run "agent-immune verify").');
  }
  return lines.join('\n') + '\n';
}
