/**
 * The hooks engine as a listener of the runtime's slots: one listener named `hooks` per slot,
 * each turning the slot event into the catalog event's input and the Decision back into what
 * the slot understands (veto, rewrite, context, replaced output). Nothing in the runtime calls
 * the engine except through these listeners, the SessionStart of the session manager, and
 * the MCP module's Elicitation hooks.
 */
import { emptyDecision } from '../engine/engine.js';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import { withPatchViews, type PatchAwareRunner } from './patch-views.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';

export const HOOKS_LISTENER = 'hooks';
/** Seed 000: an outer guard on Stop hooks, independent of each hook's own timeout. */
export const DEFAULT_STOP_GUARD_MS = 30_000;
/** Graceful shutdown: SessionEnd hooks get this long in all (the engine's per-hook default is 1.5 s). */
export const DEFAULT_SESSION_END_BUDGET_MS = 2_000;

export interface HookListenerOptions {
  /** Outer guard on Stop / SubagentStop hooks (default 30 s): when it fires, the agent may stop. */
  stopGuardMs?: number;
  /** Every decision, for tracing. */
  onDecision?: (event: EventName, decision: Decision) => void;
  onWarning?: (message: string) => void;
}

/**
 * A block that a hook asked for, not one that a failure policy produced: Stop, SubagentStop and
 * PreCompact fail open (by design: a hook's timeout or error means "allow stop" / "compact anyway").
 */
export function explicitBlock(decision: Decision): boolean {
  return decision.blocked && decision.hooks.some((r) => (r.decision === 'block' || r.decision === 'deny') && r.policy === undefined);
}

function actorFields(a: Actor): Record<string, unknown> {
  return { ...(a.agentId !== undefined ? { agent_id: a.agentId } : {}), ...(a.agentType !== undefined ? { agent_type: a.agentType } : {}) };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Attach the hooks engine to every slot; returns the detach function. */
export function attachHooks(slots: RuntimeSlots, hooks: PatchAwareRunner, options: HookListenerOptions = {}): () => void {
  // Without the hook list an ApplyPatch call could not run the Edit/Write guards per file: refuse, never skip them.
  if (typeof hooks?.run !== 'function' || typeof hooks.hooks !== 'function')
    throw new TypeError('attachHooks: the runner must have run(event, input, ctx) and hooks(event) (a SessionHandle has both)');
  const warn = options.onWarning ?? (() => {});
  const stopGuardMs = options.stopGuardMs ?? DEFAULT_STOP_GUARD_MS;

  /** Fire one event; an engine error is reported and treated as "no hook decided". */
  async function fire(
    event: EventName,
    input: Record<string, unknown>,
    ctx: { mode: string; cwd: string; signal?: AbortSignal },
  ): Promise<Decision> {
    const payload = { ...input, permission_mode: ctx.mode, cwd: ctx.cwd };
    const runCtx = { permissionMode: ctx.mode, cwd: ctx.cwd, signal: ctx.signal };
    let decision: Decision;
    try {
      decision = await hooks.run(event, payload, runCtx);
    } catch (e) {
      warn(`${event} hooks failed: ${(e as Error)?.message ?? String(e)}`);
      decision = emptyDecision(event);
      decision.warnings.push(`engine error: ${(e as Error)?.message ?? String(e)}`);
    }
    // An ApplyPatch call also runs the Edit/Write-only hooks once per file it touches (patch-views.ts).
    decision = await withPatchViews(hooks, event, payload, runCtx, decision);
    options.onDecision?.(event, decision);
    return decision;
  }

  /** Stop/SubagentStop under the outer guard: when it fires, the hooks are aborted and the agent may stop. */
  async function guarded(
    event: 'Stop' | 'SubagentStop',
    input: Record<string, unknown>,
    ctx: { mode: string; cwd: string },
  ): Promise<Decision | undefined> {
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
  }

  const off: Array<() => void> = [];
  const on = <K extends keyof RuntimeSlots>(
    slot: K,
    fn: Parameters<RuntimeSlots[K]['add']>[0]['fn'],
    order: { after?: string[]; before?: string[] } = {},
  ) => {
    off.push((slots[slot].add as (l: unknown) => () => void)({ name: HOOKS_LISTENER, ...order, fn }));
  };

  on(
    'beforeTool',
    async (e) => {
      const d = await fire(
        'PreToolUse',
        { tool_name: e.tool.name, tool_input: e.input, tool_use_id: e.toolUseId, ...actorFields(e) },
        { mode: e.mode, cwd: e.cwd },
      );
      e.additionalContext.push(...d.additionalContext);
      if (d.decision === 'deny' || d.decision === 'defer') {
        e.veto(d.reason ?? `denied by a PreToolUse hook`, { kind: 'hook', decision: d.decision });
        return;
      }
      // continue:false stops the agent before this tool runs. Claude Code 2.1.328 runs the tool
      // first and then ends the session; a hook that asked to stop must not see its tool run.
      if (!d.continue) {
        e.veto(d.stopReason ?? 'a PreToolUse hook stopped the agent', { kind: 'continue', interrupt: true });
        return;
      }
      if (d.updatedInput && !e.rewriteInput(d.updatedInput, 'PreToolUse hook')) return;
      if (d.decision === 'allow' || d.decision === 'ask')
        e.hook = { decision: d.decision, ...(d.reason !== undefined ? { reason: d.reason } : {}) };
    },
    // The permission gate and the plan-mode guard decide first: a rule-level deny never runs PreToolUse.
    { after: ['permission-gate', 'plan-mode-guard'] },
  );

  on('permissionRequest', async (e) => {
    const suggestions = e.suggestions;
    const d = await fire(
      'PermissionRequest',
      {
        tool_name: e.tool.name,
        tool_input: e.input,
        ...(suggestions.length ? { permission_suggestions: suggestions } : {}),
        ...actorFields(e),
      },
      { mode: e.mode, cwd: e.cwd },
    );
    if (d.decision === 'allow') {
      const perms = d.eventOutput.updatedPermissions;
      e.decision = {
        behavior: 'allow',
        ...(d.updatedInput ? { updatedInput: d.updatedInput } : {}),
        ...(Array.isArray(perms) ? { updatedPermissions: perms as Array<Record<string, unknown>> } : {}),
      };
    } else if (d.decision === 'deny') {
      e.decision = {
        behavior: 'deny',
        ...(d.reason !== undefined ? { message: d.reason } : {}),
        ...(d.eventOutput.interrupt === true ? { interrupt: true } : {}),
      };
    }
  });

  on('permissionResult', async (e) => {
    await fire(
      'PermissionResult',
      {
        tool_name: e.tool.name,
        tool_input: e.input,
        tool_use_id: e.toolUseId,
        decision: e.decision,
        ...(e.reason !== undefined ? { reason: e.reason } : {}),
        ...actorFields(e),
      },
      { mode: e.mode, cwd: e.cwd },
    );
  });

  on('permissionDenied', async (e) => {
    const d = await fire(
      'PermissionDenied',
      { tool_name: e.tool.name, tool_input: e.input, tool_use_id: e.toolUseId, reason: e.reason, ...actorFields(e) },
      { mode: e.mode, cwd: e.cwd },
    );
    if (d.eventOutput.retry === true) e.retry = true;
  });

  on('afterTool', async (e) => {
    const common = { tool_name: e.tool.name, tool_input: e.input, tool_use_id: e.toolUseId, duration_ms: e.durationMs, ...actorFields(e) };
    const d = e.ok
      ? await fire('PostToolUse', { ...common, tool_response: e.output }, { mode: e.mode, cwd: e.cwd })
      : await fire(
          'PostToolUseFailure',
          { ...common, error: e.error ?? e.content, ...(e.isInterrupt ? { is_interrupt: true } : {}) },
          { mode: e.mode, cwd: e.cwd },
        );
    e.additionalContext.push(...d.additionalContext);
    if (d.decision === 'block' && d.reason) e.feedback.push(d.reason);
    if (e.ok && d.updatedOutput !== undefined) {
      e.output = d.updatedOutput;
      e.content = asText(d.updatedOutput);
    }
    if (!d.continue) e.stop = d.stopReason ?? `${e.ok ? 'PostToolUse' : 'PostToolUseFailure'} hook stopped the agent`;
  });

  on('afterToolBatch', async (e) => {
    const d = await fire(
      'PostToolBatch',
      {
        tool_calls: e.calls.map((c) => ({
          tool_name: c.toolName,
          tool_input: c.toolInput,
          tool_use_id: c.toolUseId,
          tool_response: c.toolResponse,
        })),
        ...actorFields(e),
      },
      { mode: e.mode, cwd: e.cwd },
    );
    e.additionalContext.push(...d.additionalContext);
    if (d.blocked) e.veto(d.reason ?? 'a PostToolBatch hook stopped the loop', { kind: 'hook' });
    else if (!d.continue) e.veto(d.stopReason ?? 'a PostToolBatch hook stopped the loop', { kind: 'continue' });
  });

  on('promptSubmit', async (e) => {
    const d = await fire('UserPromptSubmit', { prompt: e.prompt, ...actorFields(e) }, { mode: e.mode, cwd: e.cwd });
    if (d.blocked) {
      e.veto(d.reason ?? 'prompt blocked by a UserPromptSubmit hook', { kind: 'hook' });
      return;
    }
    if (!d.continue) {
      e.stop = d.stopReason ?? 'a UserPromptSubmit hook stopped the agent';
      e.veto(e.stop, { kind: 'continue' });
      return;
    }
    e.additionalContext.push(...d.additionalContext);
  });

  on('promptQueued', async (e) => {
    await fire('UserPromptQueued', { prompt: e.prompt }, { mode: e.mode, cwd: e.cwd });
  });

  on('turnStart', async (e) => {
    await fire('TurnStarted', { turn_id: e.turnId, ...actorFields(e) }, { mode: e.mode, cwd: e.cwd });
  });

  on('messageDisplay', async (e) => {
    // Non-interactive display: one call per message with the whole text (index 0, final).
    const d = await fire(
      'MessageDisplay',
      { turn_id: e.turnId, message_id: e.messageId, index: 0, final: true, delta: e.text, ...actorFields(e) },
      { mode: e.mode, cwd: e.cwd },
    );
    if (typeof d.eventOutput.displayContent === 'string') e.display = d.eventOutput.displayContent;
  });

  const stopListener =
    (event: 'Stop' | 'SubagentStop') => async (e: Parameters<Parameters<RuntimeSlots['beforeStop']['add']>[0]['fn']>[0]) => {
      const input: Record<string, unknown> = {
        stop_hook_active: e.stopHookActive,
        last_assistant_message: e.lastAssistantMessage,
        background_tasks: [],
        session_crons: [],
        ...actorFields(e),
      };
      if (event === 'SubagentStop') input.agent_transcript_path = e.agentTranscriptPath ?? '';
      const d = await guarded(event, input, { mode: e.mode, cwd: e.cwd });
      if (!d) return; // guard fired: allow stop
      if (!d.continue) {
        e.stop = d.stopReason ?? `a ${event} hook stopped the agent`;
        return;
      }
      if (explicitBlock(d)) e.veto(d.reason ?? `a ${event} hook asked to continue`, { kind: 'hook' });
      else if (d.blocked) warn(`${event}: a failing hook would block; its failure lets the agent stop`);
      else e.additionalContext.push(...d.additionalContext);
    };
  on('beforeStop', stopListener('Stop'));
  on('beforeSubagentStop', stopListener('SubagentStop'));

  on('stopFailure', async (e) => {
    await fire(
      'StopFailure',
      {
        error: e.error,
        ...(e.errorDetails !== undefined ? { error_details: e.errorDetails } : {}),
        ...(e.lastAssistantMessage !== undefined ? { last_assistant_message: e.lastAssistantMessage } : {}),
        ...actorFields(e),
      },
      { mode: e.mode, cwd: e.cwd },
    );
  });

  on('interrupt', async (e) => {
    await fire('Interrupt', { reason: e.reason, ...actorFields(e) }, { mode: e.mode, cwd: e.cwd });
  });

  on('notification', async (e) => {
    await fire(
      'Notification',
      {
        message: e.message,
        ...(e.title !== undefined ? { title: e.title } : {}),
        notification_type: e.notificationType,
        ...actorFields(e),
      },
      { mode: e.mode, cwd: e.cwd },
    );
  });

  on('subagentStart', async (e) => {
    const d = await fire('SubagentStart', { agent_id: e.agentId, agent_type: e.agentType }, { mode: e.mode, cwd: e.cwd });
    e.additionalContext.push(...d.additionalContext);
  });

  on('beforeCompact', async (e) => {
    const d = await fire('PreCompact', { trigger: e.trigger, custom_instructions: e.customInstructions }, { mode: e.mode, cwd: e.cwd });
    // Only an explicit block (decision:"block", exit 2, blockCompaction:true) stops compaction; a failing hook fails open.
    if (explicitBlock(d)) e.veto(d.reason ?? 'compaction blocked by a PreCompact hook', { kind: 'hook' });
    else if (d.blocked) warn('PreCompact: a failing hook would block; compaction goes on (fail open)');
  });

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
