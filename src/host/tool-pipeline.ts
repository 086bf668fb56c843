/**
 * The tool pipeline, in a fixed order (approval in tool-approval.ts, one call in tool-call.ts):
 *
 *   validate the model's input
 *   → beforeTool slot:  permission-gate (rules; a deny vetoes, so PreToolUse never runs)
 *                       → plan-mode-guard (plan mode refuses file edits)
 *                       → hooks (PreToolUse; a rewrite is rebuilt, re-validated against the
 *                         tool's schema, re-checked for workspace isolation and re-evaluated
 *                         against the rules — an invalid rewrite is a validation error)
 *                       → deferred (waitUntil) approval: merge rule and hook decisions; if
 *                         still `ask`: PermissionRequest hooks (serialized by a mutex), then the
 *                         user (Notification permission_prompt first; headless: deny), or the
 *                         auto-mode classifier (a denial fires PermissionDenied)
 *   → execute → afterTool slot (PostToolUse / PostToolUseFailure, duration_ms, tool_use_id)
 *   → afterToolBatch slot (PostToolBatch) once per batch.
 */
import { addGates } from './tool-approval.js';
import { runOne } from './tool-call.js';
import { createMutex, type PipelineState } from './pipeline-state.js';
import type { PipelineOptions, RunOpts, ToolOutcome, ToolPipeline } from './pipeline-types.js';
import type { ToolCall } from './types.js';

export type { PipelineOptions, ToolOutcome, ToolPipeline } from './pipeline-types.js';

export function createToolPipeline(options: PipelineOptions): ToolPipeline {
  const { permissions, slots } = options;
  const ps: PipelineState = {
    options,
    tools: options.tools,
    permissions,
    slots,
    approvals: createMutex(),
    warn: options.onWarning ?? (() => {}),
    sessionCwd: () => (typeof options.cwd === 'function' ? options.cwd() : options.cwd),
    roots: () => options.roots?.() ?? [],
    signals: new WeakMap(),
  };
  addGates(ps);
  const sessionCwd = ps.sessionCwd;

  async function run(call: ToolCall, opts: RunOpts = {}): Promise<ToolOutcome> {
    const outcome = await runOne(ps, call, opts);
    options.onOutcome?.(outcome, opts.actor ?? {});
    return outcome;
  }

  return {
    run,
    async runBatch(calls, opts = {}) {
      const outcomes =
        options.concurrency === 'serial'
          ? await calls.reduce<Promise<ToolOutcome[]>>(async (acc, c) => [...(await acc), await run(c, opts)], Promise.resolve([]))
          : await Promise.all(calls.map((c) => run(c, opts)));
      const actor = opts.actor ?? {};
      const batch = await slots.afterToolBatch.fire({
        mode: permissions.mode,
        cwd: opts.cwd ?? sessionCwd(),
        calls: outcomes.map((o) => ({ toolName: o.toolName, toolInput: o.input, toolUseId: o.toolUseId, toolResponse: o.content })),
        additionalContext: [],
        ...actor,
      });
      const stop = outcomes.find((o) => o.stop)?.stop ?? batch.vetoed?.reason;
      return { outcomes, additionalContext: batch.event.additionalContext, ...(stop ? { stop } : {}) };
    },
  };
}
