/**
 * agent-hooks: the hooks engine for AI coding agents. This entry holds what an agent that
 * embeds the engine needs: create an engine, register function hooks, fire events, load and
 * trust config, sessions, and the types. It loads no HTTP server, HTTP client, MCP or diff code;
 * the rest is in subpath exports (README, "Library API"):
 *   agent-hooks/sdk       write a hook script in TypeScript (defineHook, deny, …)
 *   agent-hooks/stages    the engine's stages one by one: matching, backends, parse, reduce
 *   agent-hooks/dialects  other agents' config formats and wire conventions, convert, dispatch
 *   agent-hooks/mcp       MCP servers for mcp_tool hooks
 *   agent-hooks/host      the reference host runtime (docs/host.md)
 *   agent-hooks/serve     the trust review panel as a library (docs/serve.md)
 *
 *   const config = await loadConfig({ cwd });
 *   const engine = createHookEngine({ hooks: config.hooks, projectDir: cwd });
 *   const decision = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
 */
import './entry/zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export {
  createHookEngine,
  untyped,
  type HookEngine,
  type HookRegistration,
  type FunctionHookResult,
  type RunInput,
  type Decision,
  type UntypedHookEngine,
  type UntypedDecision,
} from './api.js';
export {
  checkInput,
  emptyDecision,
  InvalidHookInputError,
  DEFAULT_TIMEOUTS,
  type HookEngineOptions,
  type RunContext,
  type Backend,
  type BackendContext,
  type FunctionHookRegistration,
} from './engine/engine.js';
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
export type { HookInput, HookOutput } from './sdk/index.js';
export type { HookRecord } from './reduce/reduce.js';
export type { AuditEntry, AuditSink } from './engine/audit.js';
export { loadConfig, settingsJsonSchema, type LoadedConfig } from './config/index.js';
export { lintHooks, type LintOptions } from './engine/lint.js';
export {
  loadFrontmatterHooks,
  parseFrontmatter,
  frontmatterKindOf,
  type FrontmatterHooks,
  type FrontmatterKind,
} from './config/frontmatter.js';
export { createPluginIntegrator, combinePluginBatch, type PluginIntegrator, type PluginIntegratorOptions } from './config/plugins.js';
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
export type * from './types.js';
