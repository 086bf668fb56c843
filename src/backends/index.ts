export {
  runCommand,
  DEFAULT_EXIT_DRAIN_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  type CommandSpec,
} from './command.js';
export {
  buildHookEnv,
  substitutePlaceholders,
  INHERITED_ENV_KEYS,
  type HookEnvOptions,
  type PlaceholderVars,
} from './env.js';
export { substituteForShell } from './shell-placeholders.js';
export { encodePayload, encodeHookPayload, truncationMarker, STDIN_LIMIT_BYTES, type EncodedPayload } from './payload.js';
export { spawnerReady, spawnerPid } from './spawner.js';
