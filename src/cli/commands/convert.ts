// `agent-immune convert <in> [--from FORMAT] [--episode N] -o out.jsonl`: writes any supported trace as agent-trace/v1.
import { lstat, mkdir, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage, writingTo } from '../../core/errors';
import { FOREIGN_FORMATS, formatsHelp, parseFormatName } from '../../core/importers';

const FOREIGN_FORMAT_NAMES = FOREIGN_FORMATS.map(([name]) => name).join(', ');
import { serializeTrace } from '../../core/trace/parse';
import { forEachRun } from '../../node/readAnyTrace';
import { NO_FOLLOW_WRITE } from '../../node/workspaceFs';
import type { Trace } from '../../core/trace/types';
import { existingFile, linkOnTheWay, sameFile } from '../args';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';

/** A file-name-safe form of an episode id. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'episode';
}

export const convertCommand: Command = {
  name: 'convert',
  summary: `convert a trace of any supported format (${FOREIGN_FORMAT_NAMES}) to agent-trace/v1 JSON Lines`,
  usage: `Usage: agent-immune convert <in> [--from FORMAT] [--episode N] -o <out.jsonl | folder>

Reads a recorded run in any supported format (detected from the content) and writes it as agent-trace/v1.
A file with several runs (conversations, LangGraph invocations, AG2 sessions, INFA-Guard episodes, AgentDojo runs) is written
one trace per run into the folder given by -o, or only run N with --episode N.

Formats (--from), see docs/importers.md for what maps to round, from, to and content:
${formatsHelp('  ')}

Options:
  -o, --out PATH     output file (one run), or folder (several runs, or a path ending in / or naming
                     a folder: one file per run); "-" writes one run to stdout
  --from FORMAT      skip detection and read as FORMAT
  --episode N        convert only run N (0-based, in file order)
  --lenient          skip invalid records with a warning instead of rejecting the file
  --max-line-mb N    longest accepted line in MiB (default 64)
  -h, --help         show this help

Exit codes: 0 converted, 2 bad input or usage.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      out: { type: 'string', short: 'o' },
      from: { type: 'string' },
      episode: { type: 'string' },
      lenient: { type: 'boolean' },
      'max-line-mb': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <in>' : `expected one input file, got ${positionals.length}`);
    if (values.out === undefined) throw new UsageError('missing -o <out.jsonl | folder>');
    const episode = values.episode === undefined ? undefined : Number(values.episode);
    if (episode !== undefined && (!Number.isInteger(episode) || episode < 0)) throw new UsageError('--episode must be an integer >= 0');
    const maxLineMb = values['max-line-mb'] === undefined ? 64 : Number(values['max-line-mb']);
    if (!Number.isFinite(maxLineMb) || maxLineMb <= 0) throw new UsageError('--max-line-mb must be a positive number');
    let from;
    try {
      from = values.from === undefined ? undefined : parseFormatName(values.from);
    } catch (error) {
      throw new UsageError(errorMessage(error));
    }

    const input = await existingFile(io.cwd, positionals[0], { readTwice: true, hint: 'give one trace file in it' });
    if (values.out !== '-' && (await sameFile(input, path.resolve(io.cwd, values.out)))) {
      throw new UsageError(`-o ${values.out} is the input file itself: converting would replace the recording; write to another file`);
    }
    // Two passes, one run held at a time: the first reads every run's id (a line refused anywhere writes nothing), the
    // second builds and writes each run and drops it before the next is read.
    const readOptions = { from, lenient: values.lenient, maxLineBytes: maxLineMb * 1024 * 1024 };
    const ids: string[] = [];
    const format = await forEachRun(input, readOptions, async (run) => void ids.push(run.id));
    if (episode !== undefined && episode >= ids.length) {
      throw new UsageError(`--episode ${episode} is out of range: ${positionals[0]} holds ${ids.length} run(s), numbered 0..${ids.length - 1}`);
    }
    const chosen = episode === undefined ? ids.map((_, i) => i) : [episode];
    const report = (where: string, trace: Trace) =>
      io.stderr(`${where}: ${trace.agents.length} agents, ${trace.messages.length} messages, ${trace.labels.length} labels${trace.warnings.length ? `, ${trace.warnings.length} warnings` : ''}\n`);
    /** Builds the chosen runs in file order and hands each to `write` (a run the first pass did not see is left out). */
    const writeChosen = (write: (trace: Trace, index: number) => Promise<void>) =>
      forEachRun(input, readOptions, async (run, index) => {
        if (index < ids.length && (episode === undefined || index === episode)) await write(run.trace(), index);
      });

    if (values.out === '-') {
      if (chosen.length !== 1) throw new UsageError(`${positionals[0]} holds ${chosen.length} runs; pass --episode N to write one to stdout, or -o FOLDER`);
      await writeChosen(async (trace) => io.stdout(serializeTrace(trace)));
      return ExitCode.Ok;
    }
    const out = path.resolve(io.cwd, values.out);
    // Nothing is written through a linked folder on the way (mkdir and the write would follow it out).
    const linked = await linkOnTheWay(io.cwd, out.replace(/[\\/]+$/, ''));
    if (linked !== undefined) throw new UsageError(`-o ${values.out}: ${path.relative(io.cwd, linked) || linked} is a symbolic link; converting would write through it to where it leads. Remove it or write elsewhere`);
    // A path written as a folder (a trailing slash) or naming one takes one file per run, even for a single run.
    const toFolder = /[\\/]$/.test(values.out) || (await stat(out).catch(() => undefined))?.isDirectory() === true;
    if (chosen.length === 1 && !toFolder) {
      await mkdir(path.dirname(out), { recursive: true });
      await writeChosen(async (trace) => {
        await writingTo(out, () => writeFile(out, serializeTrace(trace), { flag: NO_FOLLOW_WRITE }));
        io.stdout(`converted ${positionals[0]} (${format}) -> ${values.out}\n`);
        report(values.out!, trace);
      });
      return ExitCode.Ok;
    }
    if (!toFolder && /\.jsonl?$/i.test(out)) {
      throw new UsageError(`${positionals[0]} holds ${chosen.length} runs: give -o a folder to write one file per run, or pick one with --episode N`);
    }
    await mkdir(out, { recursive: true });
    const width = String(ids.length - 1).length;
    const names = ids.map((id, i) => `${String(i).padStart(width, '0')}-${safeName(id)}.jsonl`);
    for (const name of names) {
      if (await sameFile(input, path.join(out, name))) throw new UsageError(`-o ${values.out} would write ${name} over the input file itself; write to another folder`);
      // The names come from the runs' own ids: one that is a link in the folder (a repository can commit
      // `traces/0-episode-0.jsonl -> ~/.bashrc`) would be written through to wherever it leads.
      await refuseLink(path.join(out, name), path.join(values.out, name));
    }
    await writeChosen(async (trace, i) => {
      await writingTo(path.join(out, names[i]), () => writeFile(path.join(out, names[i]), serializeTrace(trace), { flag: NO_FOLLOW_WRITE }));
      report(path.join(values.out!, names[i]), trace);
    });
    io.stdout(`converted ${positionals[0]} (${format}) -> ${chosen.length} trace${chosen.length === 1 ? '' : 's'} in ${values.out}\n`);
    return ExitCode.Ok;
  },
};

/** Refuses an output path that is a symbolic link (one a repository committed would be written through to its target). */
async function refuseLink(file: string, shown: string): Promise<void> {
  if ((await lstat(file).catch(() => undefined))?.isSymbolicLink()) {
    throw new UsageError(`${shown} is a symbolic link; converting would write through it to where it leads. Remove it or write elsewhere`);
  }
}

