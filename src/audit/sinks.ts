/**
 * Audit sinks chosen in settings (`agentHooks.audit`): a rotating JSONL file, PostgreSQL, and/or
 * OTLP logs.
 * Each sink has its own bounded queue (src/audit/queue.ts), so one sink being down never slows
 * the other or a decision. Settings merge per key with managed settings first, so a team's
 * managed `agentHooks.audit` is the one that applies.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_FILE_MAX_AGE_MS, DEFAULT_FILE_MAX_BYTES, rotatingFile } from './file-sink.js';
import { createBatchQueue, type BatchQueue, type BatchQueueOptions, type QueueStats } from './queue.js';
import type { AuditRecord } from './record.js';
import { OTLP_PROTOCOLS, otlpProtocol, type OtlpProtocol } from '../util/otlp-protocol.js';
import { memoUntilRejected } from '../util/memo-until-rejected.js';

const queueFields = {
  /** Records held while the sink is slow or down; beyond it records are dropped and counted. */
  buffer: z.number().int().min(1).optional(),
  batchSize: z.number().int().min(1).max(3000).optional(),
  flushMs: z.number().int().min(0).optional(),
};

const fileSinkSchema = z.strictObject({
  type: z.literal('file'),
  path: z.string().min(1),
  maxBytes: z.number().int().min(0).optional(),
  maxAgeHours: z.number().min(0).optional(),
  keep: z.number().int().min(0).optional(),
  ...queueFields,
});

const postgresSinkSchema = z.strictObject({
  type: z.literal('postgres'),
  /** A connection string; or `urlEnv`, the environment variable holding it (keeps the password out of settings). */
  url: z.string().min(1).optional(),
  urlEnv: z.string().min(1).optional(),
  table: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,50}$/)
    .optional(),
  maxConnections: z.number().int().min(1).optional(),
  ...queueFields,
});

const otlpSinkSchema = z.strictObject({
  type: z.literal('otlp'),
  /** The collector's base address (default: OTEL_EXPORTER_OTLP_ENDPOINT, else the spec's localhost port). */
  endpoint: z.url().optional(),
  /** Default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. */
  protocol: z.enum(OTLP_PROTOCOLS as [OtlpProtocol, ...OtlpProtocol[]]).optional(),
  /** The resource's service.name (default: OTEL_SERVICE_NAME, else agent-hooks). */
  serviceName: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(1).optional(),
  ...queueFields,
});

export const auditSettingsSchema = z.strictObject({
  sinks: z.array(z.discriminatedUnion('type', [fileSinkSchema, postgresSinkSchema, otlpSinkSchema])),
});
export type AuditSettings = z.infer<typeof auditSettingsSchema>;
export type SinkSettings = AuditSettings['sinks'][number];

export interface AuditWriter {
  write(record: AuditRecord): void;
  /** Resolves when every record written so far reached its sinks (or was dropped), or after `timeoutMs`. */
  flush(timeoutMs?: number): Promise<void>;
  close(timeoutMs?: number): Promise<void>;
  stats(): Array<QueueStats & { sink: string }>;
  /** True once everything written so far reached every sink (see BatchQueue.settled). */
  settled(timeoutMs: number): Promise<boolean>;
}

export interface AuditWriterOptions {
  /** Relative file paths resolve against this (default: the current directory). */
  baseDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The OTEL_* keys in force (settings `env` over the process): defaults of an otlp sink. */
  otelEnv?: Record<string, string | undefined>;
  onWarning?: (message: string) => void;
  /** Caps an otlp sink's `timeoutMs` (one export, retries included): see ObservabilityOptions.exportTimeoutMs. */
  exportTimeoutMs?: number;
  /** Every dropped record, by sink (the telemetry counter). */
  onDrop?: (sink: string, dropped: number) => void;
}

function describeSink(s: SinkSettings): string {
  if (s.type === 'file') return `file ${s.path}`;
  if (s.type === 'otlp') return `otlp${s.endpoint ? ` ${s.endpoint}` : ''}`;
  return `postgres${s.table ? ` ${s.table}` : ''}`;
}

/** One configured sink: its queue, and what closes the connection behind it (otlp, postgres). */
interface SinkQueue {
  name: string;
  queue: BatchQueue<AuditRecord>;
  /** Bounded by `timeoutMs` where a dead peer could hold it (the OTLP exporter's shutdown). */
  close?: (timeoutMs?: number) => Promise<void>;
}

type QueueCommon = Omit<BatchQueueOptions<AuditRecord>, 'write'>;

/** Builds the writers for the configured sinks; a sink that cannot be set up is reported and skipped. */
export function createAuditWriter(settings: AuditSettings, options: AuditWriterOptions = {}): AuditWriter {
  const warn = options.onWarning ?? (() => {});
  const queues: SinkQueue[] = [];
  for (const s of settings.sinks) {
    const name = describeSink(s);
    const common = queueCommon(s, name, warn, options);
    if (s.type === 'file') queues.push(fileSinkQueue(s, name, common, options));
    else if (s.type === 'otlp') queues.push(otlpSinkQueue(s, name, common, warn, options));
    else queues.push(postgresSinkQueue(s, name, common, warn, options));
  }
  return writerOver(queues);
}

/** Queue settings shared by every sink type: sizes, and how failures and drops are reported. */
function queueCommon(s: SinkSettings, name: string, warn: (message: string) => void, options: AuditWriterOptions): QueueCommon {
  return {
    capacity: s.buffer,
    batchSize: s.batchSize,
    flushMs: s.flushMs,
    onError: (err: Error) => warn(`audit sink ${name} failed: ${err.message}; records are held (up to ${s.buffer ?? 10_000}) and retried`),
    onDrop: (n: number, total: number) => {
      options.onDrop?.(name, n);
      // Every power of two: loud at the start of an outage, not one line per record.
      if ((total & (total - 1)) === 0)
        warn(`audit sink ${name}: ${total} record(s) dropped so far (buffer full or sink closed while down)`);
    },
  };
}

function fileSinkQueue(
  s: Extract<SinkSettings, { type: 'file' }>,
  name: string,
  common: QueueCommon,
  options: AuditWriterOptions,
): SinkQueue {
  const file = rotatingFile({
    path: resolve(options.baseDir ?? process.cwd(), s.path),
    maxBytes: s.maxBytes ?? DEFAULT_FILE_MAX_BYTES,
    maxAgeMs: s.maxAgeHours !== undefined ? s.maxAgeHours * 3_600_000 : DEFAULT_FILE_MAX_AGE_MS,
    keep: s.keep,
  });
  return {
    name,
    queue: createBatchQueue({ ...common, write: (batch) => file.append(batch.map((r) => `${JSON.stringify(r)}\n`).join('')) }),
  };
}

function otlpSinkQueue(
  s: Extract<SinkSettings, { type: 'otlp' }>,
  name: string,
  common: QueueCommon,
  warn: (message: string) => void,
  options: AuditWriterOptions,
): SinkQueue {
  const otel = options.otelEnv ?? options.env ?? process.env;
  const sinkOptions = {
    endpoint: s.endpoint ?? otel.OTEL_EXPORTER_OTLP_ENDPOINT,
    protocol: s.protocol ?? otlpProtocol(otel.OTEL_EXPORTER_OTLP_PROTOCOL, warn),
    serviceName: s.serviceName ?? otel.OTEL_SERVICE_NAME,
    timeoutMs:
      options.exportTimeoutMs !== undefined ? Math.min(s.timeoutMs ?? options.exportTimeoutMs, options.exportTimeoutMs) : s.timeoutMs,
  };
  // The logs SDK and exporter load on the first batch; a missing package fails that batch
  // (held, retried, then dropped and counted) with a message naming what to install.
  const sink = memoUntilRejected(() => import('./otlp-sink.js').then((m) => m.otlpLogSink(sinkOptions)));
  return {
    name,
    queue: createBatchQueue({ ...common, write: async (batch) => (await sink.get()).export(batch) }),
    close: async (timeoutMs) => {
      await (await sink.current()?.catch(() => undefined))?.close(timeoutMs);
    },
  };
}

function postgresSinkQueue(
  s: Extract<SinkSettings, { type: 'postgres' }>,
  name: string,
  common: QueueCommon,
  warn: (message: string) => void,
  options: AuditWriterOptions,
): SinkQueue {
  const url = s.url ?? (s.urlEnv ? (options.env ?? process.env)[s.urlEnv] : undefined);
  if (!url) {
    warn(`audit sink ${name}: no connection string (set "url", or "urlEnv" to a variable that is set); records for it are dropped`);
    // A queue of one that always fails: every record is dropped and counted, never silently.
    return {
      name,
      queue: createBatchQueue({ ...common, capacity: 1, write: () => Promise.reject(new Error('not configured')) }),
    };
  }
  // The pg client loads on the first batch, so a CLI run with a PostgreSQL sink starts as fast as without.
  const db = memoUntilRejected(() =>
    import('./postgres.js').then((m) => m.postgresAudit({ url, table: s.table, maxConnections: s.maxConnections })),
  );
  return {
    name,
    queue: createBatchQueue({ ...common, write: async (batch) => (await db.get()).insert(batch) }),
    close: async () => {
      await (await db.current()?.catch(() => undefined))?.close();
    },
  };
}

/** One writer over every sink's queue: a record goes to each; flush, close and settled wait for all. */
function writerOver(queues: SinkQueue[]): AuditWriter {
  return {
    write(record) {
      for (const q of queues) q.queue.push(record);
    },
    async flush(timeoutMs) {
      const all = Promise.all(queues.map((q) => q.queue.flush()));
      if (timeoutMs === undefined) return void (await all);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    },
    async close(timeoutMs) {
      await Promise.all(
        queues.map(async (q) => {
          await q.queue.close(timeoutMs);
          await q.close?.(timeoutMs);
        }),
      );
    },
    stats: () => queues.map((q) => ({ sink: q.name, ...q.queue.stats() })),
    async settled(timeoutMs) {
      return (await Promise.all(queues.map((q) => q.queue.settled(timeoutMs)))).every(Boolean);
    },
  };
}
