/**
 * agent-hooks/stages: the engine's stages as functions, for a host that composes its own
 * pipeline, a test or a benchmark: the event catalog and input check, the config and trust-gate
 * stages a plain loadConfig does not cover (plugins, lint, gating hooks already loaded), matching,
 * the backends (command, http, prompt, mcp_tool) with the HTTP target policy, output parsing and
 * the reducer, and the data shapes that flow between them. createHookEngine wires all of them.
 */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export { catalog, inputSchema, outputSchema } from '../events/catalog.js';
export { checkInput } from '../engine/input.js';
export type { Backend, BackendContext } from '../backends/types.js';
export type { NormalizedHook, Diagnostic, ExecutionResult, SessionSnapshot } from '../types.js';
export { createPluginIntegrator, type PluginIntegrator, type PluginIntegratorOptions } from '../config/plugins.js';
export { lintHooks, type LintOptions } from '../lint/hooks.js';
export { evaluateTrust } from '../trust/index.js';
export { compileMatcher, parseRule, matchRule, extractToolPaths } from '../matching/index.js';
export { runCommand, buildHookEnv, encodePayload, spawnerReady, spawnerPid } from '../backends/index.js';
export { mcpToolBackend } from '../backends/mcp-tool.js';
export { httpBackend, runHttpHook, type HttpBackendOptions, type ConnectTarget } from '../backends/http.js';
export {
  createPromptBackends,
  openAICompatibleProvider,
  ModelProviderError,
  type ModelProvider,
  type ModelRequest,
  type PromptBackendOptions,
  type PromptBackends,
  type OpenAICompatibleOptions,
} from '../backends/prompt.js';
export { checkHttpTarget, defaultResolver, type Resolver, type TargetDecision } from '../net/target-policy.js';
export { parseExecution, parseJsonObject, type ParsedHook, type Verdict } from '../parse/output.js';
export { reduce, type Decision, type HookRecord } from '../reduce/reduce.js';
