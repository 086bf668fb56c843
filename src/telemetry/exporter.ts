/**
 * The opt-in OTLP exporter of the CLI, `dispatch` and the policy server, switched on the way
 * agents do it: AGENT_HOOKS_ENABLE_TELEMETRY=1 with the standard OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_SERVICE_NAME (from the environment, or the same keys in a
 * settings file's `env`). The SDK and exporters are optional peer dependencies, imported here
 * only when telemetry is on; a missing one is a clear error, never a crash of the hook.
 */
import { metrics, trace } from '@opentelemetry/api';

export interface TelemetryExporter {
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
  /** Export what is buffered now. */
  flush(): Promise<void>;
}

const PACKAGES = ['@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-metrics', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http', '@opentelemetry/resources'];

/**
 * Registers global tracer and meter providers exporting over OTLP http/json. Other protocols
 * (http/protobuf, grpc) would need further exporter packages: they are refused with a warning
 * and http/json is used, which every OTLP collector accepts on its HTTP port.
 */
export async function startOtlpExporter(env: Record<string, string | undefined>, onWarning: (m: string) => void = () => {}): Promise<TelemetryExporter> {
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/json';
  if (protocol !== 'http/json') onWarning(`telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by agent-hooks' exporter; sending http/json`);
  const base = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318').replace(/\/+$/, '');
  let mods;
  try {
    mods = await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  } catch (err) {
    throw new Error(`AGENT_HOOKS_ENABLE_TELEMETRY=1 needs the OpenTelemetry SDK: npm install ${PACKAGES.join(' ')} (optional peer dependencies of agent-hooks; ${(err as Error).message})`);
  }
  const [tb, sm, te, me, res] = mods;
  const resource = res.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'agent-hooks' });
  const tracerProvider = new tb.BasicTracerProvider({
    resource,
    spanProcessors: [new tb.BatchSpanProcessor(new te.OTLPTraceExporter({ url: `${base}/v1/traces` }), { scheduledDelayMillis: 1000 })],
  });
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) > 0 ? Number(env.OTEL_METRIC_EXPORT_INTERVAL) : 10_000;
  const meterProvider = new sm.MeterProvider({
    resource,
    readers: [new sm.PeriodicExportingMetricReader({ exporter: new me.OTLPMetricExporter({ url: `${base}/v1/metrics` }), exportIntervalMillis: interval })],
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
