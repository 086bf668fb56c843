/**
 * What a CLI process (run, dispatch, the policy server) sets up around its engine: the audit
 * sinks from settings and, when switched on, the OTLP exporter. One close() flushes both.
 */
import { createAuditWriter, type AuditSettings, type AuditWriter } from '../audit/sinks.js';
import { telemetryEnabled, telemetryEnv } from './env.js';

export interface Observability {
  auditWriter?: AuditWriter;
  telemetry: boolean;
  close(): Promise<void>;
}

export interface ObservabilityOptions {
  audit?: AuditSettings;
  /** The merged `env` of the settings files (telemetry keys only are read). */
  settingsEnv?: Record<string, string>;
  baseDir?: string;
  onWarning?: (message: string) => void;
}

export async function setupObservability(o: ObservabilityOptions): Promise<Observability> {
  const warn = o.onWarning ?? (() => {});
  let exporter: import('./exporter.js').TelemetryExporter | undefined;
  let telemetry = false;
  let tel: typeof import('./spans.js') | undefined;
  const env = telemetryEnv(o.settingsEnv);
  if (telemetryEnabled(env)) {
    try {
      exporter = await (await import('./exporter.js')).startOtlpExporter(env, warn);
      telemetry = true;
      tel = await import('./spans.js');
    } catch (err) {
      warn(`telemetry: ${(err as Error).message}`);
    }
  }
  const auditWriter =
    o.audit && o.audit.sinks.length > 0
      ? createAuditWriter(o.audit, { baseDir: o.baseDir, otelEnv: env, onWarning: warn, onDrop: (sink, n) => tel?.recordDropped(sink, n) })
      : undefined;
  return {
    auditWriter,
    telemetry,
    async close() {
      await auditWriter?.close();
      await exporter?.shutdown();
    },
  };
}
