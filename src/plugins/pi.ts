/**
 * agent-hooks as a Pi extension (`agent-hooks/pi`): `export default piExtension({ settings })` in
 * `.pi/extensions/agent-hooks.ts`. Each Pi event with an equivalent goes to the engine in Pi's
 * own process (Pi runs on Node) through dispatch (carry.ts), and the answer is applied as Pi
 * expects it (its dist/core/extensions/types.d.ts, 0.73.1): `tool_call` → `{block, reason}` or
 * `event.input` mutated in place; `tool_result` → `{content}`; `input` → `transform`/`handled`;
 * the session-start context → the message of the first `before_agent_start`; Stop keep-going →
 * `pi.sendUserMessage`. When the engine cannot answer, the call and the prompt do not proceed.
 */
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import { carrier, type Answer, type Carrier, type PluginOptions } from './carry.js';
import { appendText, notJudged, replaceInPlace } from './apply.js';

export type { PluginOptions };

type Content = { type: string; text?: string; [k: string]: unknown };

/** The part of Pi's ExtensionContext the extension reads. */
interface PiContext {
  hasUI: boolean;
  cwd: string;
  ui: { confirm(title: string, message: string): Promise<boolean>; notify?(message: string, type?: 'info' | 'warning' | 'error'): void };
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined };
}

/** The part of Pi's ExtensionAPI the extension uses. */
export interface PiExtensionApi {
  on(event: string, handler: (event: never, ctx: PiContext) => unknown): void;
  sendUserMessage(content: string, options?: { deliverAs?: 'steer' | 'followUp' }): void;
}

type Handler<E> = (event: E, ctx: PiContext) => Promise<unknown>;

/** Pi's session_start reasons as Claude's SessionStart sources. */
const SOURCE: Record<string, string> = { startup: 'startup', reload: 'startup', new: 'clear', resume: 'resume', fork: 'resume' };

export function piExtension(options: PluginOptions = {}): (pi: PiExtensionApi) => void {
  return (pi) => {
    let carry: Carrier | undefined;
    const call = (ctx: PiContext, hook: string, fields: Record<string, unknown>): Promise<Answer> => {
      carry ??= carrier('pi', ctx.cwd, options);
      const session = { session_id: ctx.sessionManager.getSessionId(), transcript_path: ctx.sessionManager.getSessionFile() ?? '' };
      return carry({ hook_event_name: hook, ...session, cwd: ctx.cwd, has_ui: ctx.hasUI, ...fields });
    };
    const state = { beforeTool: new Map<string, string>(), sessionContext: undefined as string | undefined, continuing: false };
    const on = <E>(name: string, handler: Handler<E>) => pi.on(name, handler as Handler<never>);

    on<{ toolName: string; toolCallId: string; input: Record<string, unknown> }>('tool_call', async (event, ctx) => {
      const a = await call(ctx, 'tool_call', { tool_name: event.toolName, tool_input: event.input, tool_use_id: event.toolCallId });
      if ('error' in a) return { block: true, reason: notJudged(a.error, 'the call is blocked') };
      if (a.block !== undefined) return { block: true, reason: a.block };
      if (a.ask !== undefined && !(await confirmed(ctx, a.ask))) return { block: true, reason: `not approved by the user: ${a.ask}` };
      if (a.input) replaceInPlace(event.input, a.input);
      if (a.context) state.beforeTool.set(event.toolCallId, a.context);
      return undefined;
    });

    on<{ toolName: string; toolCallId: string; input: unknown; content: Content[]; isError: boolean }>(
      'tool_result',
      async (event, ctx) => {
        const before = state.beforeTool.get(event.toolCallId);
        state.beforeTool.delete(event.toolCallId);
        const response = event.content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('\n');
        const a = await call(ctx, 'tool_result', {
          tool_name: event.toolName,
          tool_input: event.input,
          tool_use_id: event.toolCallId,
          tool_response: response,
        });
        if ('error' in a) return { content: [{ type: 'text', text: notJudged(a.error, 'the tool output is withheld') }], isError: true };
        const extra = [before, a.context].filter((t): t is string => !!t);
        if (a.output === undefined && !extra.length) return undefined;
        const content = a.output === undefined ? event.content : [{ type: 'text', text: a.output }];
        return { content: appendText(content, extra) };
      },
    );

    on<{ text: string; source: string }>('input', async (event, ctx) => {
      // The prompt our Stop hook sends to keep Pi going is not a user's prompt (Claude fires no UserPromptSubmit for it).
      if (event.source === 'extension' && state.continuing) return undefined;
      const a = await call(ctx, 'input', { prompt: event.text });
      if ('error' in a || a.block !== undefined) {
        tell(ctx, `agent-hooks: prompt blocked: ${'error' in a ? notJudged(a.error, 'the prompt is not sent') : a.block}`);
        return { action: 'handled' };
      }
      return a.context ? { action: 'transform', text: `${event.text}\n\n${a.context}` } : undefined;
    });

    on<{ reason: string }>('session_start', async (event, ctx) => {
      const a = await call(ctx, 'session_start', { source: SOURCE[event.reason] ?? 'startup' });
      if ('error' in a) tell(ctx, `agent-hooks: SessionStart hooks could not run: ${a.error}`);
      else state.sessionContext = a.context;
    });

    on<unknown>('before_agent_start', async () => {
      const context = state.sessionContext;
      state.sessionContext = undefined;
      return context ? { message: { customType: 'agent-hooks', content: context, display: false } } : undefined;
    });

    on<unknown>('agent_end', async (_event, ctx) => {
      const a = await call(ctx, 'agent_end', { stop_hook_active: state.continuing });
      state.continuing = false;
      if ('error' in a) tell(ctx, `agent-hooks: Stop hooks could not run: ${a.error}`);
      else if (a.continueWith !== undefined) {
        state.continuing = true;
        pi.sendUserMessage(a.continueWith, { deliverAs: 'followUp' });
      }
    });

    on<unknown>('session_shutdown', async (_event, ctx) => {
      const a = await call(ctx, 'session_shutdown', { reason: 'other' });
      if ('error' in a) tell(ctx, `agent-hooks: SessionEnd hooks could not run: ${a.error}`);
    });
  };
}

/** Asks the user where Pi has a UI; without one (the wire never sends an ask then) or on error: not approved. */
async function confirmed(ctx: PiContext, reason: string): Promise<boolean> {
  if (!ctx.hasUI) return false;
  try {
    return await ctx.ui.confirm('agent-hooks: a hook asks for approval', reason);
  } catch {
    return false;
  }
}

/** A message for the person: Pi's UI where there is one, else stderr (print mode shows no notifications). */
function tell(ctx: PiContext, message: string): void {
  if (ctx.hasUI && ctx.ui.notify) ctx.ui.notify(message, 'warning');
  else process.stderr.write(`${message}\n`);
}
