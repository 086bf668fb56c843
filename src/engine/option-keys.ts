/**
 * What createHookEngine and register accept, checked when they are called: an unknown key is a
 * TypeError with a "did you mean" (src/util/option-keys.ts), never a silently ignored option.
 * Type-only imports: the backends these options configure stay unloaded until a hook needs them.
 */
import type { HttpBackendOptions } from '../backends/http.js';
import type { PromptBackendOptions } from '../backends/prompt.js';
import { isMcpClientManager, MCP_MANAGER_OPTION_KEYS } from '../mcp/types.js';
import type { HookHandler } from '../types.js';
import type { BuiltinHooks } from './builtin-hooks.js';
import { checkKnownKeys, type KnownKeys } from '../util/option-keys.js';
import type { FunctionHookRegistration, HookEngineOptions } from './types.js';

export const ENGINE_OPTION_KEYS = {
  hooks: true,
  projectDir: true,
  cwd: true,
  homeDir: true,
  sessionId: true,
  sessionEnv: true,
  passEnv: true,
  disabled: true,
  skipToolHooksInPlanMode: true,
  builtinHooks: true,
  failureBehavior: true,
  timeoutBehavior: true,
  maxConcurrentHooks: true,
  stopHookMaxConsecutiveBlocks: true,
  sessionCounters: true,
  trustReportedPermissionMode: true,
  invalidInput: true,
  auditWaitMs: true,
  stdinLimitBytes: true,
  outputLimitBytes: true,
  killGraceMs: true,
  sandbox: true,
  spawner: true,
  waitForAsyncDeclaration: true,
  audit: true,
  auditWriter: true,
  telemetry: true,
  backends: true,
  http: true,
  prompt: true,
  mcp: true,
  validateToolInput: true,
  onAsyncResult: true,
  spillDir: true,
  captureIoBytes: true,
  auditIo: true,
  onWarning: true,
} as const satisfies KnownKeys<HookEngineOptions>;

export const HTTP_OPTION_KEYS = {
  resolve: true,
  allowedHttpHookUrls: true,
  httpHookAllowedEnvVars: true,
  env: true,
  onConnect: true,
  maxResponseBytes: true,
} as const satisfies KnownKeys<HttpBackendOptions>;

export const PROMPT_OPTION_KEYS = {
  provider: true,
  baseUrl: true,
  apiKey: true,
  defaultModel: true,
  cacheSize: true,
  agentAsSingleTurn: true,
  env: true,
} as const satisfies KnownKeys<PromptBackendOptions>;

export const BUILTIN_HOOK_KEYS = { codeReview: true } as const satisfies KnownKeys<BuiltinHooks>;

/** The hook types a `backends` entry may add or replace. */
const BACKEND_TYPE_KEYS = {
  command: true,
  http: true,
  mcp_tool: true,
  prompt: true,
  agent: true,
  function: true,
} as const satisfies KnownKeys<Record<HookHandler['type'], unknown>>;

export const REGISTRATION_KEYS = {
  event: true,
  matcher: true,
  if: true,
  name: true,
  timeout: true,
  failureBehavior: true,
  timeoutBehavior: true,
  projectDir: true,
  fn: true,
} as const satisfies KnownKeys<FunctionHookRegistration>;

/**
 * createHookEngine's options, and the keys of the option objects an embedder writes by hand.
 * `prefix` and `known` serve the session manager's `engineOptions` (src/session/option-keys.ts).
 */
export function checkEngineOptions(
  options: HookEngineOptions,
  where = 'createHookEngine',
  prefix = '',
  known: Readonly<Record<string, true>> = ENGINE_OPTION_KEYS,
): void {
  checkKnownKeys(where, options, known, prefix);
  if (typeof options !== 'object' || options === null) return;
  checkKnownKeys(where, options.http, HTTP_OPTION_KEYS, `${prefix}http.`);
  checkKnownKeys(where, options.prompt, PROMPT_OPTION_KEYS, `${prefix}prompt.`);
  checkKnownKeys(where, options.backends, BACKEND_TYPE_KEYS, `${prefix}backends.`);
  checkKnownKeys(where, options.builtinHooks, BUILTIN_HOOK_KEYS, `${prefix}builtinHooks.`);
  if (!isMcpClientManager(options.mcp)) checkKnownKeys(where, options.mcp, MCP_MANAGER_OPTION_KEYS, `${prefix}mcp.`);
}
