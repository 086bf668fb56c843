/**
 * The opt-in OTLP exporter of the CLI, `dispatch` and the policy server, switched on the way
 * agents do it: AGENT_HOOKS_ENABLE_TELEMETRY=1 with the standard OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_SERVICE_NAME (from the environment, or the same keys in a
 * settings file's `env`). The SDK and exporters are optional peer dependencies, imported here
 * only when telemetry is on; a missing one is a clear error, never a crash of the hook.
 */
import { metrics, trace } from '@opentelemetry/api';
import { importExporter, otlpProtocol, signalUrl } from '../util/otlp-protocol.js';

export interface TelemetryExporter {
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
  /** Export what is buffered now. */
  flush(): Promise<void>;
}

const SDK = ['@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-metrics', '@opentelemetry/resources'];

/**
 * Registers global tracer and meter providers exporting over OTLP with the protocol asked for
 * (http/protobuf by default, http/json, grpc), each through its official exporter package.
 */
export async function startOtlpExporter(
  env: Record<string, string | undefined>,
  onWarning: (m: string) => void = () => {},
  /** Each export's budget, retries included (the exporters' default: 10 s); `dispatch` gives a few hundred ms. */
  exportTimeoutMs?: number,
): Promise<TelemetryExporter> {
  const limit = exportTimeoutMs !== undefined ? { timeoutMillis: exportTimeoutMs } : {};
  const protocol = otlpProtocol(env.OTEL_EXPORTER_OTLP_PROTOCOL, onWarning);
  let sdk: [
    typeof import('@opentelemetry/sdk-trace-base'),
    typeof import('@opentelemetry/sdk-metrics'),
    typeof import('@opentelemetry/resources'),
  ];
  try {
    sdk = await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/resources'),
    ]);
  } catch (err) {
    throw new Error(
      `AGENT_HOOKS_ENABLE_TELEMETRY=1 needs the OpenTelemetry SDK: npm install ${SDK.join(' ')} (optional peer dependencies of agent-hooks; ${(err as Error).message})`,
    );
  }
  const [tb, sm, res] = sdk;
  const [te, me] = await Promise.all([importExporter('traces', protocol), importExporter('metrics', protocol)]);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const resource = res.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'agent-hooks' });
  const traceExporter = new te.OTLPTraceExporter!({ url: signalUrl(base, 'traces', protocol), ...limit }) as ConstructorParameters<
    typeof tb.BatchSpanProcessor
  >[0];
  const metricExporter = new me.OTLPMetricExporter!({ url: signalUrl(base, 'metrics', protocol), ...limit }) as ConstructorParameters<
    typeof sm.PeriodicExportingMetricReader
  >[0]['exporter'];
  const tracerProvider = new tb.BasicTracerProvider({
    resource,
    spanProcessors: [new tb.BatchSpanProcessor(traceExporter, { scheduledDelayMillis: 1000 })],
  });
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) > 0 ? Number(env.OTEL_METRIC_EXPORT_INTERVAL) : 10_000;
  const meterProvider = new sm.MeterProvider({
    resource,
    readers: [new sm.PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: interval })],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    async flush() {
      await Promise.allSettled([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
    },
  };
}
