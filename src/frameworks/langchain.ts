/**
 * agent-hooks/langchain: the engine as a LangChain.js v1 middleware for `createAgent`.
 *   tool call  → PreToolUse in `wrapToolCall`: deny (a ToolMessage, the tool not run), rewrite
 *                (the handler gets the new args), ask (`interrupt()`, answered like
 *                humanInTheLoopMiddleware: `{ decisions: [{ type: 'approve' | 'reject', message? }] }`)
 *   its result → PostToolUse: replaced output, added context (in the ToolMessage the model reads)
 *   the prompt → UserPromptSubmit in `beforeAgent`: a block removes the prompt and ends the run
 *   loop end   → Stop in `afterAgent`: a block sends the reason to the model (`jumpTo: 'model'`)
 * Every decision is the engine's; this file only translates.
 */
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import {
  deniedText,
  engineBridge,
  type FrameworkHookOptions,
  loadFramework,
  readPostToolUse,
  readPreToolUse,
  withContext,
} from './shared.js';

const PACKAGES = ['langchain', '@langchain/langgraph'];
const lc = await loadFramework('langchain', PACKAGES, () => import('langchain'));
const lg = await loadFramework('langchain', PACKAGES, () => import('@langchain/langgraph'));
const { RemoveMessage } = await loadFramework('langchain', PACKAGES, () => import('@langchain/core/messages'));

export type LangChainHookOptions = FrameworkHookOptions;

type Msg = InstanceType<typeof lc.HumanMessage> | InstanceType<typeof lc.AIMessage>;
type Runtime = { configurable?: { thread_id?: string } } | undefined;

const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content));

type Answer = { type?: string; message?: unknown } | undefined;

/** interrupt() as humanInTheLoopMiddleware asks; the first answer, or 'no checkpointer' when the agent cannot pause. */
function ask(tool: string, args: unknown, reason: string): Answer | 'no checkpointer' {
  try {
    const reply = lg.interrupt({
      actionRequests: [{ name: tool, args, description: reason }],
      reviewConfigs: [{ actionName: tool, allowedDecisions: ['approve', 'reject'] }],
    }) as { decisions?: Answer[] } | undefined;
    return reply?.decisions?.[0];
  } catch (err) {
    if (lg.isGraphBubbleUp(err)) throw err; // the interrupt itself: LangGraph pauses the run here
    if (err instanceof lg.GraphValueError && /checkpointer/i.test(err.message)) return 'no checkpointer';
    throw err;
  }
}

/** The agent-hooks middleware for `createAgent({ middleware: [agentHooksMiddleware(engine)] })`. */
export function agentHooksMiddleware(engine: HookEngine, opts: LangChainHookOptions = {}) {
  const bridge = engineBridge(engine, opts);
  // The hooks' session is the LangGraph thread, unless the app named one.
  const run = (event: string, input: Record<string, unknown>, runtime: Runtime) => {
    const thread = opts.sessionId ? undefined : runtime?.configurable?.thread_id;
    return bridge.run(event, thread ? { ...input, session_id: thread } : input);
  };
  return lc.createMiddleware({
    name: 'AgentHooksMiddleware',
    beforeAgent: {
      canJumpTo: ['end'],
      hook: async (state, runtime) => {
        const prompt = [...state.messages].reverse().find((m) => lc.HumanMessage.isInstance(m));
        if (!prompt) return;
        const d = await run('UserPromptSubmit', { prompt: textOf(prompt.content) }, runtime as Runtime);
        if (d.blocked || !d.continue) {
          const why = d.reason?.trim() || d.stopReason || 'blocked by a UserPromptSubmit hook';
          const removed: Msg[] = prompt.id ? [new RemoveMessage({ id: prompt.id }) as unknown as Msg] : [];
          return { messages: [...removed, new lc.AIMessage(`Prompt blocked: ${why}`)], jumpTo: 'end' as const };
        }
        if (d.additionalContext.length) return { messages: [new lc.HumanMessage(d.additionalContext.join('\n\n'))] };
        return;
      },
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const name = bridge.toolName(call.name);
      const runtime = request.runtime as Runtime;
      const deny = (reason: string, context: string[] = []) =>
        new lc.ToolMessage({
          content: withContext(deniedText(reason), context) as string,
          name: call.name,
          tool_call_id: call.id ?? '',
          status: 'error',
        });
      const args = call.args as Record<string, unknown>;
      const pre = readPreToolUse(await run('PreToolUse', { tool_name: name, tool_input: args, tool_use_id: call.id }, runtime), args);
      if (pre.kind === 'deny') return deny(pre.reason, pre.context);
      if (pre.kind === 'ask') {
        const answer = ask(call.name, pre.input, pre.reason);
        if (answer === 'no checkpointer')
          return deny(`approval required, and this agent cannot ask (interrupt() needs a checkpointer): ${pre.reason}`, pre.context);
        if (answer?.type !== 'approve')
          return deny(typeof answer?.message === 'string' ? answer.message : `not approved (${pre.reason})`, pre.context);
      }
      const result = await handler(pre.input === args ? request : { ...request, toolCall: { ...call, args: pre.input } });
      const post = { tool_name: name, tool_input: pre.input, tool_use_id: call.id };
      if (!lc.ToolMessage.isInstance(result)) {
        // A Command carries state updates, not an output the adapter could replace or add to: withhold it instead.
        const d = await run('PostToolUse', { ...post, tool_response: null }, runtime);
        const changes = d.updatedOutput !== undefined || d.blocked || d.additionalContext.length > 0;
        return changes
          ? deny(`a PostToolUse hook changed this tool's result, which its Command cannot carry; the result is withheld`)
          : result;
      }
      const response = textOf(result.content);
      const after = readPostToolUse(await run('PostToolUse', { ...post, tool_response: response }, runtime), response);
      result.content = textOf(withContext(after.output, [...pre.context, ...after.context]));
      return result;
    },
    afterAgent: {
      canJumpTo: ['model'],
      hook: async (state, runtime) => {
        const last = [...state.messages].reverse().find((m) => lc.AIMessage.isInstance(m));
        const d = await run(
          'Stop',
          { stop_hook_active: false, last_assistant_message: last ? textOf(last.content) : '' },
          runtime as Runtime,
        );
        if (!d.blocked || !d.continue) return;
        return { messages: [new lc.HumanMessage(d.reason?.trim() || 'A Stop hook asks you to go on.')], jumpTo: 'model' as const };
      },
    },
  });
}
