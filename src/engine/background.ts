/** Async hooks (`async`, `asyncRewake`): started by a firing, finished after it returns. */
import type { BackendContext } from '../backends/types.js';
import type { EventName } from '../events/catalog.js';
import type { FiringObservation } from '../telemetry/observe.js';
import type { CommandHandler, ExecutionResult } from '../types.js';
import { execute, parseResult } from './execute.js';
import type { PlannedHook } from './plan.js';
import { auditEntry, captureIo, makeRecord } from './records.js';
import type { EngineState } from './state.js';

export function startAsync(
  state: EngineState,
  planned: PlannedHook,
  payload: Record<string, unknown>,
  hctx: BackendContext,
  event: EventName,
  obs?: FiringObservation,
) {
  // Background hooks outlive the firing: no abort signal from it, and no env file (disposed at return).
  const bg = { ...hctx, signal: undefined, envFile: undefined };
  // One that also declares itself async on its first line is followed to its own end.
  adoptAsync(
    state,
    planned,
    payload,
    execute(state, planned, payload, bg).then((r) => r.background ?? r),
    event,
    obs,
  );
}

/**
 * Follows a hook running in the background to its end: a configured async one, or one that declared
 * itself async on its first stdout line (src/backends/async-declaration.ts), whose firing went on
 * without it. Its answer is recorded, audited and handed to `onAsyncResult`; it decides nothing.
 */
export function adoptAsync(
  state: EngineState,
  planned: PlannedHook,
  payload: Record<string, unknown>,
  running: Promise<ExecutionResult>,
  event: EventName,
  obs?: FiringObservation,
) {
  const { options } = state;
  const p = running.then((result) => {
    const parsed = parseResult(state, event, result, payload);
    const record = makeRecord(planned, result, parsed, parsed.verdict, parsed.reason, undefined);
    record.outcome = `async:${record.outcome}`;
    if (options.captureIoBytes) record.io = captureIo(payload, result, options.captureIoBytes);
    state.audit?.(auditEntry(record, payload, String(payload.session_id), state.projectDir, options.auditIo));
    obs?.hook(record, payload);
    const h = planned.hook.handler as CommandHandler;
    const rewake = h.asyncRewake && result.exitCode === 2 ? result.stderr.trim() || result.stdout.trim() : undefined;
    const context = parsed.additionalContext ? { additionalContext: parsed.additionalContext } : {};
    options.onAsyncResult?.({ hook: planned.hook, event, record, rewake, ...context });
  });
  state.pending.add(p);
  void p.finally(() => state.pending.delete(p));
}

/** Whether a hook runs in the background (a command hook marked async or asyncRewake). */
export function runsInBackground(planned: PlannedHook): boolean {
  const h = planned.hook.handler as CommandHandler;
  return h.type === 'command' && Boolean(h.async || h.asyncRewake);
}

/** Waits until no background hook is running (ones started meanwhile included). */
export async function drainBackground(state: EngineState): Promise<void> {
  while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
}
