/**
 * Under dispatch (src/dispatch/run.ts) and in the reference runtime (src/host/patch-views.ts),
 * a patch tool call (canonical ApplyPatch: Codex's apply_patch, Droid's ApplyPatch, the
 * runtime's own ApplyPatch tool) also runs the file-tool hooks that do not name ApplyPatch: a hook whose matcher
 * selects Edit, Write or MultiEdit runs once per file the patch touches, on a Claude-shaped view
 * of that file (src/dialects/patch-view.ts). Hooks that select ApplyPatch (or everything) see
 * the patch itself, as before, and are not run again here.
 *
 * The decisions are combined as the reducer combines hooks (deny > defer > ask > allow). What a
 * per-file hook answers that cannot go back onto the patch fails closed: a rewritten per-file
 * tool_input denies the whole patch, with a reason and a note.
 */
import { eventFacts, type EventName } from '../events/facts.js';
import { compileMatcherFor } from '../matching/modes.js';
import { strongerVerdict, type Decision } from '../reduce/reduce.js';
import { fileViewsOf, FILE_TOOLS, viewInput, viewToolFor, type FileTool } from '../dialects/patch-view.js';
import { TOOL_NAME_EVENT_SET as TOOL_EVENTS } from '../events/facts.js';
import type { NormalizedHook } from '../types.js';

/** One engine run of the per-file view: these hooks, this file, as this tool. */
export interface PatchViewRun {
  filePath: string;
  tool: FileTool;
  hooks: NormalizedHook[];
  payload: Record<string, unknown>;
}

/** Does the hook's matcher (read by its own dialect's rules and tool names) select `tool`? */
function selector(hook: NormalizedHook): (tool: string) => boolean {
  const spec = eventFacts(hook.event);
  const matcher = compileMatcherFor(hook.matcher, hook.matcherMode, spec.matcher?.exactSet);
  const toValue = hook.bridge?.matchValue;
  return (tool) => matcher.test(toValue ? toValue(hook, tool) : tool);
}

/** The hooks that see a patch per file: tool-event hooks selecting a file tool, not ApplyPatch. */
export function perFileHooks(
  event: EventName,
  hooks: readonly NormalizedHook[],
): Array<{ hook: NormalizedHook; selects: (tool: FileTool) => boolean }> {
  if (!TOOL_EVENTS.has(event)) return [];
  const out: Array<{ hook: NormalizedHook; selects: (tool: FileTool) => boolean }> = [];
  for (const hook of hooks) {
    if (hook.event !== event || hook.matchField) continue;
    const selects = selector(hook);
    if (selects('ApplyPatch') || !FILE_TOOLS.some(selects)) continue;
    out.push({ hook, selects });
  }
  return out;
}

/**
 * The per-file runs a patch payload needs (none when it is not a patch, or no hook qualifies),
 * and `undetermined` when hooks qualify but no file can be read from the patch: those guards
 * cannot be shown what the patch writes, so the patch must not go ahead unseen.
 */
export function patchViewPlan(
  event: EventName,
  payload: Record<string, unknown>,
  hooks: readonly NormalizedHook[],
): { runs: PatchViewRun[]; undetermined?: string } {
  if (payload.tool_name !== 'ApplyPatch') return { runs: [] };
  const eligible = perFileHooks(event, hooks);
  if (eligible.length === 0) return { runs: [] };
  const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();
  const views = fileViewsOf(payload.tool_input, cwd);
  if (views.length === 0) {
    return {
      runs: [],
      undetermined: `no file could be read from this patch, so the ${eligible.length} Edit/Write hook(s) that judge each file cannot see what it writes; the patch is denied`,
    };
  }
  const runs: PatchViewRun[] = [];
  for (const view of views) {
    // Hooks seeing this file as the same tool share one engine run.
    const byTool = new Map<FileTool, NormalizedHook[]>();
    for (const { hook, selects } of eligible) {
      const tool = viewToolFor(view.kind, selects);
      if (tool) byTool.set(tool, [...(byTool.get(tool) ?? []), hook]);
    }
    for (const [tool, list] of byTool) {
      runs.push({
        filePath: view.filePath,
        tool,
        hooks: list,
        payload: { ...payload, tool_name: tool, tool_input: viewInput(view, tool) },
      });
    }
  }
  return { runs };
}

/** The per-file runs alone (see patchViewPlan). */
export function planPatchViews(event: EventName, payload: Record<string, unknown>, hooks: readonly NormalizedHook[]): PatchViewRun[] {
  return patchViewPlan(event, payload, hooks).runs;
}

/** The patch's decision when its files cannot be determined for the per-file hooks: a deny that says why. */
export function denyUndeterminedPatch(main: Decision, reason: string): Decision {
  return { ...main, decision: 'deny', blocked: true, reason, updatedInput: undefined, warnings: [...main.warnings, reason] };
}

/** A per-file answer that cannot be put back onto the patch becomes a deny that says why. */
function expressible(run: PatchViewRun, d: Decision): { decision: Decision; note?: string } {
  if (d.updatedInput === undefined) return { decision: d };
  const reason = `a hook rewrote the ${run.tool} view of ${run.filePath} (one file of this patch); a per-file rewrite cannot be applied back onto the patch, so the patch is denied`;
  return {
    decision: { ...d, decision: 'deny', blocked: true, reason, updatedInput: undefined },
    note: `${reason}; the rewrite was ${JSON.stringify(d.updatedInput)}`,
  };
}

/** The patch's own decision and its per-file decisions as one, deny winning. */
export function combinePatchDecisions(main: Decision, perFile: ReadonlyArray<{ run: PatchViewRun; decision: Decision }>): Decision {
  if (perFile.length === 0) return main;
  const all: Decision[] = [main];
  const notes: string[] = [];
  for (const { run, decision } of perFile) {
    const e = expressible(run, decision);
    all.push(e.decision);
    if (e.note) notes.push(e.note);
  }
  let verdict = main.decision;
  for (const d of all.slice(1)) verdict = strongerVerdict(verdict, d.decision);
  const blocked = all.some((d) => d.blocked);
  const reasons = [...new Set(all.filter((d) => d.decision === verdict && d.reason?.trim()).map((d) => d.reason!))];
  const firstStop = all.find((d) => !d.continue && d.stopReason !== undefined);
  const combined: Decision = {
    event: main.event,
    blocked,
    ...(verdict !== undefined ? { decision: verdict } : {}),
    ...(reasons.length ? { reason: reasons.join('\n') } : main.reason !== undefined ? { reason: main.reason } : {}),
    // A patch-level rewrite stands only when nothing denied the patch.
    ...(main.updatedInput && !blocked && verdict !== 'deny' && verdict !== 'block' ? { updatedInput: main.updatedInput } : {}),
    ...(all.find((d) => d.updatedOutput !== undefined)
      ? { updatedOutput: all.find((d) => d.updatedOutput !== undefined)!.updatedOutput }
      : {}),
    additionalContext: all.flatMap((d) => d.additionalContext),
    systemMessages: all.flatMap((d) => d.systemMessages),
    continue: all.every((d) => d.continue),
    ...(firstStop ? { stopReason: firstStop.stopReason } : {}),
    eventOutput: Object.assign({}, ...all.map((d) => d.eventOutput)) as Record<string, unknown>,
    hooks: all.flatMap((d) => d.hooks),
    warnings: [...all.flatMap((d) => d.warnings), ...notes],
  };
  return combined;
}

/** Run each per-file view with an engine over just its hooks. */
export async function runPatchViews(
  runs: readonly PatchViewRun[],
  event: EventName,
  ctx: { permissionMode?: string },
  engineFor: (hooks: NormalizedHook[]) => {
    run(event: EventName, payload: Record<string, unknown>, ctx: { permissionMode?: string }): Promise<Decision>;
    close(): Promise<void>;
  },
): Promise<Array<{ run: PatchViewRun; decision: Decision }>> {
  const out: Array<{ run: PatchViewRun; decision: Decision }> = [];
  for (const run of runs) {
    const engine = engineFor(run.hooks);
    try {
      out.push({ run, decision: await engine.run(event, run.payload, ctx) });
    } finally {
      await engine.close();
    }
  }
  return out;
}
