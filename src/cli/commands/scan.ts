// `agent-immune scan <trace|dir>`: advisory propagation alerts over traces and the files agents persist to; alerts are
// printed and appended to .agent-immune/alerts/anomalies.ndjson. Exit 0 (advisory) unless --fail-on-alert.
import { mkdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { InputError } from '../../core/errors';
import { buildRunModel } from '../../core/guard/model';
import { resolveMonitorConfig } from '../../core/monitor/config';
import { splitByLedger } from '../../core/monitor/cooldown';
import { monitorDocuments, monitorRun } from '../../core/monitor/monitor';
import type { MonitorFinding } from '../../core/monitor/types';
import { CONFIG_FILE_NAME } from '../../core/config';
import { loadCheckedConfig } from '../../node/config';
import { ALERT_LOG, alertRecord, appendAlertRecords, readCooldownLedger, type AlertRecord } from '../../node/monitor/alertLog';
import { collectMonitored, errorCode, isSystemError, readDocuments, type Skipped } from '../../node/monitor/collect';
import { findProjectRoot } from '../../node/projectRoot';
import { detectFileFormat, forEachRun } from '../../node/readAnyTrace';
import { existingFile, existingPath } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { formatAlerts } from '../../core/monitor/messages';
import { inline } from '../../core/text/printable';

/** The JSON output of `scan --json` (schema agent-immune/scan/v1, a documented contract). */
export interface ScanReport {
  schema: 'agent-immune/scan/v1';
  target: string;
  files: number;
  traces: number;
  /** The runs those trace files hold (a file of many runs is monitored run by run). */
  runs: number;
  alerts: AlertRecord[];
  /** Alerts written to the log now, and alerts held back because their key is still cooling down. */
  logged: number;
  cooling: number;
  log: string | null;
  /** Files and folders left out; `detail` is the system error code of an unreadable one. */
  skipped: { file: string; reason: Skipped['reason'] | 'invalid-trace' | 'symlink'; detail?: string }[];
}

export const scanCommand: Command = {
  name: 'scan',
  summary: 'advisory propagation alerts (viral personas, pass-it-on requests, verbatim spread) over traces and agent files',
  usage: `Usage: agent-immune scan <trace|dir> [options]

Looks for self-propagating "mind virus" content: viral-persona marker clusters, requests to pass content on
or persist it, the same marker across sessions, and verbatim copies spreading along a run's edges.
A trace (.jsonl, or .json in a format convert reads) is scanned run by run, agent by agent and round by
round; a folder is walked for the files agents persist to (SKILL.md, SOUL.md, AGENTS.md, memory files...:
monitor.globs) and for traces (monitor.traceGlobs, and any .json or .jsonl file whose content is a trace);
a file named on the command line that is no trace is scanned as one persisted document; symbolic links are
never followed. Alerts are appended to ${ALERT_LOG} in the project
the target belongs to (the nearest folder at or above it with ${CONFIG_FILE_NAME}, agent-immune.lock
or .git; else the target's folder), whose config is read too.

Options:
  --json             print one JSON document (schema agent-immune/scan/v1)
  --fail-on-alert    exit 1 when an alert fires (default: advisory, exit 0)
  --glob GLOB        persisted-file glob, repeatable (replaces monitor.globs)
  --config FILE      project config (default: <project>/${CONFIG_FILE_NAME} when present)
  --log FILE         alert log (default: <project>/${ALERT_LOG})
  --no-log           do not append to the alert log
  --max-file-mb N    skip persisted files larger than N MiB (default 16)
  --max-line-mb N    longest accepted trace line in MiB (default 64)
  -h, --help         show this help

Exit codes: 0 done (alerts are advisory), 1 alerts fired under --fail-on-alert, 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      json: { type: 'boolean' },
      'fail-on-alert': { type: 'boolean' },
      glob: { type: 'string', multiple: true },
      config: { type: 'string' },
      log: { type: 'string' },
      'no-log': { type: 'boolean' },
      'max-file-mb': { type: 'string' },
      'max-line-mb': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <trace|dir>' : `expected one trace or folder, got ${positionals.length}`);
    const maxFileMb = values['max-file-mb'] === undefined ? 16 : Number(values['max-file-mb']);
    if (!Number.isFinite(maxFileMb) || maxFileMb <= 0) throw new UsageError('--max-file-mb must be a positive number');
    const maxLineMb = values['max-line-mb'] === undefined ? 64 : Number(values['max-line-mb']);
    if (!Number.isFinite(maxLineMb) || maxLineMb <= 0) throw new UsageError('--max-line-mb must be a positive number');
    if (values.glob?.some((glob) => glob.trim() === '')) throw new UsageError('--glob needs a glob, not an empty string');

    const target = await existingPath(io.cwd, positionals[0], {});
    const project = await findProjectRoot(target);
    const configFile = values.config ? await existingFile(io.cwd, values.config, { flag: '--config' }) : undefined;
    const config = await loadCheckedConfig(project, configFile, (line) => io.stderr(`agent-immune scan: ${line}\n`));
    const monitor = resolveMonitorConfig(config.sections.monitor, configFile ?? path.join(project, CONFIG_FILE_NAME));
    if (values.glob) monitor.globs = values.glob;

    const display = (file: string) => {
      const rel = path.relative(io.cwd, file);
      if (rel === '') return '.';
      return (!rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file).split(path.sep).join('/');
    };
    const info = await stat(target);
    let documentFiles: string[] = [];
    let traceFiles: string[] = [];
    let unlisted: Skipped[] = [];
    let links: string[] = [];
    if (info.isDirectory()) {
      const base = path.relative(project, target).split(path.sep).join('/');
      let candidates: string[];
      ({ documents: documentFiles, traces: traceFiles, skipped: unlisted, links, candidates } = await collectMonitored(target, monitor.globs, monitor.traceGlobs, monitor.ignore, base.startsWith('..') ? '' : base));
      // A JSON or JSON Lines file the globs do not name is a trace when its content is one (a folder of debate logs).
      for (const file of candidates) {
        try {
          if (await isTrace(file)) traceFiles.push(file);
        } catch (error) {
          if (!isSystemError(error) && !(error instanceof InputError)) throw error;
        }
      }
    }
    else if (/\.jsonl?$/i.test(target) && (await isTrace(target))) traceFiles = [target];
    else documentFiles = [target];

    const found: { alert: MonitorFinding; source: string; scoped: boolean }[] = [];
    const { documents, skipped } = await readDocuments(documentFiles, display, maxFileMb * 1024 * 1024);
    // The one file named: what a folder's walk lists as skipped is this command's input refused.
    if (!info.isDirectory() && skipped.length > 0) throw new InputError(skipped[0].reason === 'binary' ? 'binary' : 'bad-path', `${positionals[0]}: ${namedFileRefused(skipped[0], maxFileMb)}`);
    for (const alert of monitorDocuments(documents, monitor)) found.push({ alert, source: alert.signal === 'propagation' ? display(target) : alert.subject, scoped: false });
    const badTraces: ScanReport['skipped'] = [];
    let runCount = 0;
    for (const file of traceFiles) {
      // Run by run, one held at a time; a file refused partway contributes no alert.
      const alerts: { alert: MonitorFinding; run: string }[] = [];
      let runs = 0;
      try {
        await forEachRun(file, { maxLineBytes: maxLineMb * 1024 * 1024 }, async (run) => {
          runs++;
          for (const alert of monitorRun(buildRunModel(run.trace()), monitor)) alerts.push({ alert, run: run.id });
        });
      } catch (error) {
        if (!info.isDirectory()) throw error;
        if (error instanceof InputError) badTraces.push({ file: display(file), reason: 'invalid-trace' });
        else if (isSystemError(error)) badTraces.push({ file: display(file), reason: 'unreadable', detail: errorCode(error) });
        else throw error;
        continue;
      }
      runCount += runs;
      for (const { alert, run } of alerts) found.push({ alert, source: runs > 1 ? `${display(file)}#${run}` : display(file), scoped: true });
    }

    const now = new Date();
    const records = found.map(({ alert, source, scoped }) => alertRecord(alert, source, now, scoped));
    const log = values['no-log'] ? undefined : await alertLogAt(project, values.log && path.resolve(io.cwd, values.log));
    const logFile = log && path.resolve(log.root, log.file);
    let logged = 0;
    let cooling = 0;
    if (log) {
      const ledger = await readCooldownLedger(log.root, log.file);
      const split = splitByLedger(records, ledger, now.getTime(), monitor.cooldownSeconds * 1000);
      await appendAlertRecords(log.root, split.fresh as AlertRecord[], log.file);
      logged = split.fresh.length;
      cooling = split.cooling.length;
    }

    const report: ScanReport = {
      schema: 'agent-immune/scan/v1',
      target: display(target),
      files: documents.length,
      traces: traceFiles.length - badTraces.length,
      runs: runCount,
      alerts: records,
      logged,
      cooling,
      log: logFile ? display(logFile) : null,
      skipped: [
        // What the walk could not list is a folder; what it would not open is a file.
        ...unlisted.map((s) => ({ ...s, file: s.reason === 'not-a-file' ? display(s.file) : `${display(s.file)}/` })),
        ...skipped.map((s) => ({ ...s, file: display(s.file) })),
        ...badTraces,
        ...links.map((file) => ({ file: display(file), reason: 'symlink' as const, detail: 'not followed' })),
      ],
    };
    io.stdout(values.json ? JSON.stringify(report, null, 2) + '\n' : formatScanText(report, found));
    return values['fail-on-alert'] && records.length > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};

/** Why the one file named cannot be scanned, and what to do. */
function namedFileRefused(skipped: Skipped, maxFileMb: number): string {
  switch (skipped.reason) {
    case 'too-large':
      return `larger than --max-file-mb (${maxFileMb} MiB); raise --max-file-mb to scan it`;
    case 'binary':
      return 'a binary file, neither a text document nor a trace';
    case 'not-a-file':
      return 'not a regular file (a FIFO, socket or device)';
    case 'unreadable':
      return `cannot be read (${skipped.detail ?? 'unknown error'})`;
  }
}

/** True when a named JSON or JSON Lines file is a trace; another (an agent's memory, a post dump) or an empty one is a document. */
async function isTrace(file: string): Promise<boolean> {
  try {
    await detectFileFormat(file);
    return true;
  } catch (error) {
    if (error instanceof InputError && (error.kind === 'unknown-format' || error.kind === 'empty')) return false;
    throw error;
  }
}

/** The log's root and path: the project's own log, or a file the user named (its folder is then the root). */
async function alertLogAt(project: string, named: string | undefined): Promise<{ root: string; file: string }> {
  if (!named) return { root: project, file: ALERT_LOG };
  await mkdir(path.dirname(named), { recursive: true });
  return { root: path.dirname(named), file: path.basename(named) };
}

function formatScanText(report: ScanReport, found: { alert: MonitorFinding; source: string }[]): string {
  const runs = report.runs > report.traces ? ` (${report.runs} runs)` : '';
  const out = [`scan ${report.target}: ${report.files} file(s), ${report.traces} trace(s)${runs}; ${report.alerts.length} alert(s)`];
  if (report.files === 0 && report.traces === 0) {
    out.push('Nothing to scan here: a folder is searched for the files agents persist to (SKILL.md, AGENTS.md, memory files...: monitor.globs, or --glob) and for traces; name a file to scan it as one document.');
  }
  out.push(...formatAlerts(found));
  if (report.log && report.alerts.length) out.push(`${report.logged} alert(s) appended to ${report.log}${report.cooling ? `; ${report.cooling} still cooling down (already recorded)` : ''}`);
  for (const s of report.skipped) out.push(`skipped ${inline(s.file)}: ${s.reason}${s.detail ? ` (${s.detail})` : ''}`);
  return out.join('\n') + '\n';
}
