/**
 * Which OTLP wire format an exporter speaks, and which official exporter package carries it.
 * OTEL_EXPORTER_OTLP_PROTOCOL is read as the OpenTelemetry spec defines it: `http/protobuf`
 * (the default), `http/json` or `grpc`. An unknown value is a warning and the default, never a
 * silent switch to something the collector was not told about.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type OtlpSignal = 'traces' | 'metrics' | 'logs';

export const OTLP_PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const DEFAULT_OTLP_PROTOCOL: OtlpProtocol = 'http/protobuf';

export function otlpProtocol(value: string | undefined, onWarning: (m: string) => void = () => {}): OtlpProtocol {
  const v = value?.trim();
  if (!v) return DEFAULT_OTLP_PROTOCOL;
  if ((OTLP_PROTOCOLS as readonly string[]).includes(v)) return v as OtlpProtocol;
  onWarning(
    `telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=${v} is not one of ${OTLP_PROTOCOLS.join(', ')}; sending ${DEFAULT_OTLP_PROTOCOL} (the OpenTelemetry default)`,
  );
  return DEFAULT_OTLP_PROTOCOL;
}

const SUFFIX: Record<OtlpProtocol, string> = { 'http/protobuf': 'proto', 'http/json': 'http', grpc: 'grpc' };
const SIGNAL: Record<OtlpSignal, string> = { traces: 'trace', metrics: 'metrics', logs: 'logs' };

/** The official exporter package of one signal over one protocol. */
function exporterPackage(signal: OtlpSignal, protocol: OtlpProtocol): string {
  return `@opentelemetry/exporter-${SIGNAL[signal]}-otlp-${SUFFIX[protocol]}`;
}

/** The collector's default address: 4318 for OTLP over HTTP, 4317 for gRPC (the spec's ports). */
function defaultEndpoint(protocol: OtlpProtocol): string {
  return protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318';
}

/**
 * Where one signal goes: OTLP/HTTP appends the signal's path to the base endpoint, as the spec
 * says for OTEL_EXPORTER_OTLP_ENDPOINT; gRPC names the service in the call, so the base is used as is.
 */
export function signalUrl(base: string | undefined, signal: OtlpSignal, protocol: OtlpProtocol): string {
  const b = (base?.trim() || defaultEndpoint(protocol)).replace(/\/+$/, '');
  return protocol === 'grpc' ? b : `${b}/v1/${signal}`;
}

interface ExporterModule {
  OTLPTraceExporter?: new (config: { url: string; timeoutMillis?: number }) => unknown;
  OTLPMetricExporter?: new (config: { url: string; timeoutMillis?: number }) => unknown;
  OTLPLogExporter?: new (config: { url: string; timeoutMillis?: number }) => unknown;
}

/**
 * Imports the exporter package of a signal and protocol. The packages are optional peers, so a
 * missing one is an error that names what to install.
 */
export async function importExporter(signal: OtlpSignal, protocol: OtlpProtocol): Promise<ExporterModule> {
  const name = exporterPackage(signal, protocol);
  try {
    // One literal import per package, so bundlers and `npm ls` see each of them.
    return (await IMPORTS[name]!()) as ExporterModule;
  } catch (err) {
    throw new Error(
      `OTLP ${signal} over ${protocol} needs ${name}: npm install ${name} (an optional peer dependency of agent-hooks; ${(err as Error).message})`,
    );
  }
}

const IMPORTS: Record<string, () => Promise<unknown>> = {
  '@opentelemetry/exporter-trace-otlp-proto': () => import('@opentelemetry/exporter-trace-otlp-proto'),
  '@opentelemetry/exporter-trace-otlp-http': () => import('@opentelemetry/exporter-trace-otlp-http'),
  '@opentelemetry/exporter-trace-otlp-grpc': () => import('@opentelemetry/exporter-trace-otlp-grpc'),
  '@opentelemetry/exporter-metrics-otlp-proto': () => import('@opentelemetry/exporter-metrics-otlp-proto'),
  '@opentelemetry/exporter-metrics-otlp-http': () => import('@opentelemetry/exporter-metrics-otlp-http'),
  '@opentelemetry/exporter-metrics-otlp-grpc': () => import('@opentelemetry/exporter-metrics-otlp-grpc'),
  '@opentelemetry/exporter-logs-otlp-proto': () => import('@opentelemetry/exporter-logs-otlp-proto'),
  '@opentelemetry/exporter-logs-otlp-http': () => import('@opentelemetry/exporter-logs-otlp-http'),
  '@opentelemetry/exporter-logs-otlp-grpc': () => import('@opentelemetry/exporter-logs-otlp-grpc'),
};
