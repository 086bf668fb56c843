export {
  createMcpClientManager,
  McpConfigError,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpCallOutcome,
  type McpCallFailure,
  type McpServerStatus,
} from './manager.js';
export {
  parseMcpConfig,
  loadMcpConfigFile,
  type McpServerConfig,
} from './config.js';
