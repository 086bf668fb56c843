/** MCP in the host runtime (docs/host.md, "MCP and elicitation") and the proxy behind `agent-hooks mcp-proxy`. */
export {
  createMcpHost,
  mcpToolName,
  McpToolError,
  type McpHost,
} from './host.js';
export {
  elicit,
  type ElicitationAnswer,
  type ElicitationOutcome,
  type ElicitationPrompter,
  type ElicitationRequest,
} from './elicit.js';
export { compileElicitationSchema } from './schema.js';
export { createMcpProxy } from './proxy.js';
export { mcpProvider } from './provider.js';
