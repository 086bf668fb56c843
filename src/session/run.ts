/** Firing an event in a session: the switches that pass everything through, and `once` hooks retired as they are planned. */
import { emptyDecision, InvalidHookInputError, type RunContext } from '../engine/engine.js';
import { permissionModeOf, skipsInPlanMode } from '../events/facts.js';
import { ensureIfRules, planHooks } from '../engine/plan.js';
import { isEventName, type EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { NormalizedHook } from '../types.js';
import { live, recompose, type ManagerState, type SessionState } from './state.js';
import { namesFoldCase } from '../util/name-case.js';

export async function runEvent(
  m: ManagerState,
  s: SessionState,
  event: EventName,
  input: Record<string, unknown>,
  ctx: RunContext = {},
): Promise<Decision> {
  live(s);
  if (!isEventName(event)) throw new InvalidHookInputError(String(event), 'unknown event');
  if (!m.processEnabled || s.snapshot.config.disabled.all || s.paused) return emptyDecision(event);

  // A once-hook's `if` waits for the rule module (engine/plan.ts): load it first, so that planning
  // here and in the engine below stays synchronous (recompose rebuilds the index with the rules).
  if (s.onceIndex?.unloadedRules && (await ensureIfRules()) === undefined && !s.disposed) recompose(s);
  // `once`: find the once-hooks this firing will run and retire them as soon as the engine has
  // planned (synchronously, inside run()), so a concurrent firing cannot run them again.
  const spent = s.onceIndex ? plannedOnce(s, event, input, ctx) : [];
  const pending = s.engine.run(event, input, { sessionId: s.id, session: s.resources, ...ctx });
  if (spent.length > 0) {
    for (const h of spent) s.spentOnce.add(h.id);
    recompose(s);
  }
  try {
    return await pending;
  } catch (e) {
    // Invalid input: nothing ran, so the once-hooks are not spent.
    if (spent.length > 0 && e instanceof InvalidHookInputError && !s.disposed) {
      for (const h of spent) s.spentOnce.delete(h.id);
      recompose(s);
    }
    throw e;
  }
}

function plannedOnce(s: SessionState, event: EventName, input: Record<string, unknown>, ctx: RunContext): NormalizedHook[] {
  const mode = permissionModeOf(ctx.permissionMode, input);
  if (s.skipToolHooksInPlanMode && skipsInPlanMode(event, mode)) return [];
  const cwd = ctx.cwd ?? (typeof input.cwd === 'string' && input.cwd ? input.cwd : (s.worktreeDir ?? s.projectDir));
  return planHooks(s.onceIndex!, event, input, {
    cwd,
    homeDir: s.homeDir,
    projectDir: s.projectDir,
    foldCase: namesFoldCase(),
    // A per-file patch view (src/host/patch-views.ts) runs a subset: a `once` hook left out is not spent.
    ...(ctx.onlyHooks ? { only: ctx.onlyHooks } : {}),
  }).map((p) => p.hook);
}
