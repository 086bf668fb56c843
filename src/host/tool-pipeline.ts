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
import type { PermissionEngine } from './permissions.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';
import type { AutoClassifier, Prompter, ToolCall, ToolRegistry } from './types.js';

export { mergeDecisions } from './tool-approval.js';

export interface ToolOutcome {
  toolUseId: string;
  toolName: string;
  /** The input the tool ran with (after rewrites), or the model's input when it never ran. */
  input: Record<string, unknown>;
  /** ok: ran and succeeded; error: ran and failed, or invalid input; denied: never ran. */
  status: 'ok' | 'error' | 'denied';
  /** What the model reads as the tool result (contexts and feedback included). */
  content: string;
  output?: unknown;
  /** Who denied: rule, hook, validation, isolation, plan, user, auto, permission-request. */
  deniedBy?: string;
  /** A hook asked to stop the agent (continue:false) or a PermissionRequest deny with interrupt. */
  stop?: string;
}

export interface PipelineOptions {
  tools: ToolRegistry;
  permissions: PermissionEngine;
  slots: RuntimeSlots;
  workspace: string;
  /** The session's working directory (read at every call: a Bash `cd` moves it). */
  cwd: string | (() => string);
  /** Directories added to the session: confinement roots next to the workspace. */
  roots?: () => readonly string[];
  /** Bash reports the shell's directory after a main-agent command; see ToolContext.onCwd. */
  onCwd?: (dir: string) => Promise<string | undefined>;
  sessionId: string;
  env: () => Readonly<Record<string, string>>;
  prompter?: Prompter;
  autoClassifier?: AutoClassifier;
  /** Run the calls of one batch concurrently (default) or one after another. */
  concurrency?: 'parallel' | 'serial';
  /** Each call's outcome as soon as it is known (before PostToolBatch). */
  onOutcome?: (outcome: ToolOutcome, actor: Actor) => void;
  onWarning?: (message: string) => void;
}

export interface ToolPipeline {
  /** `cwd` overrides the session cwd (a subagent in its worktree); then `cd` is not tracked. */
  run(call: ToolCall, opts?: RunOpts): Promise<ToolOutcome>;
  /** Run a batch, then PostToolBatch; `stop` is set when a hook stopped the loop. */
  runBatch(calls: readonly ToolCall[], opts?: RunOpts): Promise<{ outcomes: ToolOutcome[]; stop?: string; additionalContext: string[] }>;
}

export type RunOpts = { signal?: AbortSignal; actor?: Actor; cwd?: string };

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
