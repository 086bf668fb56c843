/**
 * The hooks engine as a listener of the runtime's slots: one listener named `hooks` per slot,
 * each turning the slot event into the catalog event's input and the Decision back into what
 * the slot understands (veto, rewrite, context, replaced output). Nothing in the runtime calls
 * the engine except through these listeners, the SessionStart of the session manager, and
 * the MCP module's Elicitation hooks.
 */
import type { EventName } from '../events/catalog.js';
import { unjudgedDecision, type Decision } from '../reduce/reduce.js';
import {
  actorFields,
  afterToolBatchListener,
  afterToolListener,
  beforeCompactListener,
  beforeToolListener,
  type HookWiring,
  messageDisplayListener,
  notificationListener,
  permissionDeniedListener,
  permissionRequestListener,
  permissionResultListener,
  promptSubmitListener,
  type SlotFn,
  stopFailureListener,
  stopListener,
  subagentStartListener,
} from './hook-slot-listeners.js';
import type { RuntimeSlots } from './runtime-slots.js';
import type { HookRunner } from './types.js';

export { explicitBlock } from './hook-slot-listeners.js';

const HOOKS_LISTENER = 'hooks';
/** An outer guard on Stop hooks, independent of each hook's own timeout: a stuck Stop never holds the turn open. */
const DEFAULT_STOP_GUARD_MS = 30_000;
/** Graceful shutdown: SessionEnd hooks get this long in all (the engine's per-hook default is 1.5 s). */
export const DEFAULT_SESSION_END_BUDGET_MS = 2_000;

export interface HookListenerOptions {
  /** Outer guard on Stop / SubagentStop hooks (default 30 s): when it fires, the agent may stop. */
  stopGuardMs?: number;
  /** Every decision, for tracing. */
  onDecision?: (event: EventName, decision: Decision) => void;
  onWarning?: (message: string) => void;
}

/** Attach the hooks engine to every slot; returns the detach function. */
export function attachHooks(slots: RuntimeSlots, hooks: HookRunner, options: HookListenerOptions = {}): () => void {
  if (typeof hooks?.run !== 'function')
    throw new TypeError('attachHooks: the runner must have run(event, input, ctx) (a SessionHandle has it)');
  const warn = options.onWarning ?? (() => {});
  const stopGuardMs = options.stopGuardMs ?? DEFAULT_STOP_GUARD_MS;

  const fire = firing(hooks, warn, options.onDecision);
  const w: HookWiring = { fire, guarded: stopGuard(fire, warn, stopGuardMs), warn };

  const off: Array<() => void> = [];
  const on = <K extends keyof RuntimeSlots>(slot: K, fn: SlotFn<K>, order: { after?: string[]; before?: string[] } = {}) => {
    off.push((slots[slot].add as (l: unknown) => () => void)({ name: HOOKS_LISTENER, ...order, fn }));
  };
  // The permission gate and the plan-mode guard decide first: a rule-level deny never runs PreToolUse.
  on('beforeTool', beforeToolListener(w), { after: ['permission-gate', 'plan-mode-guard'] });
  on('permissionRequest', permissionRequestListener(w));
  on('permissionResult', permissionResultListener(w));
  on('permissionDenied', permissionDeniedListener(w));
  on('afterTool', afterToolListener(w));
  on('afterToolBatch', afterToolBatchListener(w));
  on('promptSubmit', promptSubmitListener(w));
  on('promptQueued', async (e) => {
    await fire('UserPromptQueued', { prompt: e.prompt }, { mode: e.mode, cwd: e.cwd });
  });
  on('turnStart', async (e) => {
    await fire('TurnStarted', { turn_id: e.turnId, ...actorFields(e) }, { mode: e.mode, cwd: e.cwd });
  });
  on('messageDisplay', messageDisplayListener(w));
  on('beforeStop', stopListener(w, 'Stop'));
  on('beforeSubagentStop', stopListener(w, 'SubagentStop'));
  on('stopFailure', stopFailureListener(w));
  on('interrupt', async (e) => {
    await fire('Interrupt', { reason: e.reason, ...actorFields(e) }, { mode: e.mode, cwd: e.cwd });
  });
  on('notification', notificationListener(w));
  on('subagentStart', subagentStartListener(w));
  on('beforeCompact', beforeCompactListener(w));
  on('afterCompact', async (e) => {
    await fire('PostCompact', { trigger: e.trigger, compact_summary: e.summary }, { mode: e.mode, cwd: e.cwd });
  });
  on('sessionHeartbeat', async (e) => {
    await fire('SessionHeartbeat', { uptime_ms: e.uptimeMs, interval_ms: e.intervalMs }, { mode: e.mode, cwd: e.cwd });
  });
  on('sessionEnd', async (e) => {
    await fire('SessionEnd', { reason: e.reason }, { mode: e.mode, cwd: e.cwd, ...(e.signal ? { signal: e.signal } : {}) });
  });
  on('instructionsLoaded', async (e) => {
    await fire(
      'InstructionsLoaded',
      { file_path: e.filePath, memory_type: e.memoryType, load_reason: e.loadReason },
      { mode: e.mode, cwd: e.cwd },
    );
  });

  return () => {
    for (const f of off.splice(0)) f();
  };
}

/** Fire one event; an engine error is reported and fails closed where the event can block. */
function firing(hooks: HookRunner, warn: (message: string) => void, onDecision: HookListenerOptions['onDecision']): HookWiring['fire'] {
  return async (event, input, ctx) => {
    const payload = { ...input, permission_mode: ctx.mode, cwd: ctx.cwd };
    const runCtx = { permissionMode: ctx.mode, cwd: ctx.cwd, signal: ctx.signal };
    let decision: Decision;
    try {
      decision = await hooks.run(event, payload, runCtx);
    } catch (e) {
      // The engine's own failure is never a hook's: the event is stopped where running it
      // unjudged would fail open, and goes on elsewhere (reduce.ts `unjudgedDecision`).
      warn(`${event} hooks failed: ${(e as Error)?.message ?? String(e)}`);
      decision = unjudgedDecision(event, `engine error, the hooks could not judge ${event}: ${(e as Error)?.message ?? String(e)}`);
    }
    onDecision?.(event, decision);
    return decision;
  };
}

/** Stop/SubagentStop under the outer guard: when it fires, the hooks are aborted and the agent may stop. */
function stopGuard(fire: HookWiring['fire'], warn: (message: string) => void, stopGuardMs: number): HookWiring['guarded'] {
  return async (event, input, ctx) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`${event} hooks exceeded the ${stopGuardMs} ms guard`));
        resolve(undefined);
      }, stopGuardMs);
    });
    try {
      const d = await Promise.race([fire(event, input, { ...ctx, signal: controller.signal }), timeout]);
      if (!d) warn(`${event} hooks did not finish within ${stopGuardMs} ms; the agent stops`);
      return d;
    } finally {
      clearTimeout(timer);
    }
  };
}
