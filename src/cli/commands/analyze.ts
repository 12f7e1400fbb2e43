// `agent-immune analyze <trace>`: runs the guard over a recorded run and prints the report or the JSON analysis.
import * as path from 'node:path';
import { writingTo } from '../../core/errors';
import { analyzeTrace } from '../../core/guard/analyze';
import { loadCheckedConfig } from '../../node/config';
import { CONFIG_FILE_NAME, type ProjectConfig } from '../../core/config';
import { formatsHelp, parseFormatName } from '../../core/importers';
import { forEachRun, readAnyTrace } from '../../node/readAnyTrace';
import { writeGraphReport } from '../../node/graphReport';
import { existingFile, outputFile } from '../args';
import { ExitCode, parseFlags, UsageError, type CliIo, type Command } from '../command';
import { formatAnalysisText, formatRunsText, summarizeRun, type RunSummary } from '../../core/guard/messages';
import { poolEvaluations } from '../../core/guard/metrics';
import { LLM_FLAGS, LLM_USAGE, llmGuardFromFlags } from '../llmOptions';

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'classify every agent of a recorded run as benign / attacker / infected',
  usage: `Usage: agent-immune analyze <trace> [options]

Runs the infection-aware guard over a recorded multi-agent run in any format below (detected from the content;
docs/importers.md) and prints a per-round table, the sources, infection paths and the remediation plan.

Options:
  --json             print one JSON document (schema agent-immune/analysis/v1) instead of the table
  --html FILE        also write the infection-graph view as a self-contained HTML report to FILE
  --config FILE      project config (default: ./agent-immune.config.json when present)
  --lenient          skip invalid lines with a warning instead of rejecting the file
  --from FORMAT      read as FORMAT instead of detecting it
  --episode N        analyse run N of a file that holds several (default 0)
  --all              analyse every run of the file: one line per run and the figures pooled over labelled runs
                     (with --json: schema agent-immune/analysis-runs/v1); embedded guard only, no --html
  --max-line-mb N    longest accepted line in MiB (default 64)
  --strict           exit 1 also when an agent was flagged only in an earlier round (an attacker that behaves in the
                     last round passes CI otherwise)
${LLM_USAGE}
  -h, --help         show this help

Formats (--from):
${formatsHelp('  ')}

Exit codes: 0 nothing malicious found in the last round (the verdict), 1 attackers or infected agents in it (with
--strict: in any round), 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      json: { type: 'boolean' },
      html: { type: 'string' },
      config: { type: 'string' },
      lenient: { type: 'boolean' },
      from: { type: 'string' },
      episode: { type: 'string' },
      all: { type: 'boolean' },
      'max-line-mb': { type: 'string' },
      strict: { type: 'boolean' },
      ...LLM_FLAGS,
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <trace>' : `expected one trace, got ${positionals.length}`);
    const maxLineMb = values['max-line-mb'] === undefined ? 64 : Number(values['max-line-mb']);
    if (!Number.isFinite(maxLineMb) || maxLineMb <= 0) throw new UsageError('--max-line-mb must be a positive number');
    const episode = values.episode === undefined ? undefined : Number(values.episode);
    if (episode !== undefined && (!Number.isInteger(episode) || episode < 0)) throw new UsageError('--episode must be an integer >= 0');
    const from = values.from === undefined ? undefined : parseFormatName(values.from);

    const file = await existingFile(io.cwd, positionals[0], { readTwice: true, hint: `give one trace file in it, or run "agent-immune scan ${positionals[0]}" for the propagation alerts of every trace and agent file there` });
    const configFile = values.config && (await existingFile(io.cwd, values.config, { flag: '--config' }));
    const config = await loadCheckedConfig(io.cwd, configFile, (line) => io.stderr(`agent-immune analyze: ${line}\n`));
    const html = await outputFile(io.cwd, values.html, { flag: '--html' }, [file, configFile ?? path.join(io.cwd, CONFIG_FILE_NAME)]);
    const read = { from, lenient: values.lenient, maxLineBytes: maxLineMb * 1024 * 1024 };
    const llm = llmGuardFromFlags(values, io);
    if (values.all) {
      if (episode !== undefined) throw new UsageError('--all analyses every run: drop --episode, or drop --all to analyse run N');
      if (html) throw new UsageError('--html draws one run: pick it with --episode N instead of --all');
      if (llm) throw new UsageError('--all runs the embedded guard only: analyse one run at a time (--episode N) with --scorer llm or --filter llm');
      return analyzeRuns(file, positionals[0], read, config, { json: values.json === true, strict: values.strict === true }, io);
    }
    const trace = await readAnyTrace(file, { ...read, episode });
    trace.source = positionals[0];
    const analysis = await analyzeTrace(trace, { config, ...llm?.guard });
    llm?.finish(analysis);
    if (values.json) for (const w of analysis.warnings.filter((w) => w.code.startsWith('llm-'))) io.stderr(`agent-immune analyze: warning: ${w.message}\n`);

    if (html) await writingTo(html, () => writeGraphReport(html, trace, analysis));
    io.stdout(values.json ? JSON.stringify(analysis, null, 2) + '\n' : formatAnalysisText(analysis) + (html ? `\nGraph view written to ${values.html}: open it in a browser.\n` : ''));
    return exitFor(summarizeRun(analysis, 0), values.strict === true);
  },
};

type ReadOptions = Parameters<typeof forEachRun>[1];

/** Findings when the last round flags an agent, or under `strict` when any round did. */
function exitFor(summary: RunSummary, strict: boolean): ExitCode {
  const flagged = summary.attackers.length + summary.infected.length > 0 || (strict && summary.flaggedEarlier.length > 0);
  return flagged ? ExitCode.Findings : ExitCode.Ok;
}

/**
 * `analyze --all`: every run of the file, one at a time (a run is read, built, analysed and dropped before the next is
 * read, where the format holds one run per record), as one line each with the pooled figures, or as one JSON document
 * whose runs are written as they are analysed.
 */
async function analyzeRuns(file: string, source: string, read: ReadOptions, config: ProjectConfig, output: { json: boolean; strict: boolean }, io: CliIo): Promise<ExitCode> {
  const { json, strict } = output;
  const summaries: RunSummary[] = [];
  // --json writes each run's analysis as it is made; a first pass reads (and builds) every run and drops it, so a file
  // refused at any line prints nothing on stdout, as every exit 2 does, while one run at a time is held.
  if (json) await forEachRun(file, read, async (run) => void run.trace());
  await forEachRun(file, read, async (run, index) => {
    const trace = run.trace();
    trace.source = source;
    const analysis = await analyzeTrace(trace, { config });
    summaries.push(summarizeRun(analysis, index));
    if (json) io.stdout(`${index ? ',\n' : `{"schema":"agent-immune/analysis-runs/v1","source":${JSON.stringify(source)},"runs":[\n`}${JSON.stringify(analysis)}`);
  });
  const labelled = summaries.flatMap((s) => (s.evaluation ? [s.evaluation] : []));
  if (json) io.stdout(`\n]${labelled.length ? `,"evaluation":${JSON.stringify(poolEvaluations(labelled))}` : ''}}\n`);
  else io.stdout(formatRunsText(source, summaries));
  return summaries.some((s) => exitFor(s, strict) === ExitCode.Findings) ? ExitCode.Findings : ExitCode.Ok;
}
