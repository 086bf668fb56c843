/**
 * The keys of the settings file's parts, in the order of their zod schemas (src/config/schema.ts):
 * the liberal reader, "did you mean" hints and the trust selection need only the names, and a
 * settings file accepted by the compiled validator is put in this order, as zod's copy would be
 * (src/config/settings.ts), without loading zod. test/config/keys.test.ts keeps them equal to
 * the schemas' shapes.
 */

/** Our own top-level keys of a settings file (others belong to other features). */
export const SETTINGS_KEYS = [
  'hooks',
  'disableAllHooks',
  'allowManagedHooksOnly',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'agentHooks',
] as const;

/** Keys of a plugin's hooks/hooks.json. */
export const PLUGIN_HOOKS_KEYS: readonly string[] = ['description', 'hooks'];

/** Keys of a matcher group. */
export const GROUP_KEYS: readonly string[] = ['matcher', 'hooks'];

const COMMON_HANDLER_KEYS = ['if', 'timeout', 'statusMessage', 'once', 'enabled', 'failureBehavior', 'timeoutBehavior'] as const;

export type HandlerTypeName = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent';

/** Keys each handler type accepts. */
export const HANDLER_KEYS: Record<HandlerTypeName, readonly string[]> = {
  command: ['type', 'command', 'args', 'async', 'asyncRewake', 'shell', 'env', ...COMMON_HANDLER_KEYS],
  http: ['type', 'url', 'headers', 'allowedEnvVars', 'allowedHosts', 'allowInsecureTLS', ...COMMON_HANDLER_KEYS],
  mcp_tool: ['type', 'server', 'tool', 'input', ...COMMON_HANDLER_KEYS],
  prompt: ['type', 'prompt', 'model', ...COMMON_HANDLER_KEYS, 'continueOnBlock'],
  agent: ['type', 'prompt', 'model', ...COMMON_HANDLER_KEYS],
};

/** Keys of the `agentHooks` options object. */
export const AGENT_HOOKS_OPTION_KEYS: readonly string[] = [
  'failureBehavior',
  'timeoutBehavior',
  'maxConcurrentHooks',
  'stopHookMaxConsecutiveBlocks',
  'stdinLimitBytes',
  'outputLimitBytes',
  'discoverDialects',
  'auditSinks',
  'passEnv',
  'sandbox',
  'builtinHooks',
];

/** Keys of `agentHooks.builtinHooks` (the engine's BUILTIN_HOOK_KEYS; a test keeps the two equal). */
export const BUILTIN_HOOKS_KEYS: readonly string[] = ['codeReview'];
