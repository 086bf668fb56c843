/**
 * The runtime's ApplyPatch tool and Claude file-tool guards: as under dispatch, a tool event for
 * ApplyPatch also runs the hooks whose matcher selects Edit, Write or MultiEdit but not
 * ApplyPatch, once per file the patch touches, on that file's Claude-shaped view
 * (src/engine/patch-views.ts plans and combines; src/dialects/patch-view.ts builds the views).
 * Without this a `.env` guard on `Edit|Write` never saw a patch that writes `.env`.
 *
 * Each view runs through the session itself (its env, audit, `once` bookkeeping) restricted to
 * that view's hooks (RunContext.onlyHooks), so a hook that names ApplyPatch runs once, on the
 * patch, and never a second time on a view.
 */
import type { RunContext } from '../engine/engine.js';
import { combinePatchDecisions, denyUndeterminedPatch, patchViewPlan, runPatchViews } from '../engine/patch-views.js';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { NormalizedHook } from '../types.js';
import type { HookRunner } from './types.js';

/** A runner that can also list its hooks: the per-file plan is made over them. */
export interface PatchAwareRunner extends HookRunner {
  /** The hooks a firing of `event` may run now (the session's effective hooks). */
  hooks(event: EventName): readonly NormalizedHook[];
}

/**
 * `main` (the patch's own decision) combined with the per-file decisions, as dispatch combines
 * them; `main` itself when the payload is not a patch or no hook judges files one by one.
 */
export async function withPatchViews(
  runner: PatchAwareRunner,
  event: EventName,
  payload: Record<string, unknown>,
  ctx: RunContext,
  main: Decision,
): Promise<Decision> {
  if (payload.tool_name !== 'ApplyPatch') return main;
  try {
    const plan = patchViewPlan(event, payload, runner.hooks(event));
    if (plan.undetermined) return denyUndeterminedPatch(main, plan.undetermined);
    if (plan.runs.length === 0) return main;
    const perFile = await runPatchViews(plan.runs, event, ctx, (hooks) => ({
      run: (e, p) => runner.run(e, p, { ...ctx, onlyHooks: new Set(hooks.map((h) => h.id)) }),
      close: async () => {},
    }));
    return combinePatchDecisions(main, perFile);
  } catch (e) {
    // Whether guards judge each file, or what they said, is unknown: the patch must not go ahead unseen.
    return denyUndeterminedPatch(
      main,
      `the Edit/Write hooks that judge each file of this patch could not run (${(e as Error)?.message ?? String(e)}); the patch is denied`,
    );
  }
}
