/**
 * The OTLP logs audit sink: one log record per audit record (hook execution or decision), sent
 * through the OpenTelemetry logs SDK and the official exporter of the protocol asked for. The
 * records are batched and bounded by the sink's own queue (src/audit/queue.ts), like every sink;
 * a batch is handed to the exporter directly, so a failed export keeps the batch in that queue
 * for a retry instead of being dropped inside the SDK's processor without a count.
 * Loaded only when a settings file names an `otlp` sink.
 */
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { AuditRecord } from './record.js';
import { importExporter, signalUrl, type OtlpProtocol } from '../util/otlp-protocol.js';

export interface OtlpLogSink {
  /** Resolves when the collector accepted the batch; rejects when the export failed. */
  export(batch: AuditRecord[]): Promise<void>;
  /** Waits at most `timeoutMs` (default 1 s) for the exporter to let go. */
  close(timeoutMs?: number): Promise<void>;
}

export interface OtlpLogSinkOptions {
  endpoint?: string;
  protocol: OtlpProtocol;
  serviceName?: string;
  timeoutMs?: number;
}

// SeverityNumber of the OpenTelemetry logs data model.
const INFO = 9;
const WARN = 13;
const ERROR = 17;

type Attr = string | number | boolean;

/** The record's fields as log attributes, named like the span attributes (src/telemetry/spans.ts). */
function auditLogAttributes(r: AuditRecord): Record<string, Attr> {
  const a: Record<string, Attr> = {
    'agent_hooks.record_id': r.id,
    'agent_hooks.kind': r.kind,
    'agent_hooks.project': r.project,
    'agent_hooks.session_id': r.session_id,
    'agent_hooks.client': r.client,
    'agent_hooks.event': r.event,
    'agent_hooks.firing_id': r.firing_id,
    'agent_hooks.outcome': r.outcome,
    'agent_hooks.duration_ms': r.durationMs,
  };
  if (r.tool_name !== undefined) a['agent_hooks.tool_name'] = r.tool_name;
  if (r.hook) {
    a['agent_hooks.hook.id'] = r.hook.id;
    a['agent_hooks.hook.type'] = r.hook.type;
    a['agent_hooks.hook.source'] = r.hook.source.kind;
    a['agent_hooks.hook.path'] = r.hook.source.path;
    if (r.hook.source.file) a['agent_hooks.hook.file'] = r.hook.source.file;
    if (r.hook.source.pluginName) a['agent_hooks.hook.plugin'] = r.hook.source.pluginName;
    if (r.hook.matcher !== undefined) a['agent_hooks.matcher'] = r.hook.matcher;
  }
  if (r.hook_execution_id) a['agent_hooks.hook_execution_id'] = r.hook_execution_id;
  if (r.exitCode !== undefined && r.exitCode !== null) a['agent_hooks.exit_code'] = r.exitCode;
  if (r.decision !== undefined) a['agent_hooks.decision'] = r.decision;
  if (r.reason !== undefined) a['agent_hooks.reason'] = r.reason;
  if (r.error !== undefined) a['agent_hooks.error'] = r.error;
  if (r.policy !== undefined) a['agent_hooks.policy'] = r.policy;
  return a;
}

function severity(r: AuditRecord): number {
  if (r.outcome === 'error' || r.outcome === 'timeout') return ERROR;
  if (r.outcome === 'blocked' || r.outcome === 'blocking') return WARN;
  return INFO;
}

export async function otlpLogSink(o: OtlpLogSinkOptions): Promise<OtlpLogSink> {
  let sdk: [typeof import('@opentelemetry/sdk-logs'), typeof import('@opentelemetry/resources')];
  try {
    sdk = await Promise.all([import('@opentelemetry/sdk-logs'), import('@opentelemetry/resources')]);
  } catch (err) {
    throw new Error(
      `the otlp audit sink needs the OpenTelemetry logs SDK: npm install @opentelemetry/sdk-logs @opentelemetry/resources (optional peer dependencies of agent-hooks; ${(err as Error).message})`,
    );
  }
  const [logs, res] = sdk;
  const ex = await importExporter('logs', o.protocol);
  const exporter = new ex.OTLPLogExporter!({
    url: signalUrl(o.endpoint, 'logs', o.protocol),
    timeoutMillis: o.timeoutMs ?? 10_000,
  }) as LogRecordExporter;
  // The SDK builds the records (resource, scope, timestamps); this processor only collects them.
  let emitted: Parameters<LogRecordProcessor['onEmit']>[0][] = [];
  const collect: LogRecordProcessor = {
    onEmit: (record) => void emitted.push(record),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new logs.LoggerProvider({
    resource: res.resourceFromAttributes({ 'service.name': o.serviceName ?? 'agent-hooks' }),
    processors: [collect],
  });
  const logger = provider.getLogger('agent-hooks');
  return {
    export(batch) {
      emitted = [];
      for (const r of batch) {
        const kind = r.kind === 'hook' ? 'hook' : 'decision';
        logger.emit({
          eventName: `agent_hooks.${kind}`,
          timestamp: new Date(r.ts),
          severityNumber: severity(r),
          severityText: severity(r) === INFO ? 'INFO' : severity(r) === WARN ? 'WARN' : 'ERROR',
          body: kind === 'hook' ? `${r.event} hook ${r.hook?.type ?? ''} ${r.outcome}` : `${r.event} decision ${r.decision ?? 'none'}`,
          attributes: auditLogAttributes(r),
        });
      }
      const records = emitted;
      emitted = [];
      return new Promise<void>((resolve, reject) => {
        exporter.export(records, (result) => {
          // ExportResultCode.SUCCESS is 0.
          if (result.code === 0) resolve();
          else reject(result.error ?? new Error('OTLP logs export failed'));
        });
      });
    },
    async close(timeoutMs = 1000) {
      // The exporter's shutdown waits for its own in-flight retries, which run on unref'd timers:
      // against a dead collector it would never settle and the process would exit mid-await.
      // Bounded (the queue has already given up on what is left, and counted it), on a timer
      // that keeps the process alive until then.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([exporter.shutdown(), provider.shutdown()]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(o.timeoutMs ?? 10_000, 1000, timeoutMs)))),
      ]);
      clearTimeout(timer);
    },
  };
}
