/** agent-hooks/mcp: the MCP servers behind mcp_tool hooks (docs/backends.md). */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export {
  createMcpClientManager,
  McpConfigError,
  parseMcpConfig,
  loadMcpConfigFile,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpCallOutcome,
  type McpClient,
  type McpClientOptions,
  type McpToolResult,
  type McpCallFailure,
  type McpServerStatus,
  type McpServerConfig,
} from '../mcp/index.js';
