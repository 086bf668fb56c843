/** The backend for each hook type, as one engine uses them. */
import type { McpClientManager } from '../mcp/manager.js';
import type { HookHandler } from '../types.js';
import { commandBackend, type CommandBackendOptions } from './command-hook.js';
import { functionBackend } from './function.js';
import type { HttpBackendOptions } from './http.js';
import type { PromptBackendOptions, PromptBackends } from './prompt.js';
import type { Backend } from './types.js';

export type BackendTable = Partial<Record<HookHandler['type'], Backend>>;

export interface BackendTableOptions extends CommandBackendOptions {
  http?: HttpBackendOptions;
  prompt?: PromptBackendOptions;
  /** The MCP servers mcp_tool hooks call; without it there is no mcp_tool backend. */
  mcp?: McpClientManager;
  /** Replace or add backends by hook type. */
  backends?: BackendTable;
}

/** A backend whose implementation is imported on its first call. */
function lazyBackend(load: () => Promise<Backend>): Backend {
  let loaded: Promise<Backend> | undefined;
  return async (hook, payload, ctx) => {
    loaded ??= load();
    return (await loaded)(hook, payload, ctx);
  };
}

export function createBackendTable(options: BackendTableOptions): BackendTable {
  // The HTTP client (undici), the prompt backends and the MCP tool call load on the first hook that
  // needs them, so an engine with only command hooks starts without them (CLI cold start, docs/performance.md).
  let promptBackends: Promise<PromptBackends> | undefined;
  const { mcp } = options;
  const loadPromptBackends = () => (promptBackends ??= import('./prompt.js').then((m) => m.createPromptBackends(options.prompt)));
  return {
    command: commandBackend(options),
    function: functionBackend,
    http: lazyBackend(() => import('./http.js').then((m) => m.httpBackend(options.http))),
    prompt: lazyBackend(() => loadPromptBackends().then((b) => b.prompt)),
    agent: lazyBackend(() => loadPromptBackends().then((b) => b.agent)),
    ...(mcp ? { mcp_tool: lazyBackend(() => import('./mcp-tool.js').then((m) => m.mcpToolBackend(mcp))) } : {}),
    ...options.backends,
  };
}
