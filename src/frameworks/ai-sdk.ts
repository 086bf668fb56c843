/**
 * `agent-hooks/ai-sdk`: the engine inside the Vercel AI SDK (`ai` 7) tool loop. `tools()` wraps
 * each tool's `execute` (rewrite, output replacement, context); `toolApproval` answers the SDK's
 * approval step from PreToolUse (deny → `denied` with the reason, ask → `user-approval`);
 * `model()` wraps the model so UserPromptSubmit can block a prompt or add context. The SDK has
 * no loop-end hook that can continue a finished loop, so Stop is not fired (docs/frameworks.md).
 */
import type { LanguageModel, LanguageModelMiddleware, ToolApprovalStatus, ToolSet } from 'ai';
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import {
  deniedText,
  type EngineBridge,
  engineBridge,
  type FrameworkHookOptions,
  loadFramework,
  type ToolVerdict,
  withContext,
} from './shared.js';

const ai = await loadFramework('ai-sdk', ['ai'], () => import('ai'));

type Model = Exclude<LanguageModel, string>;
type Params = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];

export interface AiSdkHooks {
  /** The tools with each `execute` run through PreToolUse and PostToolUse. */
  tools<T extends ToolSet>(tools: T): T;
  /** Pass as `toolApproval` to generateText/streamText/ToolLoopAgent: deny and ask use the SDK's own approval step. */
  toolApproval: (options: { toolCall: { toolCallId: string; toolName: string; input: unknown } }) => Promise<ToolApprovalStatus>;
  /** The model with UserPromptSubmit before each new user message reaches it. */
  model(model: Model): Model;
}

/** The hooks of `engine` for an AI SDK agent (one instance per conversation: it keeps pending approvals). */
export function aiSdkHooks(engine: HookEngine, options: FrameworkHookOptions = {}): AiSdkHooks {
  const bridge = engineBridge(engine, options);
  // PreToolUse answers by toolCallId, so a call is judged once: in the approval step, then run by execute.
  const judged = new Map<string, ToolVerdict>();
  const judge = async (id: string, name: string, input: unknown) => {
    const known = judged.get(id);
    if (known) return known;
    const verdict = await bridge.beforeTool(name, asRecord(input), id);
    judged.set(id, verdict);
    return verdict;
  };
  return {
    tools: (tools) => wrapTools(tools, bridge, judged, judge),
    async toolApproval({ toolCall }) {
      const v = await judge(toolCall.toolCallId, toolCall.toolName, toolCall.input);
      if (v.kind === 'deny') return { type: 'denied', reason: withContext(deniedText(v.reason), v.context) as string };
      // The SDK asks again when the approved call comes back; the user's answer stands then.
      if (v.kind === 'ask') {
        if (v.asked) return 'approved';
        v.asked = true;
        return { type: 'user-approval', reason: v.reason };
      }
      return v.allowed ? 'approved' : 'not-applicable';
    },
    model: (model) => ai.wrapLanguageModel({ model, middleware: promptMiddleware(bridge) }),
  };
}

function wrapTools<T extends ToolSet>(
  tools: T,
  bridge: EngineBridge,
  judged: Map<string, ToolVerdict>,
  judge: (id: string, name: string, input: unknown) => Promise<ToolVerdict>,
): T {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (!execute) {
      out[name] = tool;
      continue;
    }
    out[name] = {
      ...tool,
      execute: async (input: unknown, opts: { toolCallId: string }) => {
        const v = await judge(opts.toolCallId, name, input);
        judged.delete(opts.toolCallId);
        if (v.kind === 'deny') return withContext(deniedText(v.reason), v.context);
        // An ask that never went through toolApproval could not be put to anyone: deny with the reason.
        if (v.kind === 'ask' && !v.asked) {
          return withContext(deniedText(`${v.reason} (approval needs toolApproval: hooks.toolApproval)`), v.context);
        }
        const result = await execute(v.input as never, opts as never);
        const after = await bridge.afterTool(name, v.input, result, opts.toolCallId);
        return withContext(after.output, [...v.context, ...after.context]);
      },
    } as (typeof out)[string];
  }
  return out as T;
}

/** UserPromptSubmit once per new user message; its context stays with that message in later steps. */
function promptMiddleware(bridge: EngineBridge): LanguageModelMiddleware {
  const seen = new Map<string, string[]>();
  return {
    specificationVersion: 'v4',
    async transformParams({ params }: { params: Params }) {
      const at = params.prompt.findLastIndex((m) => m.role === 'user');
      const message = params.prompt[at];
      if (message?.role !== 'user') return params;
      const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      let context = seen.get(text);
      if (!context) {
        const d = await bridge.run('UserPromptSubmit', { prompt: text });
        if (d.blocked || d.continue === false) {
          throw new Error(`prompt blocked by a hook: ${d.reason ?? d.stopReason ?? 'UserPromptSubmit'}`);
        }
        context = d.additionalContext;
        seen.set(text, context);
      }
      if (context.length === 0) return params;
      const prompt = [...params.prompt];
      prompt[at] = { ...message, content: [...message.content, ...context.map((c) => ({ type: 'text' as const, text: c }))] };
      return { ...params, prompt };
    },
  };
}

function asRecord(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

export type { FrameworkHookOptions } from './shared.js';
