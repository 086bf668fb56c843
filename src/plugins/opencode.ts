/**
 * agent-hooks as an OpenCode plugin (`agent-hooks/opencode`), also Kilo CLI's (a fork with the same
 * plugin interface): `export const AgentHooks = opencodePlugin({ settings })` in
 * `.opencode/plugin/agent-hooks.js` (Kilo: `.kilo/plugins/`, with `agent: 'kilo'`). Each hook
 * call goes to the engine in the agent's own process (OpenCode runs plugins in Bun, where the
 * library loads) through dispatch (carry.ts), and the answer is applied as OpenCode expects it:
 * a hook answers by mutating `output` or throwing. `tool.execute.before` throws to deny (the
 * model gets the reason as the tool's error) and mutates `output.args` in place to rewrite;
 * `tool.execute.after` sets `output.output` (replacement, context); `chat.message` adds the
 * context to the prompt's text or throws to block it (the session-start context rides on the
 * session's first prompt); `session.idle` keeps the session going with `client.session.prompt`.
 * When the engine cannot answer, the call and the prompt do not proceed.
 */
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import { carrier, type Answer, type PluginOptions } from './carry.js';
import { notJudged, replaceInPlace } from './apply.js';

export interface OpencodePluginOptions extends PluginOptions {
  /** Which agent loads it, for the names in its answers (default `opencode`). */
  agent?: 'opencode' | 'kilo';
}

/** The part of OpenCode's PluginInput the plugin reads. */
interface OpencodeInput {
  directory: string;
  client?: { session?: { prompt?(req: unknown): Promise<unknown> } };
}

type Part = { type: string; text?: string; synthetic?: boolean; [k: string]: unknown };
type ToolOutput = { title?: string; output?: unknown; metadata?: unknown; [k: string]: unknown };

/** The hooks the plugin returns (OpenCode's `Hooks`, the ones it uses). */
export interface OpencodeHooks {
  'tool.execute.before'(
    input: { tool: string; sessionID: string; callID: string },
    output: { args: Record<string, unknown> },
  ): Promise<void>;
  'tool.execute.after'(input: { tool: string; sessionID: string; callID: string; args?: unknown }, output: ToolOutput): Promise<void>;
  'chat.message'(input: { sessionID: string; messageID?: string }, output: { message?: unknown; parts: Part[] }): Promise<void>;
  event(input: { event: { type: string; properties?: Record<string, unknown> } }): Promise<void>;
}

export function opencodePlugin(options: OpencodePluginOptions = {}): (input: OpencodeInput) => Promise<OpencodeHooks> {
  return async (ctx) => {
    const carry = carrier(options.agent ?? 'opencode', ctx.directory, options);
    const call = (hook: string, sessionID: string, fields: Record<string, unknown>): Promise<Answer> =>
      carry({ hook_event_name: hook, session_id: sessionID, transcript_path: '', cwd: ctx.directory, ...fields });
    const beforeTool = new Map<string, string>();
    const started = new Set<string>();
    const continuing = new Set<string>();
    return {
      async 'tool.execute.before'(input, output) {
        const a = await call('tool.execute.before', input.sessionID, {
          tool_name: input.tool,
          tool_input: output.args,
          tool_use_id: input.callID,
        });
        if ('error' in a) throw new Error(notJudged(a.error, 'the call is blocked'));
        // OpenCode never asks a person on a plugin's behalf (permission.ask is never triggered): the wire sends none.
        const reason = a.block ?? a.ask;
        if (reason !== undefined) throw new Error(reason);
        if (a.input) replaceInPlace(output.args, a.input);
        if (a.context) beforeTool.set(input.callID, a.context);
      },
      async 'tool.execute.after'(input, output) {
        const before = beforeTool.get(input.callID);
        beforeTool.delete(input.callID);
        const response = typeof output.output === 'string' ? output.output : JSON.stringify(output.output ?? null);
        const a = await call('tool.execute.after', input.sessionID, {
          tool_name: input.tool,
          tool_input: input.args ?? {},
          tool_use_id: input.callID,
          tool_response: response,
        });
        if ('error' in a) {
          output.output = notJudged(a.error, 'the tool output is withheld');
          return;
        }
        const texts = [a.output ?? response, before, a.context].filter((t): t is string => !!t);
        if (a.output !== undefined || texts.length > 1) output.output = texts.join('\n\n');
      },
      async 'chat.message'(input, output) {
        const contexts: string[] = [];
        if (!started.has(input.sessionID)) {
          started.add(input.sessionID);
          const s = await call('session.created', input.sessionID, { source: 'startup' });
          if (!('error' in s) && s.context) contexts.push(s.context);
        }
        // Our own keep-going prompt is not a user's (Claude fires no UserPromptSubmit for it).
        if (continuing.has(input.sessionID)) return;
        const text = output.parts.filter((p) => p.type === 'text' && !p.synthetic).map((p) => p.text ?? '');
        const a = await call('chat.message', input.sessionID, { prompt: text.join('\n') });
        if ('error' in a) throw new Error(notJudged(a.error, 'the prompt is not sent'));
        if (a.block !== undefined) throw new Error(`agent-hooks: prompt blocked: ${a.block}`);
        if (a.context) contexts.push(a.context);
        const last = [...output.parts].reverse().find((p) => p.type === 'text' && !p.synthetic);
        if (contexts.length && last) last.text = [last.text ?? '', ...contexts].join('\n\n');
      },
      async event({ event }) {
        if (event.type !== 'session.idle') return;
        const sessionID = String(event.properties?.sessionID ?? '');
        const active = continuing.delete(sessionID);
        const a = await call('session.idle', sessionID, { stop_hook_active: active });
        if ('error' in a || a.continueWith === undefined || !ctx.client?.session?.prompt) return;
        continuing.add(sessionID);
        await ctx.client.session.prompt({ path: { id: sessionID }, body: { parts: [{ type: 'text', text: a.continueWith }] } });
      },
    };
  };
}
