/**
 * `agent-hooks/mastra`: the engine inside a Mastra (`@mastra/core`) agent. `tools()` wraps each
 * tool's `execute` (deny, rewrite, output replacement, context: Mastra's `afterToolCall` hook
 * cannot change a result, so the wrapper is the one place that can); `inputProcessor` runs
 * UserPromptSubmit on the user's message (block = the processor's abort, the run's tripwire;
 * context = a system message). An ask is denied with the reason: Mastra's approval is a
 * suspend/resume of the run that this adapter does not drive (docs/frameworks.md). No Stop:
 * Mastra has no loop-end hook that can continue. No Mastra code is imported at run time.
 */
import type { InputProcessor } from '@mastra/core/processors';
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import { deniedText, engineBridge, type FrameworkHookOptions, withContext } from './shared.js';

export type { FrameworkHookOptions } from './shared.js';

export interface MastraHooks {
  /** The tools (the record given to `new Agent({ tools })`) with each `execute` run through PreToolUse and PostToolUse. */
  tools<T extends Record<string, unknown>>(tools: T): T;
  /** Add to the agent's `inputProcessors`: UserPromptSubmit on each user message. */
  inputProcessor: InputProcessor;
}

type Execute = (input: unknown, context?: { agent?: { toolCallId?: string } }) => Promise<unknown>;

export function mastraHooks(engine: HookEngine, options: FrameworkHookOptions = {}): MastraHooks {
  const bridge = engineBridge(engine, options);
  const wrap = (name: string, execute: Execute): Execute => {
    return async (input, context) => {
      const id = context?.agent?.toolCallId;
      const record = input && typeof input === 'object' ? (input as Record<string, unknown>) : { input };
      const v = await bridge.beforeTool(name, record, id);
      if (v.kind === 'deny') return withContext(deniedText(v.reason), v.context);
      if (v.kind === 'ask')
        return withContext(deniedText(`${v.reason} (Mastra: an ask is denied; approve the tool with requireApproval instead)`), v.context);
      const output = await execute(v.input, context);
      const after = await bridge.afterTool(name, v.input, output, id);
      return withContext(after.output, [...v.context, ...after.context]);
    };
  };
  return {
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
