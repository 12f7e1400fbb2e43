// OTLP/HTTP trace payloads both ways: a request body (JSON or protobuf, optionally gzip/deflate) into the OTLP JSON
// shape the importer reads, and the responses the spec prescribes (ExportTraceServiceResponse with partial success,
// google.rpc.Status for errors) in the request's encoding. Protobuf goes through protobufjs and the official protos.
import { errorMessage, jsonErrorText } from '../../core/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../core/importers/jsonStream';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { Field, Root, Type } from 'protobufjs/light';
import descriptor from './otlpDescriptor.json';

/** The two OTLP/HTTP encodings. */
export type OtlpEncoding = 'json' | 'protobuf';

/** Why a payload was refused, with the HTTP status the spec gives it. */
export class PayloadError extends Error {
  override readonly name = 'PayloadError';
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

const root = Root.fromJSON(descriptor);
const Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const Response = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
// google.rpc.Status, the error body OTLP/HTTP prescribes (not part of the OTLP protos; its three fields as Google defines them).
const Status = new Type('Status').add(new Field('code', 1, 'int32')).add(new Field('message', 2, 'string'));
new Root().define('google.rpc').add(Status);

/** The encoding a Content-Type names, or undefined for one OTLP/HTTP does not define (answered 415). */
export function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return undefined;
}

/** Undoes a Content-Encoding (gzip, deflate, identity), never inflating past `maxBytes`. */
export async function decodeContent(body: Buffer, contentEncoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  const inflateWith = encoding === 'gzip' || encoding === 'x-gzip' ? promisify(gunzip) : encoding === 'deflate' ? promisify(inflate) : undefined;
  if (!inflateWith) throw new PayloadError(415, `unsupported Content-Encoding "${encoding.slice(0, 40)}"; send gzip, deflate or none`);
  try {
    return await inflateWith(body, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadError(413, `the ${encoding} body inflates past the ${maxBytes}-byte limit`);
    throw new PayloadError(400, `the body is not valid ${encoding} (${errorMessage(error)})`);
  }
}

/** Reads an ExportTraceServiceRequest into the OTLP JSON shape (hex ids, decimal nanosecond strings). */
export function decodeRequest(body: Buffer, encoding: OtlpEncoding): unknown {
  if (encoding === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw new PayloadError(400, `the body is not valid JSON (${jsonErrorText(error)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PayloadError(400, 'expected an ExportTraceServiceRequest JSON object');
    return withinDepth(value);
  }
  let message;
  try {
    message = Request.decode(body);
  } catch (error) {
    throw new PayloadError(400, `the body is not a valid ExportTraceServiceRequest protobuf (${errorMessage(error)})`);
  }
  let json;
  try {
    json = withinDepth(Request.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false }));
  } catch (error) {
    throw error instanceof PayloadError ? error : new PayloadError(400, tooDeep);
  }
  for (const rs of (json.resourceSpans ?? []) as { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[]) {
    for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) for (const key of ['traceId', 'spanId', 'parentSpanId']) span[key] = hexOf(span[key]);
  }
  return json;
}

const tooDeep = `the request nests deeper than ${MAX_JSON_DEPTH} levels; no OTLP attribute does`;

/**
 * The request, when it nests no deeper than MAX_JSON_DEPTH (as the file readers require): the span reader follows
 * nested attribute values recursively, and 20,000 nested kvlistValues overflowed it into a 500 that dropped the batch.
 */
function withinDepth<T>(value: T): T {
  if (nestsDeeperThan(value)) throw new PayloadError(400, tooDeep);
  return value;
}

/** The 200 answer: an empty ExportTraceServiceResponse, or one with partial success when spans were rejected. */
export function encodeResponse(encoding: OtlpEncoding, rejected: number, errorMessage: string): Buffer {
  const partial = rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {};
  if (encoding === 'json') return Buffer.from(JSON.stringify(rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {}));
  return Buffer.from(Response.encode(Response.fromObject(partial)).finish());
}

/** An error answer's body: google.rpc.Status in the request's encoding (JSON when the encoding is unknown). */
export function encodeStatus(encoding: OtlpEncoding | undefined, code: number, message: string): Buffer {
  if (encoding === 'protobuf') return Buffer.from(Status.encode(Status.fromObject({ code, message })).finish());
  return Buffer.from(JSON.stringify({ code, message }));
}

/** The Content-Type of answers in an encoding. */
export function contentTypeOf(encoding: OtlpEncoding | undefined): string {
  return encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json';
}

function hexOf(base64: unknown): string | undefined {
  return typeof base64 === 'string' && base64 !== '' ? Buffer.from(base64, 'base64').toString('hex') : undefined;
}
