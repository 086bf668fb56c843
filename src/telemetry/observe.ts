/**
 * What watches a firing besides the caller: the audit writer (one record per hook execution and
 * per decision) and OpenTelemetry (a span per firing, a child per hook, metrics). The engine
 * wraps run() with observeRun(); with neither configured it gets run() back untouched, so an
 * engine without audit sinks or telemetry pays nothing (bench: "telemetry off").
 */
import { nowMs } from '../util/clock.js';
import { decisionAuditRecord, hookAuditRecord, newFiringContext, type FiringContext } from '../audit/record.js';
import type { AuditSettings, AuditWriter } from '../audit/sinks.js';
// Not sinks.ts or queue.ts: a dispatch without sinks loads neither (nor the zod of the sinks' schemas).
import { undelivered } from '../audit/undelivered.js';
import type { Observability } from './setup.js';
import { telemetryEnabled } from './env.js';
import type { EventName } from '../events/catalog.js';
import type { Decision, HookRecord } from '../reduce/reduce.js';

export interface FiringObservation {
  hook(record: HookRecord, payload: Record<string, unknown>): void;
}

export interface ObserveContext {
  sessionId?: string;
  /** Who asked (policy server: the client identity; default `local`). */
  client?: string;
  /** The project recorded (default: the payload's cwd, else the engine's project). */
  project?: string;
  /** Reuse this id for the firing: a client's retry of the same event keeps its audit ids. */
  firingId?: string;
}

export type RunFiring<C> = (
  event: EventName,
  input: Record<string, unknown>,
  ctx: C | undefined,
  obs?: FiringObservation,
) => Promise<Decision>;

export interface ObserveOptions {
  auditWriter?: AuditWriter;
  /** OpenTelemetry through @opentelemetry/api (default: on when AGENT_HOOKS_ENABLE_TELEMETRY=1). */
  telemetry?: boolean;
  projectDir: string;
  onWarning?: (message: string) => void;
  /** HookEngineOptions.auditWaitMs: how long a decision waits for its audit (default 250 ms; 0: no wait). */
  auditWaitMs?: number;
}

const DEFAULT_AUDIT_WAIT_MS = 250;

type Tel = typeof import('./spans.js');

export function observeRun<C extends ObserveContext>(run: RunFiring<C>, options: ObserveOptions): RunFiring<C> {
  const writer = options.auditWriter;
  const telemetry = options.telemetry ?? telemetryEnabled();
  if (!writer && !telemetry) return run;
  let tel: Tel | undefined;
  const telLoad: Promise<Tel> | undefined = telemetry ? import('./spans.js').then((m) => (tel = m)) : undefined;

  return async (event, input, ctx) => {
    if (telLoad && !tel) await telLoad;
    const start = nowMs();
    const f: FiringContext = newFiringContext({
      firingId: ctx?.firingId,
      project: ctx?.project ?? (typeof input.cwd === 'string' && input.cwd ? input.cwd : options.projectDir),
      sessionId: String(ctx?.sessionId ?? input.session_id ?? 'default'),
      client: ctx?.client ?? 'local',
      event,
      ...(typeof input.tool_name === 'string' ? { toolName: input.tool_name } : {}),
    });
    const span = tel?.startFiring(f);
    const obs: FiringObservation = {
      hook(record, payload) {
        const id = typeof payload.hook_execution_id === 'string' ? payload.hook_execution_id : undefined;
        writer?.write(hookAuditRecord(f, record, id));
        tel?.recordHook(span, f, record);
      },
    };
    let decision: Decision | undefined;
    let error: string | undefined;
    try {
      decision = (await span?.run(() => run(event, input, ctx, obs))) ?? (await run(event, input, ctx, obs));
    } catch (err) {
      error = (err as Error)?.message ?? String(err);
      throw err;
    } finally {
      const ms = nowMs() - start;
      writer?.write(decisionAuditRecord(f, decision, ms, error));
      tel?.endFiring(span, f, decision, ms, error);
    }
    return writer ? withAuditOutcome(decision, writer, options.auditWaitMs ?? DEFAULT_AUDIT_WAIT_MS) : decision;
  };
}

/**
 * The decision once its records reached every sink, or with a warning naming what did not within
 * `waitMs` (a full disk, a collector or database down): the audit never loses a record silently,
 * and no sink holds a decision longer than `waitMs`.
 */
async function withAuditOutcome(decision: Decision, writer: AuditWriter, waitMs: number): Promise<Decision> {
  if (waitMs <= 0 || (await writer.settled(waitMs))) return decision;
  const what = undelivered(writer.stats()) || 'a sink did not confirm the write';
  return {
    ...decision,
    warnings: [...decision.warnings, `audit: this event's records did not all reach their sinks within ${waitMs} ms: ${what}`],
  };
}

/**
 * The audit sinks and telemetry of a CLI process (run, dispatch) from its loaded settings, or
 * undefined when neither is configured: then nothing of the sinks or the exporter is loaded.
 */
export async function observabilityFor(
  config: { options: { auditSinks?: AuditSettings['sinks'] }; env?: Record<string, string> },
  baseDir: string,
  onWarning: (message: string) => void,
  exportTimeoutMs?: number,
): Promise<Observability | undefined> {
  const sinks = config.options.auditSinks;
  if (!sinks && !config.env?.AGENT_HOOKS_ENABLE_TELEMETRY && !process.env.AGENT_HOOKS_ENABLE_TELEMETRY) return undefined;
  const { setupObservability } = await import('./setup.js');
  return setupObservability({ audit: sinks ? { sinks } : undefined, settingsEnv: config.env, baseDir, onWarning, exportTimeoutMs });
}
