// OTLP JSON's shapes, as the tests that rewrite an OTLP fixture into another store's export read them.

/** An OTLP attribute value. */
export type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
/** OTLP's attribute list. */
export type KeyValues = { key: string; value: OtlpValue }[];

/** One OTLP span. */
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValues;
  events?: { name: string; timeUnixNano: string; attributes?: KeyValues }[];
};

/** An OTLP JSON document. */
export type OtlpDocument = { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
