// The live receiver: an OTLP/HTTP endpoint (POST /v1/traces, JSON or protobuf) feeding LiveRuns, a small read API
// (GET /v1/runs, GET /v1/runs/{id}), an NDJSON or SSE event stream (GET /v1/events), alerts appended to the alert log
// and closed runs written out as agent-trace/v1. Used by `agent-immune serve` and by the editor's Watch Live Runs.
import { inline } from '../../core/text/printable';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { errorMessage, InputError } from '../../core/errors';
import type { ProjectConfig } from '../../core/config';
import { LiveRuns, type LiveEvent, type LiveLimits } from '../../core/live/runs';
import { ALERT_LOG, alertRecord, appendAlertRecords, type AlertRecord } from '../monitor/alertLog';
import { writeWorkspaceFileAtomic } from '../workspaceFs';
import { contentTypeOf, decodeContent, decodeRequest, encodeResponse, encodeStatus, encodingOf, PayloadError, type OtlpEncoding } from './otlpCodec';

/** How long stopping waits for requests still arriving before it cuts their connections. */
const STOP_GRACE_MS = 3_000;

/** Where closed runs are written, relative to the workspace root. */
export const LIVE_RUNS_DIR = '.agent-immune/live';
/** The OTLP/HTTP default port. */
export const DEFAULT_PORT = 4318;
export const DEFAULT_HOST = '127.0.0.1';
/** Largest request body accepted, after decompression (the Collector's otlphttp exporter sends batches well below). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Bytes an event-stream client may fall behind before it is disconnected (ingest never waits for a reader). */
export const DEFAULT_MAX_STREAM_BACKLOG = 4 * 1024 * 1024;
/** How many /v1/events readers are served at once. */
const MAX_EVENT_STREAMS = 16;
/** Bytes of recordings LIVE_RUNS_DIR may hold before closed runs are no longer written (senders cannot fill the disk). */
export const DEFAULT_MAX_STORED_BYTES = 1024 * 1024 * 1024;
/** Bytes the alert log may reach before live alerts are no longer appended to it. */
export const DEFAULT_MAX_ALERT_LOG_BYTES = 256 * 1024 * 1024;

/** How to run the receiver. */
export interface LiveServerOptions {
  host?: string;
  port?: number;
  /** Required bearer token (Authorization: Bearer ...); required for a non-loopback host. */
  token?: string;
  /** Allow a non-loopback host (with a token). */
  allowRemote?: boolean;
  maxBodyBytes?: number;
  /** Bytes an event-stream client may fall behind before it is disconnected. */
  maxStreamBacklogBytes?: number;
  /** A request whose headers and body have not all arrived after this long is answered 408 and closed. */
  requestTimeoutMs?: number;
  /** Workspace root: the alert log and closed runs go inside it. */
  root: string;
  /** Bytes of recordings LIVE_RUNS_DIR may hold (DEFAULT_MAX_STORED_BYTES). */
  maxStoredBytes?: number;
  /** Bytes the alert log may reach (DEFAULT_MAX_ALERT_LOG_BYTES). */
  maxAlertLogBytes?: number;
  config?: ProjectConfig;
  limits?: Partial<LiveLimits>;
  /** Where the receiver reports what it did (one line each) and what failed. */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** True for a host name or address that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** The running receiver. */
export class LiveServer {
  readonly runs: LiveRuns;
  private readonly server: Server;
  private readonly streams = new Set<ServerResponse>();
  private readonly maxBodyBytes: number;
  private readonly requestTimeoutMs: number;
  private readonly headersTimeoutMs: number;
  private readonly log: NonNullable<LiveServerOptions['log']>;
  /** Wakes the receiver at the runs' next deadline (a parent given up on, an idle round or run). */
  private timer: { at: number; handle: ReturnType<typeof setTimeout> } | undefined;
  private scheduled = false;
  private stopped = false;
  /** Set once stop has waited for the requests bringing spans: what arrives later is refused (503). */
  private spansClosed = false;
  /** The requests bringing spans now, and what each one's handling settles (stop waits for them). */
  private readonly receivingRequests = new Set<IncomingMessage>();
  private readonly receiving = new Set<Promise<void>>();
  private rootReal: string | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Writes queued and not yet done (closed runs' recordings, alert appends). */
  private queuedWrites = 0;
  private pendingAlerts: AlertRecord[] = [];
  /** Bytes LIVE_RUNS_DIR holds (measured at most once a minute, counted between), and whether a run was refused for it. */
  private stored: number | undefined;
  private storageFull = false;
  private alertLogFull = false;
  private measuredAt = 0;
  /** Per recording name, the copy number to try next (a sender reusing one id does not make each write list them all). */
  private readonly nextCopy = new Map<string, number>();
  private readonly stats = { requests: 0, spans: 0, rejected: 0, refused: 0 };

  constructor(private readonly options: LiveServerOptions) {
    const host = options.host ?? DEFAULT_HOST;
    if (!isLoopback(host) && !options.allowRemote) throw new InputError('invalid-field', `--host ${host} is reachable from other machines; pass --allow-remote and a --token to bind it`);
    if (!isLoopback(host) && !options.token) throw new InputError('invalid-field', `a non-loopback --host (${host}) needs a bearer token (--token or AGENT_IMMUNE_TOKEN)`);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // Every log line is one line: run ids, paths and error texts come from the senders.
    this.log = options.log ? (level, message) => options.log!(level, inline(message)) : () => undefined;
    this.runs = new LiveRuns({ config: options.config, limits: options.limits });
    this.runs.subscribe((event) => this.onEvent(event));
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    const requestTimeout = this.requestTimeoutMs;
    // Node checks the timeouts every connectionsCheckingInterval: once a second, so a stalled request is answered 408
    // about when the docs say (at 15 s it came at up to 45 s).
    this.headersTimeoutMs = Math.min(requestTimeout, 10_000);
    const timeouts = { requestTimeout, headersTimeout: this.headersTimeoutMs, connectionsCheckingInterval: Math.min(requestTimeout / 2, 1_000) };
    // handle() answers every error itself; a failure to answer (the socket gone) must not end the receiver.
    this.server = createServer(timeouts, (req, res) => void this.handle(req, res).catch((error) => this.log('error', `live: ${errorMessage(error)}`)));
    this.server.keepAliveTimeout = 5_000;
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => this.onClientError(error, socket));
  }

  /**
   * An HTTP error on a connection, answered as Node answers it without a listener (408 at the request timeout, 431 for
   * oversized headers, 400 for a malformed request; nothing on an event stream) and logged: a request still in its
   * headers at the timeout, or malformed, never reached handle(). A body cut off by the timeout is logged by receive(),
   * which the socket's error tells; a connection that sent nothing (a browser's preconnect) is closed unlogged.
   */
  private onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    const inBody = [...this.receivingRequests].some((req) => req.socket === socket && !req.complete);
    const answering = [...this.streams].some((res) => res.socket === socket);
    if (error.code !== 'ECONNRESET' && socket.writable && !answering) {
      const [status, reason, message] =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', `the request headers did not arrive in full within ${this.headersTimeoutMs / 1000} s`]
        : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
        : [400, 'Bad Request', `a malformed HTTP request (${error.code ?? 'parse error'})`];
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n\r\n`);
      if (!inBody && socket.bytesRead > 0) {
        this.stats.refused++;
        this.log('warn', `live: refused a request (${status}): ${message}`);
      }
    }
    socket.destroy(error);
  }

  /** Starts listening; resolves with the bound address (port 0 picks a free one). */
  async start(): Promise<{ host: string; port: number; url: string }> {
    this.rootReal = await realpath(this.options.root);
    const host = this.options.host ?? DEFAULT_HOST;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? DEFAULT_PORT, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const port = (this.server.address() as AddressInfo).port;
    const shown = host.includes(':') ? `[${host}]` : host;
    return { host, port, url: `http://${shown}:${port}` };
  }

  /** Stops accepting, closes every open run (each written out, event-stream readers told) and waits for the writes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = undefined;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    // Spans still arriving get a short grace to finish and are received before the runs are closed and written (they
    // were answered 200 and dropped). A stalled upload would hold the close forever: past the grace its connection is
    // cut unanswered, and a request that ends later is refused with 503, so the client sends it again elsewhere.
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(this.receiving), new Promise<void>((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
    clearTimeout(grace);
    this.spansClosed = true;
    for (const req of this.receivingRequests) req.socket.destroy();
    await this.runs.closeAll();
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    this.flushAlerts();
    await this.writes;
    this.server.closeAllConnections();
    await closed;
  }

  /** Counters since start: requests, spans accepted and rejected, requests refused. */
  counters(): Readonly<{ requests: number; spans: number; rejected: number; refused: number }> {
    return { ...this.stats };
  }

  /** Processes new spans and idle rules soon, once for everything that arrived in the meantime. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.runs
        .process(Date.now())
        .then(
          () => this.flushAlerts(),
          (error: unknown) => this.log('error', `live: processing failed: ${errorMessage(error)}`),
        )
        .finally(() => this.wakeAtDeadline());
    });
  }

  /** Sets the timer for the runs' next deadline, unless one is set for that time or sooner. */
  private wakeAtDeadline(): void {
    const at = this.runs.nextDeadline();
    if (this.stopped || at === undefined || (this.timer && this.timer.at <= at)) return;
    if (this.timer) clearTimeout(this.timer.handle);
    // At least 10 ms on: a deadline that processing could not clear (it failed and logged why) is not retried in a loop.
    const handle = setTimeout(() => {
      this.timer = undefined;
      this.schedule();
    }, Math.max(10, at - Date.now()));
    handle.unref();
    this.timer = { at, handle };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url = new URL('http://receiver/');
    try {
      url = requestUrl(req);
      this.authorize(req);
      if (url.pathname === '/v1/traces') {
        if (req.method !== 'POST') return this.reply(res, 405, undefined, 'POST OTLP spans to /v1/traces', { Allow: 'POST' });
        const receiving = this.receive(req, res);
        this.receivingRequests.add(req);
        this.receiving.add(receiving);
        try {
          return await receiving;
        } finally {
          this.receivingRequests.delete(req);
          this.receiving.delete(receiving);
        }
      }
      if (req.method !== 'GET') return this.reply(res, 405, undefined, `${url.pathname} answers GET only`, { Allow: 'GET' });
      if (url.pathname === '/v1/runs') return this.json(res, 200, { runs: this.runs.list() });
      const run = /^\/v1\/runs\/([^/]+)(\/trace)?$/.exec(url.pathname);
      if (run) return this.getRun(res, decodedSegment(run[1]), run[2] !== undefined);
      if (url.pathname === '/v1/events') return this.stream(req, res);
      return this.reply(res, 404, undefined, `no such endpoint ${url.pathname.slice(0, 80)}; try /v1/traces, /v1/runs, /v1/events`);
    } catch (error) {
      // A refusal of spans (401 before the body is read) answers in the request's encoding, as OTLP/HTTP prescribes.
      const encoding = url.pathname === '/v1/traces' ? encodingOf(req.headers['content-type']) : undefined;
      if (error instanceof HttpError) return this.reply(res, error.status, encoding, error.message, error.headers);
      this.log('error', `live: ${req.method} ${url.pathname}: ${errorMessage(error)}`);
      return this.reply(res, 500, undefined, 'internal error; see the receiver log');
    }
  }

  /** Refuses requests without the bearer token, and (on loopback without a token) requests naming a foreign Host (DNS rebinding). */
  private authorize(req: IncomingMessage): void {
    const token = this.options.token;
    if (token) {
      // The scheme is case-insensitive (RFC 7235); the token is compared in constant time, as digests of equal length.
      const given = /^bearer +(.*)$/i.exec(req.headers.authorization ?? '')?.[1];
      const digest = (text: string) => createHash('sha256').update(text).digest();
      if (given === undefined || !timingSafeEqual(digest(given), digest(token))) throw new HttpError(401, 'missing or wrong bearer token', { 'WWW-Authenticate': 'Bearer' });
      return;
    }
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!isLoopback(host)) throw new HttpError(403, `Host "${host.slice(0, 60)}" is not this machine; the receiver answers loopback names only`);
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.requests++;
    const encoding = encodingOf(req.headers['content-type']);
    if (!encoding) return this.refuse(res, 415, undefined, `unsupported Content-Type "${String(req.headers['content-type'] ?? '').slice(0, 60)}"; send application/json or application/x-protobuf`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) return this.refuse(res, 413, encoding, `body of ${declared} bytes is over the ${this.maxBodyBytes}-byte limit`, true);
    let request: unknown;
    let bytes = 0;
    // Node answers a body still arriving at the request timeout itself (408, timed from the request's first byte) and
    // destroys the socket with ERR_HTTP_REQUEST_TIMEOUT; the request then reads as aborted. Listened to only while the
    // body is read, so a keep-alive connection gathers no listeners.
    let timedOut = false;
    const onSocketError = (error: NodeJS.ErrnoException) => void (timedOut ||= error.code === 'ERR_HTTP_REQUEST_TIMEOUT');
    req.socket.on('error', onSocketError);
    try {
      const raw = await readBody(req, this.maxBodyBytes);
      const decoded = await decodeContent(raw, req.headers['content-encoding'], this.maxBodyBytes);
      bytes = decoded.length;
      request = decodeRequest(decoded, encoding);
    } catch (error) {
      if (timedOut) return this.refuse(res, 408, encoding, `the request did not arrive in full within ${this.requestTimeoutMs / 1000} s`);
      if (error instanceof PayloadError) return this.refuse(res, error.status, encoding, error.message, error.status === 413);
      throw error;
    } finally {
      req.socket.off('error', onSocketError);
    }
    if (this.spansClosed) return this.refuse(res, 503, encoding, 'the receiver is stopping; send the spans again to a running one', true);
    let result;
    try {
      result = this.runs.ingest(request, Date.now(), bytes);
    } catch (error) {
      if (error instanceof InputError) return this.refuse(res, 400, encoding, error.message);
      throw error;
    }
    this.stats.spans += result.accepted;
    this.stats.rejected += result.rejected;
    if (result.rejected > 0) this.log('warn', `live: rejected ${result.rejected} span(s): ${result.errors.join('; ')}`);
    this.schedule();
    res.writeHead(200, { 'Content-Type': contentTypeOf(encoding) });
    res.end(encodeResponse(encoding, result.rejected, result.errors.join('; ')));
  }

  private refuse(res: ServerResponse, status: number, encoding: OtlpEncoding | undefined, message: string, closeConnection = false): void {
    this.stats.refused++;
    this.log('warn', `live: refused a request (${status}): ${message}`);
    this.reply(res, status, encoding, message, closeConnection ? { Connection: 'close' } : {});
  }

  private reply(res: ServerResponse, status: number, encoding: OtlpEncoding | undefined, message: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return void res.destroy();
    res.writeHead(status, { 'Content-Type': contentTypeOf(encoding), ...headers });
    res.end(encodeStatus(encoding, GRPC_CODE[status] ?? 2, message));
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  /** GET /v1/runs/{id}: the analysis; GET /v1/runs/{id}/trace: the recording of the rounds it covers (agent-trace/v1). */
  private getRun(res: ServerResponse, id: string, recording: boolean): void {
    const analysis = this.runs.analysis(id);
    if (analysis && !recording) return this.json(res, 200, analysis);
    const records = recording && this.runs.recording(id);
    if (records) {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      return void res.end(recordingText(records));
    }
    this.reply(res, 404, undefined, this.runs.has(id) ? `run ${id.slice(0, 80)} has no analysis in memory (no round closed yet, or closed long ago: see ${LIVE_RUNS_DIR})` : `no run ${id.slice(0, 80)}`);
  }

  /** GET /v1/events: every event as one NDJSON line, or as SSE with Accept: text/event-stream. */
  private stream(req: IncomingMessage, res: ServerResponse): void {
    // Each reader may fall 4 MiB behind before it is dropped: 300 readers that never read held 2.9 GB.
    if (this.streams.size >= MAX_EVENT_STREAMS) throw new HttpError(503, `${MAX_EVENT_STREAMS} event-stream readers are connected, the most this receiver serves; close one or read /v1/runs`);
    const sse = (req.headers.accept ?? '').includes('text/event-stream');
    res.writeHead(200, { 'Content-Type': sse ? 'text/event-stream' : 'application/x-ndjson', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.flushHeaders();
    (res as ServerResponse & { sse?: boolean }).sse = sse;
    this.streams.add(res);
    const drop = () => this.streams.delete(res);
    res.on('close', drop);
    req.on('close', drop);
  }

  private onEvent(event: LiveEvent): void {
    const wire = event.type === 'closed' ? { type: 'closed', run: event.run, summary: event.summary } : event;
    const line = JSON.stringify(wire);
    for (const res of this.streams) {
      const sse = (res as ServerResponse & { sse?: boolean }).sse;
      if (res.writableLength > (this.options.maxStreamBacklogBytes ?? DEFAULT_MAX_STREAM_BACKLOG)) {
        this.log('warn', 'live: an event-stream client fell too far behind and was disconnected');
        this.streams.delete(res);
        res.destroy();
        continue;
      }
      res.write(sse ? `event: ${event.type}\ndata: ${line}\n\n` : line + '\n');
    }
    if (event.type === 'alert') this.pendingAlerts.push(alertRecord(event.alert, `live:${event.run}`, new Date(), true));
    if (event.type === 'closed') this.enqueueWrite(() => this.writeRun(event.run, event.records), `writing run ${event.run.slice(0, 80)}`);
  }

  private flushAlerts(): void {
    if (this.pendingAlerts.length === 0) return;
    const records = this.pendingAlerts;
    this.pendingAlerts = [];
    this.enqueueWrite(() => this.appendAlerts(records), 'appending to the alert log');
  }

  /** Appends alerts while the alert log is under its budget; past it, says so once (until it has room again). */
  private async appendAlerts(records: AlertRecord[]): Promise<void> {
    const budget = this.options.maxAlertLogBytes ?? DEFAULT_MAX_ALERT_LOG_BYTES;
    // lstat: a link planted at the log's name is measured as itself (the append refuses it), never what it points to.
    const size = await lstat(path.join(this.rootReal!, ALERT_LOG)).then((s) => s.size, () => 0);
    const bytes = records.reduce((sum, record) => sum + Buffer.byteLength(JSON.stringify(record)) + 1, 0);
    if (size + bytes > budget) {
      if (!this.alertLogFull) this.log('error', `live: ${ALERT_LOG} is over its ${mib(budget)} budget: live alerts are no longer appended to it (the event stream still carries them); move it away to resume`);
      this.alertLogFull = true;
      return;
    }
    this.alertLogFull = false;
    await appendAlertRecords(this.rootReal!, records);
  }

  private enqueueWrite(job: () => Promise<void>, what: string): void {
    this.queuedWrites++;
    this.writes = this.writes
      .then(job)
      .catch((error: unknown) => this.log('error', `live: ${what} failed: ${errorMessage(error)}`))
      .finally(() => this.queuedWrites--);
  }

  /** Closed runs' recordings and alert appends queued and not yet written (a flood of runs is written behind their events). */
  pendingWrites(): number {
    return this.queuedWrites;
  }

  /** Writes a closed run's recording as agent-trace/v1, under a name of its own (a reopened run gets the next number). */
  private async writeRun(id: string, records: { record: Record<string, unknown> }[]): Promise<void> {
    if (records.length === 0) return;
    const dir = path.join(this.rootReal!, LIVE_RUNS_DIR);
    const text = recordingText(records);
    if (!(await this.roomFor(dir, Buffer.byteLength(text)))) {
      this.log('warn', `live: run ${id.slice(0, 80)} closed, not written: ${LIVE_RUNS_DIR} is full`);
      return;
    }
    const base = path.join(dir, safeName(id));
    const fileOf = (copy: number) => (copy === 1 ? `${base}.jsonl` : `${base}.${copy}.jsonl`);
    // The first name is tried first (recordings moved away free it), then from the copy number last written.
    let n = (await exists(fileOf(1))) ? Math.max(2, this.nextCopy.get(base) ?? 2) : 1;
    while (await exists(fileOf(n))) n++;
    await writeWorkspaceFileAtomic(this.rootReal!, fileOf(n), text);
    if (this.nextCopy.size >= MAX_COPY_NAMES) this.nextCopy.clear();
    this.nextCopy.set(base, n + 1);
    this.stored! += Buffer.byteLength(text);
    this.log('info', `live: run ${id.slice(0, 80)} closed, written to ${path.relative(this.rootReal!, fileOf(n))}`);
  }

  /**
   * Whether `bytes` more fit in the recordings' budget. The folder is measured again at most once a minute (recordings
   * moved away make room; another receiver writing the same folder, serve beside the editor's, counts against it) and
   * the first refusal says what to do.
   */
  private async roomFor(dir: string, bytes: number): Promise<boolean> {
    const budget = this.options.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES;
    // Not on every write: a folder of a million small recordings takes a while to list.
    if (this.stored === undefined || Date.now() - this.measuredAt >= REMEASURE_MS) {
      this.stored = await folderBytes(dir);
      this.measuredAt = Date.now();
      // Only a measured folder with room ends a refusal: a small run that fits beside a big one refused says nothing.
      if (this.stored + bytes <= budget) this.storageFull = false;
    }
    if (this.stored + bytes <= budget) return true;
    if (!this.storageFull) {
      this.log('error', `live: ${LIVE_RUNS_DIR} holds ${mib(this.stored)}, its budget is ${mib(budget)}: closed runs are no longer written (alerts still are); move recordings away to resume`);
    }
    this.storageFull = true;
    return false;
  }
}

/** An HTTP failure with its status (and headers such as WWW-Authenticate). */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** google.rpc.Code for the statuses the receiver answers. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 405: 12, 413: 8, 415: 3, 500: 13, 503: 14 };

/** Reads a request body, refusing past `maxBytes` (the rest is not read). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        reject(new PayloadError(413, `body is over the ${maxBytes}-byte limit`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new PayloadError(400, 'the client aborted the request')));
  });
}

/** A run's records as agent-trace/v1 JSON Lines (what GET /v1/runs/{id}/trace answers and closed runs are written as). */
export function recordingText(records: { record: Record<string, unknown> }[]): string {
  return records.map(({ record }) => JSON.stringify(record)).join('\n') + '\n';
}

/** A file name for a run id: letters, digits, '.', '_' and '-' only, short enough for any file system. */
export function safeName(id: string): string {
  const name = id.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100) || 'run';
  // Windows opens a device for these names whatever the extension: the recording would be lost there.
  return WINDOWS_DEVICE.test(name) ? `run_${name}` : name;
}

/** File names Windows reserves for devices (`CON`, `nul`, `COM1`, …), with or without an extension. */
const WINDOWS_DEVICE = /^(?:CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(?:\.|$)/i;

/** How often the recordings folder is measured again, and how many recording names keep their next copy number. */
const REMEASURE_MS = 60_000;
const MAX_COPY_NAMES = 10_000;

/** A size as the log lines give it: MiB to one decimal. */
function mib(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}

/** Total size of the files directly in `dir` (0 when it does not exist yet, or is a link, which the write then refuses:
 * a link planted there had serve list a folder outside the root), read one entry at a time. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  try {
    if (!(await lstat(dir)).isDirectory()) return 0;
    for await (const entry of await opendir(dir)) {
      if (entry.isFile()) total += await stat(path.join(dir, entry.name)).then((s) => s.size, () => 0);
    }
  } catch {
    // A folder that is not there yet (or cannot be read) holds nothing we wrote.
  }
  return total;
}

/** Whether a name is taken: by anything, a dangling link included (it looked free, and the write then refused it). */
async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/** The request's URL; a target that is not one (`GET http://[`) is a 400, not a crash of the receiver. */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://receiver');
  } catch {
    throw new HttpError(400, 'the request target is not a valid URL');
  }
}

/** A percent-encoded path segment, decoded; a malformed escape (`%E0%A4%A`) is a 400. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'the run id in the path is not valid percent-encoding');
  }
}
