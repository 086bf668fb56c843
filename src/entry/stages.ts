/**
 * agent-hooks/stages: the engine's stages as functions, for a host that composes its own
 * pipeline, a test or a benchmark: matching, the backends (command, http, prompt, mcp_tool) with
 * the HTTP target policy, output parsing and the reducer. createHookEngine wires all of them.
 */
import './zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
export { compileMatcher, parseRule, matchRule, extractToolPaths } from '../matching/index.js';
export { runCommand, buildHookEnv, encodePayload, spawnerReady, spawnerPid } from '../backends/index.js';
export { mcpToolBackend } from '../backends/mcp-tool.js';
export { httpBackend, runHttpHook, type HttpBackendOptions, type ConnectTarget } from '../backends/http.js';
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
} from '../backends/prompt.js';
export {
  checkHttpTarget,
  checkAddress,
  urlMatchesAllowlist,
  defaultResolver,
  type Resolver,
  type TargetDecision,
} from '../net/target-policy.js';
export { parseExecution, parseJsonObject, type ParsedHook, type Verdict } from '../parse/output.js';
export { reduce, type Decision, type HookRecord } from '../reduce/reduce.js';
