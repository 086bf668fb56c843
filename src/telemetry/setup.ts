/**
 * What a CLI process (run, dispatch, the policy server) sets up around its engine: the audit
 * sinks from settings and, when switched on, the OTLP exporter. One close() flushes both.
 */
import { createAuditWriter, type AuditSettings, type AuditWriter } from '../audit/sinks.js';
import { telemetryEnabled, telemetryEnv } from './env.js';

export interface Observability {
  auditWriter?: AuditWriter;
  telemetry: boolean;
  /** Flushes the sinks and the exporter; with `timeoutMs`, gives up on a dead peer after about that long. */
  close(timeoutMs?: number): Promise<void>;
}

export interface ObservabilityOptions {
  audit?: AuditSettings;
  /** The merged `env` of the settings files (telemetry keys only are read). */
  settingsEnv?: Record<string, string>;
  baseDir?: string;
  onWarning?: (message: string) => void;
  /**
   * Upper bound of one OTLP export, retries included (audit sink and telemetry exporter): a
   * process the agent waits on (`dispatch`) must not wait out a dead collector's 10 s.
   */
  exportTimeoutMs?: number;
}

export async function setupObservability(o: ObservabilityOptions): Promise<Observability> {
  const warn = o.onWarning ?? (() => {});
  let exporter: import('./exporter.js').TelemetryExporter | undefined;
  let telemetry = false;
  let tel: typeof import('./spans.js') | undefined;
  const env = telemetryEnv(o.settingsEnv);
  if (telemetryEnabled(env)) {
    try {
      exporter = await (await import('./exporter.js')).startOtlpExporter(env, warn, o.exportTimeoutMs);
      telemetry = true;
      tel = await import('./spans.js');
    } catch (err) {
      warn(`telemetry: ${(err as Error).message}`);
    }
  }
  const auditWriter =
    o.audit && o.audit.sinks.length > 0
      ? createAuditWriter(o.audit, {
          baseDir: o.baseDir,
          otelEnv: env,
          onWarning: warn,
          onDrop: (sink, n) => tel?.recordDropped(sink, n),
          exportTimeoutMs: o.exportTimeoutMs,
        })
      : undefined;
  return {
    auditWriter,
    telemetry,
    async close(timeoutMs) {
      await auditWriter?.close(timeoutMs);
      if (!exporter) return;
      if (timeoutMs === undefined) return void (await exporter.shutdown());
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        exporter.shutdown().then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (gaveUp) warn(`telemetry: the OTLP exporter did not flush within ${timeoutMs} ms; spans and metrics of this run may be lost`);
    },
  };
}
