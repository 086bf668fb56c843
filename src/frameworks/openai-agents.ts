/**
 * agent-hooks/openai-agents: the engine around an OpenAI Agents SDK agent's function tools.
 *   tool call  → PreToolUse, in the tool's own `needsApproval` (ask = the SDK's approval:
 *                `result.interruptions`, `state.approve()` / `state.reject()`) and `invoke`:
 *                deny (the reason is the tool's output, the tool not run), rewrite (the tool is
 *                invoked with the new input)
 *   its result → PostToolUse: replaced output, added context
 *   the prompt → UserPromptSubmit, a blocking input guardrail: a block trips it (the run throws
 *                InputGuardrailTripwireTriggered, outputInfo.reason says why)
 * The SDK has no loop end a hook can continue from, so Stop is not fired. A hosted tool runs at
 * the provider, out of the adapter's sight: an agent with one is refused (never fail open).
 */
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

import type { Agent } from '@openai/agents';
await loadFramework('openai-agents', ['@openai/agents'], () => import('@openai/agents'));

export type OpenAIAgentsHookOptions = FrameworkHookOptions;

// biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output types
type AnyAgent = Agent<any, any>;
type FunctionTool = Extract<AnyAgent['tools'][number], { type: 'function' }>;
type InputGuardrail = AnyAgent['inputGuardrails'][number];

const textOf = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { input: v };
  } catch {
    return { input: raw };
  }
}

function guardTool(bridge: EngineBridge, tool: FunctionTool): FunctionTool {
  // needsApproval judges first; invoke reuses that verdict for the same call (or judges anew after a resume).
  const judged = new Map<string, ToolVerdict>();
  const judge = (input: Record<string, unknown>, callId?: string) => bridge.beforeTool(tool.name, input, callId);
  return {
    ...tool,
    needsApproval: async (ctx, input, callId) => {
      if (await tool.needsApproval(ctx, input, callId)) return true; // the app's own approval stays
      const verdict = await judge(input as Record<string, unknown>, callId);
      if (callId) judged.set(callId, verdict);
      return verdict.kind === 'ask';
    },
    invoke: async (ctx, raw, details) => {
      const callId = details?.toolCall?.callId;
      const args = parseArgs(raw);
      const verdict = (callId && judged.get(callId)) || (await judge(args, callId));
      if (callId) judged.delete(callId);
      if (verdict.kind === 'deny') return withContext(deniedText(verdict.reason), verdict.context) as string;
      if (verdict.kind === 'ask' && !(callId && ctx.isToolApproved({ toolName: tool.name, callId })))
        return withContext(deniedText(`not approved (${verdict.reason})`), verdict.context) as string;
      const output = textOf(await tool.invoke(ctx, verdict.input === args ? raw : JSON.stringify(verdict.input), details));
      const after = await bridge.afterTool(tool.name, verdict.input, output, callId);
      return textOf(withContext(after.output, [...verdict.context, ...after.context]));
    },
  };
}

function promptGuard(bridge: EngineBridge): InputGuardrail {
  return {
    name: 'agent-hooks UserPromptSubmit',
    runInParallel: false, // the model must not see a prompt before the hooks judged it
    execute: async ({ input }) => {
      const prompt =
        typeof input === 'string' ? input : textOf(input.filter((i) => 'role' in i && i.role === 'user').at(-1)?.content ?? '');
      const d = await bridge.run('UserPromptSubmit', { prompt });
      const blocked = d.blocked || !d.continue;
      return { tripwireTriggered: blocked, outputInfo: { reason: d.reason ?? d.stopReason, additionalContext: d.additionalContext } };
    },
  };
}

/** A copy of `agent` whose function tools and prompts go through the engine. */
export function withAgentHooks<A extends AnyAgent>(engine: HookEngine, agent: A, opts: OpenAIAgentsHookOptions = {}): A {
  const bridge = engineBridge(engine, opts);
  const tools = agent.tools.map((t) => {
    if (t.type !== 'function')
      throw new Error(
        `agent-hooks/openai-agents: tool "${t.name}" (${t.type}) runs out of the adapter's sight, so no hook could judge its calls; remove it or wrap it as a function tool`,
      );
    return guardTool(bridge, t);
  });
  return agent.clone({ tools, inputGuardrails: [...agent.inputGuardrails, promptGuard(bridge)] }) as A;
}
