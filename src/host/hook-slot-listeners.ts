/**
 * One translator per runtime slot for the hooks engine (hook-listeners.ts attaches them): each
 * turns the slot event into the catalog event's input and the Decision back into what the slot
 * understands. They reach the engine only through the `HookWiring` record they are given.
 */
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { Actor, RuntimeSlots } from './runtime-slots.js';

/** Where and how one event fires: the permission mode, the cwd, and an optional abort signal. */
interface FireContext {
  mode: string;
  cwd: string;
  signal?: AbortSignal;
}

/** What every slot translator may use: firing, the guarded Stop firing, and the warning sink. */
export interface HookWiring {
  fire(event: EventName, input: Record<string, unknown>, ctx: FireContext): Promise<Decision>;
  guarded(event: 'Stop' | 'SubagentStop', input: Record<string, unknown>, ctx: FireContext): Promise<Decision | undefined>;
  warn(message: string): void;
}

/** The listener function of one slot. */
export type SlotFn<K extends keyof RuntimeSlots> = Parameters<RuntimeSlots[K]['add']>[0]['fn'];

/**
 * A block that a hook asked for, not one that a failure policy produced: Stop, SubagentStop and
 * PreCompact fail open (by design: a hook's timeout or error means "allow stop" / "compact anyway").
 */
export function explicitBlock(decision: Decision): boolean {
  return decision.blocked && decision.hooks.some((r) => (r.decision === 'block' || r.decision === 'deny') && r.policy === undefined);
}

export function actorFields(a: Actor): Record<string, unknown> {
  return { ...(a.agentId !== undefined ? { agent_id: a.agentId } : {}), ...(a.agentType !== undefined ? { agent_type: a.agentType } : {}) };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function beforeToolListener({ fire }: HookWiring): SlotFn<'beforeTool'> {
  return async (e) => {
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
  };
}

export function permissionRequestListener({ fire }: HookWiring): SlotFn<'permissionRequest'> {
  return async (e) => {
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
  };
}

export function permissionResultListener({ fire }: HookWiring): SlotFn<'permissionResult'> {
  return async (e) => {
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
  };
}

export function permissionDeniedListener({ fire }: HookWiring): SlotFn<'permissionDenied'> {
  return async (e) => {
    const d = await fire(
      'PermissionDenied',
      { tool_name: e.tool.name, tool_input: e.input, tool_use_id: e.toolUseId, reason: e.reason, ...actorFields(e) },
      { mode: e.mode, cwd: e.cwd },
    );
    if (d.eventOutput.retry === true) e.retry = true;
  };
}

export function afterToolListener({ fire }: HookWiring): SlotFn<'afterTool'> {
  return async (e) => {
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
  };
}

export function afterToolBatchListener({ fire }: HookWiring): SlotFn<'afterToolBatch'> {
  return async (e) => {
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
  };
}

export function promptSubmitListener({ fire }: HookWiring): SlotFn<'promptSubmit'> {
  return async (e) => {
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
  };
}

export function messageDisplayListener({ fire }: HookWiring): SlotFn<'messageDisplay'> {
  return async (e) => {
    // Non-interactive display: one call per message with the whole text (index 0, final).
    const d = await fire(
      'MessageDisplay',
      { turn_id: e.turnId, message_id: e.messageId, index: 0, final: true, delta: e.text, ...actorFields(e) },
      { mode: e.mode, cwd: e.cwd },
    );
    if (typeof d.eventOutput.displayContent === 'string') e.display = d.eventOutput.displayContent;
  };
}

/** Stop and SubagentStop run under the outer guard; only a hook's explicit block makes the agent go on. */
export function stopListener({ guarded, warn }: HookWiring, event: 'Stop' | 'SubagentStop'): SlotFn<'beforeStop'> {
  return async (e) => {
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
}

export function stopFailureListener({ fire }: HookWiring): SlotFn<'stopFailure'> {
  return async (e) => {
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
  };
}

export function notificationListener({ fire }: HookWiring): SlotFn<'notification'> {
  return async (e) => {
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
  };
}

export function subagentStartListener({ fire }: HookWiring): SlotFn<'subagentStart'> {
  return async (e) => {
    const d = await fire('SubagentStart', { agent_id: e.agentId, agent_type: e.agentType }, { mode: e.mode, cwd: e.cwd });
    e.additionalContext.push(...d.additionalContext);
  };
}

export function beforeCompactListener({ fire, warn }: HookWiring): SlotFn<'beforeCompact'> {
  return async (e) => {
    const d = await fire('PreCompact', { trigger: e.trigger, custom_instructions: e.customInstructions }, { mode: e.mode, cwd: e.cwd });
    // Only an explicit block (decision:"block", exit 2, blockCompaction:true) stops compaction; a failing hook fails open.
    if (explicitBlock(d)) e.veto(d.reason ?? 'compaction blocked by a PreCompact hook', { kind: 'hook' });
    else if (d.blocked) warn('PreCompact: a failing hook would block; compaction goes on (fail open)');
  };
}
