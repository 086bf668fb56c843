/**
 * `agent-hooks/mastra`: the engine inside a Mastra (`@mastra/core`) agent. `tools()` wraps each
 * tool's `execute` (deny, rewrite, output replacement, context: Mastra's `afterToolCall` hook
 * cannot change a result, so the wrapper is the one place that can); `inputProcessor` runs
 * UserPromptSubmit on the user's message (block = the processor's abort, the run's tripwire;
 * context = a system message). An ask is Mastra's own tool approval: pass
 * `requireToolApproval: hooks.requireToolApproval` to generate/stream, and the run suspends for
 * the app's `approveToolCall`/`declineToolCall` (without it an ask is denied with the reason).
 * `outputProcessor` fires Stop at the loop's end; a block is a processor retry (the model reads
 * the reason and goes on). No Mastra code is imported at run time.
 */
import type { InputProcessor, OutputProcessor } from '@mastra/core/processors';
import type { RequireToolApprovalFn } from '@mastra/core/tools';
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import { deniedText, engineBridge, type FrameworkHookOptions, withContext } from './shared.js';

export type { FrameworkHookOptions } from './shared.js';

export interface MastraHooks {
  /** The tools (the record given to `new Agent({ tools })`) with each `execute` run through PreToolUse and PostToolUse. */
  tools<T extends Record<string, unknown>>(tools: T): T;
  /** Add to the agent's `inputProcessors`: UserPromptSubmit on each user message. */
  inputProcessor: InputProcessor;
  /**
   * Add to the agent's `outputProcessors`: Stop when a step ends the loop (no tool call); a block
   * sends the reason back to the model (Mastra's processor retry: set the agent's `maxProcessorRetries`).
   */
  outputProcessor: OutputProcessor;
  /** Pass as generate/stream's `requireToolApproval`: a hook's ask suspends the run for Mastra's approval. */
  requireToolApproval: RequireToolApprovalFn;
}

type Execute = (input: unknown, context?: { agent?: { toolCallId?: string } }) => Promise<unknown>;

export function mastraHooks(engine: HookEngine, options: FrameworkHookOptions = {}): MastraHooks {
  const bridge = engineBridge(engine, options);
  // Calls (tool + input; Mastra's approval step is not told the call id) put to Mastra's approval
  // because a hook asked. Mastra runs `execute` for such a call only once the app approved it.
  const asked = new Map<string, number>();
  const key = (name: string, input: unknown) => `${name}\0${JSON.stringify(input)}`;
  const takeApproval = (k: string) => {
    const n = asked.get(k) ?? 0;
    if (n <= 1) asked.delete(k);
    else asked.set(k, n - 1);
    return n > 0;
  };
  const wrap = (name: string, execute: Execute): Execute => {
    return async (input, context) => {
      const id = context?.agent?.toolCallId;
      const record = input && typeof input === 'object' ? (input as Record<string, unknown>) : { input };
      const v = await bridge.beforeTool(name, record, id);
      if (v.kind === 'deny') return withContext(deniedText(v.reason), v.context);
      if (v.kind === 'ask' && !takeApproval(key(name, input))) {
        const why = `${v.reason} (approval needs Mastra's requireToolApproval: hooks.requireToolApproval)`;
        return withContext(deniedText(why), v.context);
      }
      const output = await execute(v.input, context);
      const after = await bridge.afterTool(name, v.input, output, id);
      return withContext(after.output, [...v.context, ...after.context]);
    };
  };
  return {
    async requireToolApproval({ toolName, args }) {
      const v = await bridge.beforeTool(toolName, args);
      if (v.kind !== 'ask') return false; // deny, rewrite and context are the wrapped execute's
      const k = key(toolName, args);
      asked.set(k, (asked.get(k) ?? 0) + 1);
      return true;
    },
    tools(tools) {
      const out: Record<string, unknown> = {};
      for (const [name, tool] of Object.entries(tools)) {
        const execute = (tool as { execute?: Execute }).execute;
        // A copy with the same prototype: Mastra's tools are class instances.
        out[name] = execute
          ? Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, { execute: wrap(name, execute.bind(tool)) })
          : tool;
      }
      return out as typeof tools;
    },
    outputProcessor: {
      id: 'agent-hooks-stop',
      async processOutputStep({ toolCalls, text, messages, abort, retryCount }) {
        if (toolCalls?.length) return messages; // not the loop's end: the tools run next
        const d = await bridge.run('Stop', { stop_hook_active: retryCount > 0, last_assistant_message: text ?? '' });
        // A block asks the model to go on: Mastra's retry gives it the reason as feedback.
        if (d.blocked && d.continue !== false) abort(d.reason?.trim() || 'A Stop hook asks you to go on.', { retry: true });
        return messages;
      },
    },
    inputProcessor: {
      id: 'agent-hooks-prompt',
      async processInput({ messages, systemMessages, abort }) {
        const last = [...messages].reverse().find((m) => m.role === 'user');
        if (!last) return messages;
        const parts = (last.content.parts ?? []) as Array<{ type: string; text?: string }>;
        const prompt = parts.flatMap((p) => (p.type === 'text' && p.text ? [p.text] : [])).join('\n') || String(last.content.content ?? '');
        const d = await bridge.run('UserPromptSubmit', { prompt });
        if (d.blocked || d.continue === false) abort(`prompt blocked by a hook: ${d.reason ?? d.stopReason ?? 'UserPromptSubmit'}`);
        if (d.additionalContext.length === 0) return messages;
        return {
          messages,
          systemMessages: [...systemMessages, ...d.additionalContext.map((c) => ({ role: 'system' as const, content: c }))],
        };
      },
    },
  };
}
