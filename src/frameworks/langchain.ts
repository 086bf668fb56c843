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
import { type FrameworkHookOptions, hookToolName, requireFramework, runEngine, toolResultText, toolVerdict } from './verdict.js';

const PACKAGES = ['langchain', '@langchain/langgraph'];
const lc = await requireFramework(() => import('langchain'), 'langchain', PACKAGES);
const lg = await requireFramework(() => import('@langchain/langgraph'), 'langchain', PACKAGES);
const { RemoveMessage } = await requireFramework(() => import('@langchain/core/messages'), 'langchain', PACKAGES);

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
  const run = (event: Parameters<typeof runEngine>[1], input: Record<string, unknown>, runtime: Runtime) =>
    runEngine(engine, event, input, { ...opts, sessionId: opts.sessionId ?? runtime?.configurable?.thread_id });
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
      const name = hookToolName(call.name, opts);
      const runtime = request.runtime as Runtime;
      const deny = (content: string) => new lc.ToolMessage({ content, name: call.name, tool_call_id: call.id ?? '', status: 'error' });
      const pre = toolVerdict(await run('PreToolUse', { tool_name: name, tool_input: call.args, tool_use_id: call.id }, runtime), name);
      if (pre.kind === 'deny') return deny(pre.reason);
      if (pre.kind === 'ask') {
        const answer = ask(call.name, pre.input ?? call.args, pre.reason);
        if (answer === 'no checkpointer')
          return deny(`approval required, and this agent cannot ask (interrupt() needs a checkpointer): ${pre.reason}`);
        if (answer?.type !== 'approve') return deny(typeof answer?.message === 'string' ? answer.message : `not approved (${pre.reason})`);
      }
      const args = pre.input ?? call.args;
      const result = await handler(pre.input ? { ...request, toolCall: { ...call, args } } : request);
      if (!lc.ToolMessage.isInstance(result)) {
        // A Command carries state updates, not an output the adapter could replace or add to: withhold it instead.
        const post = await run('PostToolUse', { tool_name: name, tool_input: args, tool_response: null, tool_use_id: call.id }, runtime);
        const changes = post.updatedOutput !== undefined || post.blocked || post.additionalContext.length > 0;
        return changes
          ? deny(`a PostToolUse hook changed this tool's result, which its Command cannot carry; the result is withheld`)
          : result;
      }
      const before = pre.kind === 'run' && pre.context ? `\n\n${pre.context}` : '';
      const response = textOf(result.content);
      const post = await run('PostToolUse', { tool_name: name, tool_input: args, tool_response: response, tool_use_id: call.id }, runtime);
      result.content = toolResultText(post, response) + before;
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
