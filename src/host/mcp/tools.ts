/** MCP tools as the runtime's registry sees them: names, listing, and calls with McpToolError failures. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../mcp/messages.js';
import { McpToolError, type McpHostTool } from './host-types.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Claude's rule for the parts of an MCP tool name. */
function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

/** The text of an error result, for the error message (and PostToolUseFailure's `error`). */
export function toolErrorText(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return texts.join('\n').trim();
}

/** What a tool needs of its host: whether it is closed, and its default call budget. */
export interface ToolHost {
  readonly closed: boolean;
  readonly toolTimeoutMs: number;
  readonly warn: (message: string) => void;
}

/** Every tool of a server (all pages), named `mcp__<server>__<tool>`; a name clash after normalization keeps the first. */
export async function listTools(h: ToolHost, server: string, client: Client): Promise<McpHostTool[]> {
  const all: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const seen = new Set<string>();
  const tools: McpHostTool[] = [];
  for (const t of all) {
    const name = mcpToolName(server, t.name);
    if (seen.has(name)) {
      h.warn(`MCP server "${server}": tool "${t.name}" has the same name as another after normalization (${name}); skipped`);
      continue;
    }
    seen.add(name);
    tools.push(makeTool(h, server, client, name, t));
  }
  return tools;
}

function makeTool(h: ToolHost, server: string, client: Client, name: string, t: Tool): McpHostTool {
  const tool: McpHostTool = {
    name,
    server,
    tool: t.name,
    inputSchema: t.inputSchema as Record<string, unknown>,
    run: (input, ctx = {}) => runTool(h, server, client, name, t.name, input, ctx),
  };
  if (t.description !== undefined) tool.description = t.description;
  if (t.outputSchema !== undefined) tool.outputSchema = t.outputSchema as Record<string, unknown>;
  if (t.annotations !== undefined) tool.annotations = t.annotations as Record<string, unknown>;
  return tool;
}

async function runTool(
  h: ToolHost,
  server: string,
  client: Client,
  name: string,
  tool: string,
  input: Record<string, unknown>,
  ctx: { signal?: AbortSignal; timeoutMs?: number },
): Promise<CallToolResult> {
  if (h.closed || !client.transport) throw new McpToolError(`MCP server "${server}" is not connected`, 'not-connected');
  const timeout = Math.min(Math.max(1, ctx.timeoutMs ?? h.toolTimeoutMs), MAX_TIMER_MS);
  let result: CallToolResult;
  try {
    result = (await client.callTool({ name: tool, arguments: input }, undefined, {
      signal: ctx.signal,
      timeout,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
  } catch (err) {
    if (ctx.signal?.aborted) throw new McpToolError(`the call to ${name} was aborted`, 'aborted');
    const code = (err as { code?: unknown })?.code;
    if (code === -32001) throw new McpToolError(`${name} did not answer within ${timeout} ms`, 'timeout');
    if (code === -32000 || !client.transport)
      throw new McpToolError(`MCP server "${server}" closed the connection during the call to ${name}`, 'not-connected');
    throw new McpToolError(`${name} failed: ${errorMessage(err)}`, 'failed');
  }
  if (result.isError) throw new McpToolError(toolErrorText(result) || `${name} returned an error result`, 'tool-error', result);
  return result;
}
