/**
 * agent-hooks: the hooks engine for AI coding agents.
 *
 *   const config = await loadConfig({ cwd });
 *   const engine = createHookEngine({ hooks: config.hooks, projectDir: cwd });
 *   const decision = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
 */
export {
  catalog,
  EVENT_NAMES,
  isEventName,
  inputSchema,
  outputSchema,
  type Catalog,
  type EventName,
  type EventInput,
  type EventOutput,
} from './events/catalog.js';
export type { EventSpec, DecisionModel, Exit2Effect } from './events/spec.js';
export {
  createHookEngine,
  checkInput,
  emptyDecision,
  InvalidHookInputError,
  DEFAULT_TIMEOUTS,
  type HookEngine,
  type HookEngineOptions,
  type RunContext,
  type Backend,
  type BackendContext,
  type FunctionHookRegistration,
} from './engine/engine.js';
export { lintHooks, type LintOptions } from './engine/lint.js';
export type { AuditEntry, AuditSink } from './engine/audit.js';
export { loadConfig, settingsJsonSchema, type LoadedConfig } from './config/index.js';
export { parseExecution, parseJsonObject, type ParsedHook, type Verdict } from './parse/output.js';
export { reduce, type Decision, type HookRecord } from './reduce/reduce.js';
export { compileMatcher, parseRule, matchRule, extractToolPaths } from './matching/index.js';
export { runCommand, buildHookEnv, encodePayload, spawnerReady, spawnerPid } from './backends/index.js';
export { mcpToolBackend } from './backends/mcp-tool.js';
export { httpBackend, runHttpHook, type HttpBackendOptions, type ConnectTarget } from './backends/http.js';
export {
  createPromptBackends,
  openAICompatibleProvider,
  renderPrompt,
  parseModelAnswer,
  verdictOutput,
  ModelProviderError,
  type ModelProvider,
  type ModelRequest,
  type PromptBackendOptions,
  type PromptBackends,
  type OpenAICompatibleOptions,
} from './backends/prompt.js';
export { checkHttpTarget, checkAddress, urlMatchesAllowlist, defaultResolver, type Resolver, type TargetDecision } from './net/target-policy.js';
export {
  createMcpClientManager,
  isMcpClientManager,
  McpConfigError,
  parseMcpConfig,
  loadMcpConfigFile,
  substituteInput,
  type McpClientManager,
  type McpClientManagerOptions,
  type McpCallOutcome,
  type McpCallFailure,
  type McpServerStatus,
  type McpServerConfig,
} from './mcp/index.js';
export {
  loadTrustedConfig,
  evaluateTrust,
  assessTrust,
  trustGate,
  trustWorkspace,
  revokeWorkspace,
  defaultNeedsTrust,
  resolveWorkspace,
  defaultTrustStorePath,
  TrustRefusedError,
  TrustStoreError,
  type TrustState,
  type TrustOptions,
  type TrustReport,
  type TrustEvaluation,
  type HookTrustStatus,
  type Workspace,
} from './trust/index.js';
export * from './session/index.js';
export {
  loadFrontmatterHooks,
  parseFrontmatter,
  frontmatterKindOf,
  type FrontmatterHooks,
  type FrontmatterKind,
} from './config/frontmatter.js';
export { createPluginIntegrator, combinePluginBatch, type PluginIntegrator, type PluginIntegratorOptions } from './config/plugins.js';
export type * from './types.js';
export {
  DIALECTS,
  DIALECT_NAMES,
  getDialect,
  detectDialect,
  readDocument,
  isDialectName,
  type Dialect,
  type DialectName,
} from './dialects/index.js';
export { parseDialect, serializeDialect, type Loss, type SerializeResult } from './config/readers/index.js';
export { WIRE, type DispatchInput, type DispatchOutput, type WireAdapter } from './dispatch/wire/index.js';
export { loadForeignSettings } from './config/readers/load.js';
export { dispatch, type DispatchFlags } from './dispatch/dispatch.js';
export { convertText, type ConvertResult } from './config/readers/convert.js';
/** The reference host runtime (docs/host.md): sessions, tool pipeline, permission engine, tools, agent loop, demo. */
export * from './host/index.js';
/** `agent-hooks serve` as a library (docs/serve.md): the trust review panel and session API, mountable or listening on loopback. */
export * from './serve/index.js';
