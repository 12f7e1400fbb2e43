// A client of a running receiver (`agent-immune serve`, or the one the editor starts): its runs, one run's analysis and
// recording, and its event stream, over the receiver's HTTP API. The receiver may be another machine's, so every answer
// is size-limited, checked before use and timed out; nothing it sends is trusted to have the documented shape.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Analysis } from '../../core/guard/types';
import type { LiveEvent, RunSummary } from '../../core/live/runs';

/** Largest answer read: the run list, an analysis or a recording. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Longest event line read from the stream; longer ones are skipped. */
const MAX_EVENT_LINE = 1024 * 1024;
/** A request without an answer after this long is abandoned. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** What the event stream carries, as the client reads it (a closed run's records stay on the receiver). */
export type WireEvent = Exclude<LiveEvent, { type: 'closed' }> | { type: 'closed'; run: string; summary: RunSummary };

/** A receiver that could not be reached or answered with an error; `status` is the HTTP status when there was one. */
export class ReceiverError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Checks a receiver URL: http or https, no user name or password in it; returns it without a trailing slash. */
export function receiverUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ReceiverError(`"${text.slice(0, 100)}" is not a URL; expected e.g. http://127.0.0.1:4318`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReceiverError(`${url.protocol} is not http: or https:`);
  if (url.username || url.password) throw new ReceiverError('the receiver URL must not carry a user name or password; give a token instead');
  url.search = url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** The client of one receiver. */
export class LiveClient {
  readonly url: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;

  /** `token`: the receiver's bearer token, if it needs one; `timeoutMs`: how long a request may go unanswered. */
  constructor(url: string, options: { token?: string; timeoutMs?: number } = {}) {
    this.url = receiverUrl(url);
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  /** Every run the receiver knows, open ones first (GET /v1/runs); entries of the wrong shape are left out. */
  async runs(signal?: AbortSignal): Promise<RunSummary[]> {
    const body = asObject(this.json(await this.get('/v1/runs', signal)));
    if (!body || !Array.isArray(body.runs)) throw new ReceiverError(`${this.url} did not answer with a run list; is it an agent-immune receiver?`);
    return body.runs.flatMap((entry) => (isRunSummary(entry) ? [entry] : []));
  }

  /** A run's analysis (GET /v1/runs/{id}) and the recording of the rounds it covers (GET /v1/runs/{id}/trace), read in
   * that order so the recording covers at least the analysed rounds. */
  async run(id: string, signal?: AbortSignal): Promise<{ analysis: Analysis; recording: string }> {
    const path = `/v1/runs/${encodeURIComponent(id)}`;
    const analysis = asObject(this.json(await this.get(path, signal)));
    if (!analysis || analysis.schema !== 'agent-immune/analysis/v1') throw new ReceiverError(`${this.url} sent something other than an analysis for run ${id.slice(0, 80)}`);
    return { analysis: analysis as unknown as Analysis, recording: await this.get(`${path}/trace`, signal) };
  }

  /** Reads the event stream (GET /v1/events, NDJSON) until it ends or `signal` aborts; malformed lines are skipped.
   * `onOpen` is called once the receiver accepted the stream (what happened before is for GET /v1/runs to say). */
  async events(onEvent: (event: WireEvent) => void, signal: AbortSignal, onOpen?: () => void): Promise<void> {
    const res = await this.open('/v1/events', signal);
    onOpen?.();
    let pending = '';
    let skipping = false;
    await new Promise<void>((resolve, reject) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (!skipping) deliver(line, onEvent);
          skipping = false;
        }
        if (pending.length > MAX_EVENT_LINE) {
          pending = '';
          skipping = true;
        }
      });
      res.on('end', resolve);
      res.on('close', resolve);
      res.on('error', (error) => (signal.aborted ? resolve() : reject(error)));
    });
  }

  private json(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new ReceiverError(`${this.url} sent malformed JSON`);
    }
  }

  /** A GET answered in full within the timeout (a receiver that stalls or trickles is given up on). */
  private async get(path: string, signal?: AbortSignal): Promise<string> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      return await readAnswer(await this.open(path, both), this.url);
    } catch (error) {
      if (deadline.aborted && !signal?.aborted) throw new ReceiverError(`${this.url} did not answer ${path} within ${this.timeoutMs / 1000} s`);
      throw error;
    }
  }

  /** Sends a GET and resolves with a 200 answer; anything else becomes a ReceiverError saying what it was. */
  private open(path: string, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    const target = new URL(this.url + path);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { Accept: path === '/v1/events' ? 'application/x-ndjson' : 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return new Promise((resolve, reject) => {
      const req = request(target, { method: 'GET', headers, signal }, (res) => {
        if (res.statusCode === 200) return resolve(res);
        void readAnswer(res, this.url).then(
          (text) => reject(new ReceiverError(`${this.url}${path} answered ${res.statusCode}: ${statusMessage(text)}`, res.statusCode)),
          () => reject(new ReceiverError(`${this.url}${path} answered ${res.statusCode}`, res.statusCode)),
        );
      });
      req.on('error', (error: NodeJS.ErrnoException) => reject(error instanceof ReceiverError ? error : new ReceiverError(signal?.aborted ? 'cancelled' : `cannot reach ${this.url}: ${error.code ?? error.message}`)));
      req.end();
    });
  }
}

/** Reads an answer body up to MAX_ANSWER_BYTES. */
function readAnswer(res: IncomingMessage, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        res.destroy();
        reject(new ReceiverError(`${url} sent an answer over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`));
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('close', () => reject(new ReceiverError(`${url} closed the connection mid-answer`)));
  });
}

/** The message of a google.rpc.Status body, else the start of the text. */
function statusMessage(text: string): string {
  try {
    const message = asObject(JSON.parse(text))?.message;
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300).replace(/\s+/g, ' ');
}

function deliver(line: string, onEvent: (event: WireEvent) => void): void {
  if (line.trim() === '') return;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return;
  }
  if (isWireEvent(event)) onEvent(event);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const isStrings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isCount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** True for a run summary of the documented shape. */
export function isRunSummary(value: unknown): value is RunSummary {
  const o = asObject(value);
  return (
    !!o &&
    typeof o.id === 'string' &&
    typeof o.traceId === 'string' &&
    (o.state === 'open' || o.state === 'closed') &&
    [o.spans, o.rounds, o.agents, o.alerts, o.updatedAt].every(isCount) &&
    isStrings(o.attackers) &&
    isStrings(o.infected) &&
    (o.error === undefined || typeof o.error === 'string')
  );
}

function isWireEvent(value: unknown): value is WireEvent {
  const o = asObject(value);
  if (!o) return false;
  switch (o.type) {
    case 'run':
      return isRunSummary(o.run);
    case 'closed':
      return typeof o.run === 'string' && isRunSummary(o.summary);
    case 'round':
      return typeof o.run === 'string' && Number.isInteger(o.round) && isStrings(o.attackers) && isStrings(o.infected) && Array.isArray(o.changed) && typeof o.restarted === 'boolean';
    case 'alert':
      return typeof o.run === 'string' && !!asObject(o.alert);
    default:
      return false;
  }
}
