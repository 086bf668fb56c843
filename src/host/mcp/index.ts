/** MCP in the host runtime (docs/host.md, "MCP and elicitation") and the proxy behind `agent-hooks mcp-proxy`. */
export {
  createMcpHost,
  mcpToolName,
  normalizeMcpName,
  toolErrorText,
  McpToolError,
  type McpHost,
  type McpHostOptions,
  type McpHostSession,
  type McpHostTool,
  type McpHostServerStatus,
  type McpToolFailure,
  type McpToolRunContext,
} from './host.js';
export {
  elicit,
  formatElicitationTrace,
  type ElicitAction,
  type ElicitationAnswer,
  type ElicitationOutcome,
  type ElicitationPrompter,
  type ElicitationRequest,
  type ElicitationStage,
  type ElicitationStep,
  type ElicitOptions,
  type HookRunner,
} from './elicit.js';
export {
  compileElicitationSchema,
  type CompiledElicitationSchema,
  type ContentCheck,
  type ElicitContent,
  type ElicitValue,
} from './schema.js';
export { createMcpProxy, type McpProxy, type McpProxyOptions } from './proxy.js';
export { mcpProvider, toHostTool, resultText, type McpProviderOptions } from './provider.js';
