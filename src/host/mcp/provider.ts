/**
 * The MCP host as the runtime's McpProvider (src/host/types.ts): started by the runtime after
 * SessionStart froze the environment, it starts the servers with that environment, turns their
 * tools into registry tools, and sends elicitations through the hooks and the runtime's UI.
 */
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../mcp/config.js';
import { ToolError, type HostTool, type McpProvider, type ToolResult } from '../types.js';
import { createMcpHost, McpToolError, type McpHostOptions, type McpHostTool } from './host.js';
import type { ElicitationOutcome, ElicitationRequest } from './elicit.js';

export interface McpProviderOptions {
  servers?: Record<string, McpServerConfig>;
  clients?: McpHostOptions['clients'];
  connectTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** A server that fails to start: warn and go on without its tools (default), or fail the session start. */
  onStartFailure?: 'warn' | 'throw';
  onElicitation?: (server: string, request: ElicitationRequest, outcome: ElicitationOutcome) => void;
  onServerStderr?: (server: string, chunk: string) => void;
}

/** An McpProvider for `startHostSession({ mcp })`. */
export function mcpProvider(options: McpProviderOptions = {}): McpProvider {
  return async (ctx) => {
    const host = createMcpHost({
      servers: options.servers,
      clients: options.clients,
      engine: ctx.hooks,
      projectDir: ctx.cwd,
      env: { ...ctx.env },
      hookInput: () => ({ session_id: ctx.sessionId, cwd: ctx.cwd, permission_mode: ctx.permissionMode() }),
      runContext: () => ({ permissionMode: ctx.permissionMode(), sessionId: ctx.sessionId, cwd: ctx.cwd }),
      prompter: async (req, { signal }) => {
        await ctx.notify({
          message:
            req.mode === 'url' ? `${req.server} asks you to open ${req.url ?? 'a URL'}: ${req.message}` : `${req.server}: ${req.message}`,
          title: 'MCP elicitation',
          notification_type: req.mode === 'url' ? 'elicitation_url_dialog' : 'elicitation_dialog',
        });
        const r = await ctx.elicitUI(
          {
            serverName: req.server,
            message: req.message,
            mode: req.mode,
            url: req.url,
            elicitationId: req.elicitationId,
            requestedSchema: req.requestedSchema,
          },
          signal,
        );
        return { action: r.action, content: r.content as Record<string, string | number | boolean | string[]> | undefined };
      },
      connectTimeoutMs: options.connectTimeoutMs,
      toolTimeoutMs: options.toolTimeoutMs,
      onElicitation: options.onElicitation,
      onServerStderr: options.onServerStderr,
      onWarning: ctx.onWarning,
    });
    const report = await host.connect();
    const failed = report.filter((r) => !r.ok);
    if (failed.length && options.onStartFailure === 'throw') {
      await host.close();
      throw new Error(failed.map((f) => f.error).join('; '));
    }
    for (const f of failed) ctx.onWarning(`${f.error}; continuing without its tools`);
    return {
      // The runtime builds its registry once: tools a server adds later (list_changed) are not offered.
      tools: host.tools().map((t) => toHostTool(t, ctx.onWarning)),
      close: () => host.close(),
    };
  };
}

/**
 * One MCP tool as a registry tool. The input schema is the server's JSON Schema through zod
 * (an unconvertible schema falls back to "any object", and the server validates); MCP tools are
 * never readOnly here, whatever the server's hints say: a server's claim does not skip a prompt.
 */
function toHostTool(t: McpHostTool, warn: (m: string) => void = () => {}): HostTool {
  let inputSchema: z.ZodType<Record<string, unknown>>;
  try {
    inputSchema = z.fromJSONSchema(t.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch (err) {
    warn(`${t.name}: its inputSchema cannot be used for validation (${(err as Error).message}); the server validates its input`);
    inputSchema = z.record(z.string(), z.unknown());
  }
  return {
    name: t.name,
    description: t.description ?? '',
    inputSchema,
    async run(input, ctx): Promise<ToolResult> {
      try {
        const result = await t.run(input, { signal: ctx.signal });
        return { output: result, content: resultText(result) };
      } catch (err) {
        if (err instanceof McpToolError) throw new ToolError(err.message, err.result);
        throw err;
      }
    },
  };
}

/** What the model reads of a tool result: text blocks as they are, other blocks named, structured content as JSON. */
function resultText(result: CallToolResult): string {
  const parts = result.content.map((c) => {
    switch (c.type) {
      case 'text':
        return c.text;
      case 'resource':
        return 'text' in c.resource ? String(c.resource.text) : `[resource ${c.resource.uri}]`;
      case 'resource_link':
        return `[resource ${c.uri}]`;
      default:
        return `[${c.type}]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}
