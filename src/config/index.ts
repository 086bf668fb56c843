/** Public API of the config stage: files → validated, normalized, deduplicated hooks. */
export {
  loadConfig,
  defaultManagedSettingsPath,
  type LoadConfigOptions,
  type LoadedConfig,
  type LoadedFile,
  type PluginSpec,
  type SkillSpec,
} from './load.js';
export { dedupeHooks, dedupKeyFor, isManagedHook, normalizeMatcher } from './registry.js';
export {
  settingsJsonSchema,
  pluginHooksJsonSchema,
  settingsFileSchema,
  pluginHooksFileSchema,
  hooksObjectSchema,
  handlerSchema,
  matcherGroupSchema,
  agentHooksOptionsSchema,
  SETTINGS_KEYS,
  type AgentHooksOptions,
  type HandlerConfig,
  type MatcherGroupConfig,
  type HooksConfig,
  type SettingsFile,
  type PluginHooksFile,
} from './schema.js';
export { formatPath, parseJson, findJsonSyntaxError } from './diagnostics.js';
export { closest } from '../util/did-you-mean.js';
