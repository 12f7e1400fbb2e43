// The protobuf descriptor the receiver decodes OTLP/protobuf with must be the official .proto files, parsed by
// protobufjs: a descriptor edited by hand (or left stale after the protos were updated) fails here.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as protobuf from 'protobufjs';

const dir = path.resolve(__dirname, '../../../src/node/live');
const PROTOS = ['common/v1/common.proto', 'resource/v1/resource.proto', 'trace/v1/trace.proto', 'collector/trace/v1/trace_service.proto'];

describe('OTLP protobuf descriptor', () => {
  it('is the official trace protos as protobufjs parses them', () => {
    const root = new protobuf.Root();
    for (const file of PROTOS) protobuf.parse(readFileSync(path.join(dir, 'proto/opentelemetry/proto', file), 'utf8'), root);
    root.resolveAll();
    const expected = JSON.stringify(root.toJSON(), null, 1) + '\n';
    const descriptor = path.join(dir, 'otlpDescriptor.json');
    if (process.env.UPDATE_OTLP_DESCRIPTOR) writeFileSync(descriptor, expected);
    assert.equal(readFileSync(descriptor, 'utf8'), expected, 'regenerate with UPDATE_OTLP_DESCRIPTOR=1 (src/node/live/proto/MANIFEST.md)');
  });
});
