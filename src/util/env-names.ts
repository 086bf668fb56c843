/** Which environment variable names a pass-through list (`passEnv`) may name: the config stage checks them, the command backend applies them. */
/**
 * Names a pass-through list may not carry: they make a shell run a file before the hook
 * (BASH_ENV for bash, ENV for sh) or change which code every process loads.
 */
const NEVER_PASSED_ENV_KEYS: readonly string[] = [
  'BASH_ENV',
  'ENV',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'NODE_OPTIONS',
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Is `name` a variable a pass-through list may name (a plain name, not one of NEVER_PASSED_ENV_KEYS
 * in any case)? Windows looks variables up ignoring case, so `node_options` there passes the host's
 * NODE_OPTIONS; refused on every platform alike.
 */
export function passableEnvName(name: string): boolean {
  return ENV_NAME.test(name) && !NEVER_PASSED_ENV_KEYS.includes(name.toUpperCase());
}
