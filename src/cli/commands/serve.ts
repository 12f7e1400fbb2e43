// `agent-immune serve`: the live OTLP/HTTP receiver; prints one line per decided round and alert until interrupted.
import type { LiveEvent } from '../../core/live/runs';
import { loadCheckedConfig } from '../../node/config';
import { oneLine } from '../../core/guard/messages';
import { DEFAULT_HOST, DEFAULT_MAX_ALERT_LOG_BYTES, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_STORED_BYTES, DEFAULT_PORT, LIVE_RUNS_DIR, LiveServer } from '../../node/live/server';
import { ALERT_LOG } from '../../node/monitor/alertLog';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';
import { existingFile, existingFolder } from '../args';

/** The unit of the size flags (MiB, as the log lines print them). */
const MB = 1024 * 1024;

/** What a failed listen means, and what to do, by its error code. */
const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the port is taken; is another receiver running? Pick another with --port',
  EACCES: 'not allowed to listen on that port; pick one above 1023 with --port',
  EADDRNOTAVAIL: 'no network interface of this machine has that address; check --host',
  ENOTFOUND: 'that host name is unknown; check --host (an IPv6 address goes without brackets: --host ::1)',
};

export const serveCommand: Command = {
  name: 'serve',
  summary: 'receive OTLP spans from running agents and run the guard live, round by round',
  usage: `Usage: agent-immune serve [options]

Receives OpenTelemetry spans (OTLP/HTTP, JSON or protobuf, POST /v1/traces) from a running multi-agent system, groups
them into rounds as \`analyze\` reads an OTLP file (one run per trace), and runs the guard and the monitor after each
closed round.
  GET /v1/runs         runs with their verdicts
  GET /v1/runs/{id}    a run's analysis (schema agent-immune/analysis/v1)
  GET /v1/runs/{id}/trace  the recording of the rounds that analysis covers (agent-trace/v1)
  GET /v1/events       verdict and alert changes as NDJSON (or SSE with Accept: text/event-stream)
Alerts are appended to ${ALERT_LOG}; a run idle past --run-idle is written to ${LIVE_RUNS_DIR}/ as agent-trace/v1.

Options:
  --host HOST          address to bind (default ${DEFAULT_HOST}); anything but loopback needs --allow-remote and a token
  --port N             port (default ${DEFAULT_PORT}, the OTLP/HTTP port; 0 picks a free one)
  --allow-remote       allow a non-loopback --host
  --token TOKEN        require "Authorization: Bearer TOKEN" (default: $AGENT_IMMUNE_TOKEN)
  --root DIR           workspace the alert log and closed runs go into (default: the current folder)
  --config FILE        project config (default: ./agent-immune.config.json when present)
  --round-idle S       seconds without a span before a run's last round closes (default 2)
  --run-idle S         seconds without a span before a run is closed and written out (default 300)
  --max-body-mb N      largest request body, after decompression (default ${DEFAULT_MAX_BODY_BYTES / MB})
  --max-recordings-mb N  recordings ${LIVE_RUNS_DIR}/ may hold before closed runs are no longer written (default ${DEFAULT_MAX_STORED_BYTES / MB})
  --max-alert-log-mb N   size of ${ALERT_LOG} past which live alerts are no longer appended (default ${DEFAULT_MAX_ALERT_LOG_BYTES / MB})
  --json               print the event stream as NDJSON instead of text
  -h, --help           show this help

Stop with Ctrl+C: open runs are closed and written out first. Exit codes: 0 stopped, 2 bad usage or the port is taken.`,

  async run(args, terminal) {
    // After a hangup the terminal is gone: a write to it crashed the process (SIGSEGV) before the runs were written.
    let hungUp = false;
    const io = { ...terminal, stdout: (text: string) => hungUp || terminal.stdout(text), stderr: (text: string) => hungUp || terminal.stderr(text) };
    const { values, positionals } = parseFlags(
      args,
      {
        host: { type: 'string' },
        port: { type: 'string' },
        'allow-remote': { type: 'boolean' },
        token: { type: 'string' },
        root: { type: 'string' },
        config: { type: 'string' },
        'round-idle': { type: 'string' },
        'run-idle': { type: 'string' },
        'max-body-mb': { type: 'string' },
        'max-recordings-mb': { type: 'string' },
        'max-alert-log-mb': { type: 'string' },
        json: { type: 'boolean' },
      },
      false,
    );
    if (positionals.length > 0) throw new UsageError('serve takes no positional arguments');
    const number = (name: string, fallback: number, min: number) => {
      const raw = values[name as keyof typeof values];
      if (raw === undefined) return fallback;
      // Decimal only: `--port ''` (an unset variable) read as 0, a free port; `0x10` as 16 and `1e3` as 1000.
      const n = /^\s*\d+(?:\.\d+)?\s*$/.test(String(raw)) ? Number(raw) : NaN;
      if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number >= ${min}`);
      return n;
    };
    const port = number('port', DEFAULT_PORT, 0);
    if (!Number.isInteger(port) || port > 65535) throw new UsageError('--port must be an integer 0-65535');
    const root = await existingFolder(io.cwd, values.root ?? '.', { flag: '--root', hint: 'give the workspace folder the alert log and closed runs go into' });
    const config = await loadCheckedConfig(root, values.config && (await existingFile(io.cwd, values.config, { flag: '--config' })), (line) => io.stderr(`agent-immune serve: ${line}\n`));
    const server = new LiveServer({
      host: values.host,
      port,
      allowRemote: values['allow-remote'],
      token: values.token ?? (io.env.AGENT_IMMUNE_TOKEN || undefined),
      root,
      config,
      maxBodyBytes: number('max-body-mb', DEFAULT_MAX_BODY_BYTES / MB, 0.001) * MB,
      maxStoredBytes: number('max-recordings-mb', DEFAULT_MAX_STORED_BYTES / MB, 0) * MB,
      maxAlertLogBytes: number('max-alert-log-mb', DEFAULT_MAX_ALERT_LOG_BYTES / MB, 0) * MB,
      limits: { roundIdleMs: number('round-idle', 2, 0.01) * 1000, runIdleMs: number('run-idle', 300, 1) * 1000 },
      log: (level, message) => io.stderr(`${level === 'info' ? '' : `${level}: `}${message}\n`),
    });
    server.runs.subscribe((event) => io.stdout(values.json ? JSON.stringify(event.type === 'closed' ? { ...event, records: undefined } : event) + '\n' : eventLine(event)));
    let address;
    try {
      address = await server.start();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = LISTEN_FAILURES[code ?? ''];
      if (why) {
        io.stderr(`agent-immune serve: cannot listen on ${values.host ?? DEFAULT_HOST}:${port} (${code}); ${why}\n`);
        return ExitCode.BadInput;
      }
      throw error;
    }
    io.stderr(`agent-immune serve: listening on ${address.url} (POST ${address.url}/v1/traces; runs at ${address.url}/v1/runs)\n`);
    process.on('SIGHUP', () => (hungUp = true));
    await stopSignal();
    const queued = server.pendingWrites();
    const behind = queued > 0 ? ` and ${queued} queued write(s) of closed runs and alerts` : '';
    io.stderr(`agent-immune serve: stopping; writing ${server.runs.size().traces} open trace(s)${behind} to .agent-immune (Ctrl+C again quits without them)\n`);
    await server.stop();
    return ExitCode.Ok;
  },
};

/** The signals that stop the receiver, writing what it holds: Ctrl+C, a kill, a closed terminal or ssh session. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Resolves with the first stop signal. Only a second Ctrl+C then quits at once: a closing terminal sends SIGHUP twice
 * (the shell's, then the kernel's), and the second one killed the receiver while it wrote its runs.
 */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      resolve(signal);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
}

/** One line of text per event. */
export function eventLine(event: LiveEvent): string {
  switch (event.type) {
    case 'run':
      return event.run.rounds === 0 ? `run ${shown(event.run.id)}: receiving spans\n` : '';
    case 'round': {
      const flagged = [...event.attackers.map((a) => `${shown(a)} ATTACKER`), ...event.infected.map((a) => `${shown(a)} infected`)];
      const changed = event.changed.filter((c) => c.was !== null).map((c) => `${shown(c.agent)} ${c.was} -> ${c.category}`);
      return `run ${shown(event.run)} round ${event.round}${event.restarted ? ' (re-decided from round 0: earlier rounds changed)' : ''}: ${flagged.length ? flagged.join(', ') : 'all benign'}${changed.length ? ` [${changed.join(', ')}]` : ''}\n`;
    }
    case 'alert':
      return `run ${shown(event.run)} alert ${event.alert.code} ${shown(event.alert.subject)} (round ${event.alert.evidence.round ?? '?'}): "${event.alert.evidence.text.slice(0, 100)}"\n`;
    case 'closed':
      return `run ${shown(event.run)} closed: ${event.summary.rounds} round(s), ${event.summary.attackers.length} attacker(s), ${event.summary.infected.length} infected\n`;
  }
}

/** A run id or agent name as a line shows it: at most 80 characters (a 5,000-character run id filled the screen). */
function shown(id: string): string {
  return oneLine(id, 80);
}
