/**
 * Plan stage, for patches. A tool event for ApplyPatch (Codex's apply_patch, Droid's ApplyPatch,
 * the runtime's own tool) also runs the file-tool hooks that do not select ApplyPatch: a hook
 * whose matcher selects Edit, Write or MultiEdit runs once per file the patch touches, on a
 * Claude-shaped view of that file (src/matching/patch-view.ts). Claude Code has no patch tool, so
 * such a guard was written for one file per call; without this a `.env` guard on `Edit|Write`
 * never sees a patch that writes `.env`. Hooks that select ApplyPatch (or everything) see the
 * patch itself and are not run again on a view. What a view's answer means is the reducer's
 * (a per-file rewrite cannot go back onto the patch: src/reduce/reduce.ts).
 */
import { eventFacts, type EventName } from '../events/facts.js';
import { FILE_TOOLS, fileViewsOf, viewInput, viewToolFor, type FileTool } from '../matching/patch-view.js';
import { admits, eventHooks, selects, type PlanContext, type PlanIndex, type PlannedHook } from './plan.js';

/** One file of the patch as one tool call, and the hooks that judge it as that tool. */
export interface ViewRun {
  readonly view: { readonly tool: FileTool; readonly filePath: string };
  readonly input: Record<string, unknown>;
  readonly hooks: readonly PlannedHook[];
}

export interface ViewPlan {
  readonly runs: readonly ViewRun[];
  /** Hooks judge files one by one, but no file could be read from the patch: why it is denied. */
  readonly undetermined?: string;
}

const NO_VIEWS: ViewPlan = Object.freeze({ runs: [] });

/** Is this firing a patch that per-file views may apply to? (a cheap test before any planning) */
export function isPatchFiring(event: EventName, input: Record<string, unknown>): boolean {
  return input.tool_name === 'ApplyPatch' && eventFacts(event).matcher?.field === 'tool_name';
}

/** The per-file runs of a patch payload (NO_VIEWS when it is not a patch or no hook judges files). */
export function planPatchViews(index: PlanIndex, event: EventName, input: Record<string, unknown>, ctx: PlanContext): ViewPlan {
  if (!isPatchFiring(event, input)) return NO_VIEWS;
  const eligible = eventHooks(index, event).filter((p) => !selects(p, 'ApplyPatch') && FILE_TOOLS.some((t) => selects(p, t)));
  if (eligible.length === 0) return NO_VIEWS;
  const cwd = typeof input.cwd === 'string' && input.cwd ? input.cwd : ctx.cwd;
  const views = fileViewsOf(input.tool_input, cwd);
  if (views.length === 0)
    return {
      runs: [],
      undetermined: `no file could be read from this patch, so the ${eligible.length} Edit/Write hook(s) that judge each file cannot see what it writes; the patch is denied`,
    };
  const runs: ViewRun[] = [];
  for (const view of views) {
    // Hooks that see this file as the same tool share one run, on one payload.
    const byTool = new Map<FileTool, PlannedHook[]>();
    for (const p of eligible) {
      const tool = viewToolFor(view.kind, (t) => selects(p, t));
      if (tool) byTool.set(tool, [...(byTool.get(tool) ?? []), p]);
    }
    for (const [tool, hooks] of byTool) {
      const viewPayload = { ...input, tool_name: tool, tool_input: viewInput(view, tool) };
      const admitted = hooks.filter((p) => admits(p, viewPayload, ctx));
      if (admitted.length > 0) runs.push({ view: { tool, filePath: view.filePath }, input: viewPayload, hooks: admitted });
    }
  }
  return { runs };
}
