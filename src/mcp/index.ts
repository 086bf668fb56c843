export {
  createMcpClientManager,
  McpConfigError,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpCallOutcome,
  type McpClient,
  type McpClientOptions,
  type McpToolResult,
  type McpCallFailure,
  type McpServerStatus,
} from './manager.js';
export {
  parseMcpConfig,
  loadMcpConfigFile,
  type McpServerConfig,
} from './config.js';
