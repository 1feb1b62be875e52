import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OTLP/HTTP receiver on loopback for the JSON encoding (`http/json`): it decodes what the SDK sends
 * to /v1/traces and /v1/metrics and keeps every raw body, so a test can also search all that was exported.
 */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** The span's events (retries, refusals, queue depth), in the order they were added. */
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  resource: Record<string, unknown>;
}

export interface ExportedHistogram {
  name: string;
  points: Array<{ attributes: Record<string, unknown>; count: number }>;
}

export interface OtlpReceiver {
  endpoint: string;
  spans: ExportedSpan[];
  histograms: ExportedHistogram[];
  /** The name of every metric received (gauges and counters too). */
  metricNames: Set<string>;
  /** Every body received, as text (for searching what must never be exported). */
  raw: string[];
  close(): Promise<void>;
}

type KeyValue = { key: string; value: Record<string, unknown> };

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
    out[key] = typeof v === 'string' && 'intValue' in value ? Number(v) : v;
  }
  return out;
}

interface TraceRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        events?: Array<{ name: string; attributes?: KeyValue[] }>;
      }>;
    }>;
  }>;
}

interface MetricsRequest {
  resourceMetrics?: Array<{
    scopeMetrics?: Array<{
      metrics?: Array<{
        name: string;
        histogram?: { dataPoints?: Array<{ attributes?: KeyValue[]; count: string | number }> };
      }>;
    }>;
  }>;
}

function decodeTraces(body: TraceRequest, into: ExportedSpan[]): void {
  for (const rs of body.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const span of ss.spans ?? [])
        into.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
          resource,
        });
  }
}

function decodeMetrics(body: MetricsRequest, into: ExportedHistogram[], names: Set<string>): void {
  for (const rm of body.resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? [])
      for (const metric of sm.metrics ?? []) {
        names.add(metric.name);
        if (!metric.histogram) continue;
        into.push({
          name: metric.name,
          points: (metric.histogram.dataPoints ?? []).map((p) => ({
            attributes: attributesOf(p.attributes),
            count: Number(p.count),
          })),
        });
      }
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const histograms: ExportedHistogram[] = [];
  const raw: string[] = [];
  const metricNames = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    raw.push(text);
    try {
      const body = JSON.parse(text) as TraceRequest & MetricsRequest;
      if (req.url === '/v1/traces') decodeTraces(body, spans);
      if (req.url === '/v1/metrics') decodeMetrics(body, histograms, metricNames);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch {
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    histograms,
    metricNames,
    raw,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
