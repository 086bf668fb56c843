/**
 * The engine: event → plan → execute → parse → reduce → Decision.
 * Holds a frozen registry snapshot, the engine-wide concurrency bound, the Stop-loop
 * counters and the audit sink (state.ts); a firing is firing.ts, everything else is
 * delegated to stage modules.
 */
import { observeRun } from '../telemetry/observe.js';
import { drainBackground } from './background.js';
import { runFiring } from './firing.js';
import { listHooks, registerFunction, replaceConfigHooks } from './hooks.js';
import { checkEngineOptions } from './option-keys.js';
import { createEngineState } from './state.js';
import type { HookEngine, HookEngineOptions, RunContext } from './types.js';

export type { Backend, BackendContext } from '../backends/types.js';
export type { FunctionHookRegistration, HookEngine, HookEngineOptions, RunContext } from './types.js';
export { DEFAULT_TIMEOUTS } from './timeouts.js';
export { checkInput, InvalidHookInputError } from './input.js';
export { emptyDecision } from '../reduce/reduce.js';
export { skipsInPlanMode } from '../events/facts.js';

/** Create an engine; an unknown option (a typo of a known one) is a TypeError, before anything runs. */
export function createHookEngine(options: HookEngineOptions = {}): HookEngine {
  checkEngineOptions(options);
  const state = createEngineState(options);
  const observed = observeRun<RunContext>((event, input, ctx, obs) => runFiring(state, event, input, ctx, obs), {
    auditWriter: options.auditWriter,
    auditWaitMs: options.auditWaitMs,
    telemetry: options.telemetry,
    projectDir: state.projectDir,
    onWarning: state.warn,
  });
  return {
    run: observed as HookEngine['run'],
    register: (reg) => registerFunction(state.hooks, reg),
    list: (event) => listHooks(state.hooks, event),
    setHooks: (hooks) => replaceConfigHooks(state.hooks, hooks),
    drain: () => drainBackground(state),
    async close() {
      await drainBackground(state);
      await state.fileSink?.close();
      await options.auditWriter?.flush(options.auditWaitMs ?? 5000);
      await state.ownedMcp?.close();
    },
    concurrency: {
      get active() {
        return state.semaphore.active;
      },
      get waiting() {
        return state.semaphore.waiting;
      },
    },
  };
}
