/**
 * agent-hooks: the hooks engine for AI coding agents. This entry holds what an agent that
 * embeds the engine needs, and no more (test/package/exports.test.ts holds the reviewed list):
 * create an engine, register function hooks, fire typed events, load and trust config, sessions,
 * the audit record. It loads no HTTP server, HTTP client, MCP or diff code; the rest is in
 * subpath exports (docs/library.md):
 *   agent-hooks/sdk       write a hook script in TypeScript (defineHook, deny, …)
 *   agent-hooks/stages    the engine's stages one by one: catalog, config and trust gate,
 *                         matching, backends, parse, reduce, and the data shapes between them
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
} from './api.js';
export { InvalidHookInputError, type HookEngineOptions, type RunContext } from './engine/engine.js';
export { EVENT_NAMES, type EventName, type EventInput, type EventOutput } from './events/catalog.js';
export type { AuditEntry, AuditSink } from './engine/audit.js';
export { memoryCounterStore, type SessionCounterStore } from './engine/session-counters.js';
export { loadConfig, type LoadedConfig } from './config/index.js';
export {
  loadTrustedConfig,
  trustWorkspace,
  revokeWorkspace,
  TrustRefusedError,
  TrustStoreError,
  type TrustState,
  type TrustOptions,
  type TrustReport,
} from './trust/index.js';
export { createHookManager, type HookManager, type HookManagerOptions, type SessionHandle } from './session/manager.js';
