/**
 * `agent-hooks/mcp-client`: the engine around an MCP TypeScript SDK `Client`'s `callTool`, for
 * apps that call MCP tools in-process on their model's behalf (`agent-hooks mcp-proxy` covers a
 * server in another process). Tools are `mcp__<server>__<tool>` to the hooks, as in Claude Code.
 * MCP has no approval step on the client side: an ask goes to the app's `ask` callback, and
 * without one it is denied with the reason. MCP has no prompt or loop end: no
 * UserPromptSubmit or Stop here (the app's loop fires those, docs/frameworks.md).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import { deniedText, engineBridge, type FrameworkHookOptions } from './shared.js';

export type { FrameworkHookOptions } from './shared.js';

export interface McpClientHookOptions extends FrameworkHookOptions {
  /** The server's name: its tools are `mcp__<server>__<tool>` to the hooks. */
  server: string;
  /** The app's own approval for a hook's ask (true = run it); without it an ask is denied with the reason. */
  ask?: (request: { tool: string; input: Record<string, unknown>; reason: string }) => Promise<boolean>;
}

type CallTool = Client['callTool'];
type CallToolResult = Awaited<ReturnType<CallTool>>;

const part = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

const textResult = (text: string, isError: boolean) => ({ content: [{ type: 'text' as const, text }], isError }) as CallToolResult;

/** Replaces `client.callTool` with one that runs PreToolUse and PostToolUse around it; returns the client. */
export function hookMcpClient<C extends Pick<Client, 'callTool'>>(engine: HookEngine, client: C, options: McpClientHookOptions): C {
  const bridge = engineBridge(engine, options);
  const call = client.callTool.bind(client) as CallTool;
  const callTool: CallTool = async (params, resultSchema, requestOptions) => {
    const name = `mcp__${part(options.server)}__${part(params.name)}`;
    const input = params.arguments ?? {};
    const v = await bridge.beforeTool(name, input);
    const context = [...v.context];
    if (v.kind === 'deny') return textResult([deniedText(v.reason), ...context].join('\n\n'), true);
    if (v.kind === 'ask') {
      const approved = options.ask ? await options.ask({ tool: name, input: v.input, reason: v.reason }).catch(() => false) : false;
      if (!approved) {
        const why = options.ask ? `${v.reason} (not approved)` : `${v.reason} (no approval callback: hookMcpClient's ask option)`;
        return textResult([deniedText(why), ...context].join('\n\n'), true);
      }
    }
    const result = await call({ ...params, arguments: v.input }, resultSchema, requestOptions);
    const after = await bridge.afterTool(name, v.input, result);
    const out = after.replaced ? asResult(after.output) : result;
    context.push(...after.context);
    if (context.length === 0) return out;
    return {
      ...out,
      content: [...((out.content as unknown[]) ?? []), ...context.map((text) => ({ type: 'text', text }))],
    } as CallToolResult;
  };
  client.callTool = callTool;
  return client;
}

/** A hook's updatedOutput as a CallToolResult: one already shaped as one stays, anything else becomes its text. */
function asResult(output: unknown): CallToolResult {
  if (output && typeof output === 'object' && Array.isArray((output as { content?: unknown }).content)) {
    return output as CallToolResult;
  }
  return textResult(typeof output === 'string' ? output : JSON.stringify(output), false);
}
