/** Public API of the config stage: files → validated, normalized, deduplicated hooks. */
export {
  loadConfig,
  defaultManagedSettingsPath,
  type LoadConfigOptions,
  type LoadedConfig,
} from './load.js';
export { dedupeHooks, isManagedHook } from './registry.js';
export { settingsJsonSchema } from './schema.js';
export { parseJson, findJsonSyntaxError } from './diagnostics.js';
