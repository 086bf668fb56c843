/**
 * A loopback OTLP collector for the tests: it accepts traces, metrics and logs over http/json,
 * http/protobuf and grpc, decodes every request (protobuf with the OTLP message types generated
 * from the official .proto files, as shipped by @opentelemetry/otlp-transformer 0.52, installed
 * under the alias otlp-proto-definitions) and keeps them as plain objects of one shape, whatever
 * the wire format was.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';

export type Signal = 'traces' | 'metrics' | 'logs';
export interface Received {
  signal: Signal;
  /** What arrived: `application/json`, `application/x-protobuf`, or `grpc`. */
  format: string;
  body: Record<string, unknown>;
}

interface MessageType {
  decode(buf: Uint8Array): unknown;
  toObject(m: unknown, o: Record<string, unknown>): Record<string, unknown>;
}
const root = createRequire(import.meta.url)('otlp-proto-definitions/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: Record<string, { v1: Record<string, MessageType> }> } };
};
const collector = root.opentelemetry.proto.collector;
const REQUEST: Record<Signal, MessageType> = {
  traces: collector.trace!.v1.ExportTraceServiceRequest!,
  metrics: collector.metrics!.v1.ExportMetricsServiceRequest!,
  logs: collector.logs!.v1.ExportLogsServiceRequest!,
};
// Ids as hex, as OTLP/JSON writes them; 64-bit integers as numbers (the tests' values are small).
const TO_OBJECT = { longs: Number, bytes: String, enums: Number };
const toHex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

function decodeProto(signal: Signal, buf: Uint8Array): Record<string, unknown> {
  const t = REQUEST[signal];
  const obj = t.toObject(t.decode(buf), TO_OBJECT);
  // bytes come out base64: trace and span ids are compared as hex, like the JSON encoding.
  return JSON.parse(JSON.stringify(obj), (k, v: unknown) =>
    ['traceId', 'spanId', 'parentSpanId'].includes(k) && typeof v === 'string' ? toHex(v) : v,
  ) as Record<string, unknown>;
}

const PATHS: Record<string, Signal> = { '/v1/traces': 'traces', '/v1/metrics': 'metrics', '/v1/logs': 'logs' };

export interface Receiver {
  endpoint: string;
  received: Received[];
  close(): Promise<void>;
}

/** OTLP/HTTP on 127.0.0.1: json or protobuf, told apart by content-type as a collector does. */
export async function httpReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const signal = PATHS[req.url ?? ''];
      const type = String(req.headers['content-type'] ?? '');
      if (!signal) {
        res.writeHead(404).end();
        return;
      }
      const buf = Buffer.concat(chunks);
      try {
        if (type.includes('json')) {
          received.push({ signal, format: 'application/json', body: JSON.parse(buf.toString('utf8')) as Record<string, unknown> });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else if (type.includes('protobuf')) {
          received.push({ signal, format: 'application/x-protobuf', body: decodeProto(signal, buf) });
          // An empty Export*ServiceResponse encodes to zero bytes.
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else {
          res.writeHead(415).end();
        }
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const SERVICES: Record<Signal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
  logs: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
};

/** OTLP/gRPC on 127.0.0.1: a real grpc-js server with the three collector services. */
export async function grpcReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = new grpc.Server();
  for (const signal of Object.keys(SERVICES) as Signal[]) {
    const definition: grpc.ServiceDefinition = {
      Export: {
        path: SERVICES[signal],
        requestStream: false,
        responseStream: false,
        requestSerialize: (v: Buffer) => v,
        requestDeserialize: (buf: Buffer) => buf,
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: (buf: Buffer) => buf,
      },
    };
    server.addService(definition, {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        try {
          received.push({ signal, format: 'grpc', body: decodeProto(signal, call.request) });
          callback(null, Buffer.alloc(0));
        } catch (err) {
          callback({ code: grpc.status.INVALID_ARGUMENT, details: String(err) });
        }
      },
    });
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.tryShutdown(() => r())),
  };
}

interface OtlpAttr {
  key: string;
  value: Record<string, unknown>;
}
/** OTLP attributes as a plain record; int values as numbers (JSON may write them as strings). */
export function attrs(list: OtlpAttr[] = []): Record<string, unknown> {
  return Object.fromEntries(
    list.map((a) => {
      const [k, v] = Object.entries(a.value)[0] ?? [];
      return [a.key, k === 'intValue' ? Number(v) : v];
    }),
  );
}

export interface SpanOut {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  service?: unknown;
}
export function spansOf(received: Received[]): SpanOut[] {
  const out: SpanOut[] = [];
  for (const { signal, body } of received) {
    if (signal !== 'traces') continue;
    for (const rs of (body.resourceSpans ?? []) as Array<{
      resource?: { attributes: OtlpAttr[] };
      scopeSpans: Array<{ spans: Array<Record<string, unknown>> }>;
    }>) {
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          out.push({
            name: s.name as string,
            traceId: s.traceId as string,
            spanId: s.spanId as string,
            parentSpanId: (s.parentSpanId as string) || undefined,
            attributes: attrs(s.attributes as OtlpAttr[]),
            service: attrs(rs.resource?.attributes)['service.name'],
          });
        }
      }
    }
  }
  return out;
}

/** Metric data points by metric name: their attributes plus `_value` (sum value or histogram count). */
export function metricsOf(received: Received[]): Map<string, Array<Record<string, unknown>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const { signal, body } of received) {
    if (signal !== 'metrics') continue;
    for (const rm of (body.resourceMetrics ?? []) as Array<{ scopeMetrics: Array<{ metrics: Array<Record<string, unknown>> }> }>) {
      for (const sm of rm.scopeMetrics ?? []) {
        for (const m of sm.metrics ?? []) {
          const data = (m.sum ?? m.histogram) as { dataPoints: Array<{ attributes: OtlpAttr[] } & Record<string, unknown>> };
          const points = data.dataPoints.map((p) => ({ ...attrs(p.attributes), _value: Number(p.asInt ?? p.asDouble ?? p.count) }));
          out.set(m.name as string, [...(out.get(m.name as string) ?? []), ...points]);
        }
      }
    }
  }
  return out;
}

export interface LogOut {
  body: unknown;
  eventName?: string;
  severityNumber?: number;
  attributes: Record<string, unknown>;
  service?: unknown;
}
export function logsOf(received: Received[]): LogOut[] {
  const out: LogOut[] = [];
  for (const { signal, body } of received) {
    if (signal !== 'logs') continue;
    for (const rl of (body.resourceLogs ?? []) as Array<{
      resource?: { attributes: OtlpAttr[] };
      scopeLogs: Array<{ logRecords: Array<Record<string, unknown>> }>;
    }>) {
      for (const sl of rl.scopeLogs ?? []) {
        for (const l of sl.logRecords ?? []) {
          const b = l.body as Record<string, unknown> | undefined;
          out.push({
            body: b ? Object.values(b)[0] : undefined,
            eventName: l.eventName as string | undefined,
            severityNumber: l.severityNumber as number | undefined,
            attributes: attrs(l.attributes as OtlpAttr[]),
            service: attrs(rl.resource?.attributes)['service.name'],
          });
        }
      }
    }
  }
  return out;
}
