export {
  createMcpClientManager,
  isMcpClientManager,
  McpConfigError,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpCallOutcome,
  type McpClient,
  type McpClientOptions,
  type McpToolResult,
  type McpCallFailure,
  type McpCallOptions,
  type McpServerStatus,
} from './manager.js';
export {
  parseMcpConfig,
  loadMcpConfigFile,
  expandEnv,
  mcpServerConfigSchema,
  type McpServerConfig,
  type McpConfigResult,
} from './config.js';
export { substituteInput, parsePath, lookupPath } from './substitute.js';
