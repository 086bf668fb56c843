/**
 * Environment and path placeholders for command hooks.
 *
 * Hooks are often repository scripts, so they must not see the agent's credentials: a
 * hook gets a small allow-list from the host environment, the session's explicit
 * environment, the CLAUDE_* locations, and its own `env` — nothing else.
 */
import { passableEnvName } from '../util/env-names.js';

/**
 * Host variables a hook inherits. Beyond the PATH/HOME/USER/SHELL/LANG/TMPDIR of the
 * product rule we keep LOGNAME (POSIX spelling of USER), LC_ALL/LC_CTYPE (without them
 * tools may mis-decode non-ASCII paths) and TZ (timestamps in hook logs): locale and
 * clock settings, never credentials.
 */
export const INHERITED_ENV_KEYS: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
];

/** Windows programs fail in odd ways without these; none of them is a secret. */
const WINDOWS_ENV_KEYS: readonly string[] = [
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
];

export interface HookEnvOptions {
  /** The session's explicit environment given by the host. */
  sessionEnv?: Record<string, string>;
  /** Host variables passed through by name (`agentHooks.passEnv` of user or managed settings). */
  passEnv?: readonly string[];
  /** The hook's own `env` field; applied last. `${NAME}` in a value is the value NAME has for the hook so far. */
  hookEnv?: Record<string, string>;
  projectDir?: string;
  pluginRoot?: string;
  pluginData?: string;
  envFile?: string;
  /** Host environment to take the allow-listed keys from; defaults to process.env. */
  base?: NodeJS.ProcessEnv;
  /** Platform whose key list and case rules apply; defaults to process.platform. */
  platform?: NodeJS.Platform;
}

/**
 * Build the complete environment of a command hook. Precedence, lowest first: allow-listed
 * host keys, passEnv keys, sessionEnv, CLAUDE_PROJECT_DIR / CLAUDE_PLUGIN_ROOT /
 * CLAUDE_PLUGIN_DATA / CLAUDE_ENV_FILE (when given), hookEnv.
 */
export function buildHookEnv(opts: HookEnvOptions = {}): Record<string, string> {
  const base = opts.base ?? process.env;
  const windows = (opts.platform ?? process.platform) === 'win32';
  const env: Record<string, string> = {};

  const keys = windows ? [...INHERITED_ENV_KEYS, ...WINDOWS_ENV_KEYS] : INHERITED_ENV_KEYS;
  for (const key of keys) {
    const value = windows ? lookupIgnoringCase(base, key) : base[key];
    if (typeof value === 'string') env[key] = value;
  }
  for (const key of opts.passEnv ?? []) {
    if (typeof key !== 'string' || !passableEnvName(key)) continue;
    const value = windows ? lookupIgnoringCase(base, key) : base[key];
    if (typeof value === 'string') env[key] = value;
  }
  assignStrings(env, opts.sessionEnv);
  if (opts.projectDir !== undefined) env.CLAUDE_PROJECT_DIR = opts.projectDir;
  if (opts.pluginRoot !== undefined) env.CLAUDE_PLUGIN_ROOT = opts.pluginRoot;
  if (opts.pluginData !== undefined) env.CLAUDE_PLUGIN_DATA = opts.pluginData;
  if (opts.envFile !== undefined) env.CLAUDE_ENV_FILE = opts.envFile;
  if (opts.hookEnv) {
    // References resolve against what the hook already sees, so they can never reach a host
    // variable that is not passed through (nothing new leaks); all resolve before any is set.
    const seen = { ...env };
    for (const [key, value] of Object.entries(opts.hookEnv)) {
      if (typeof value === 'string') env[key] = value.replace(ENV_REFERENCE, (_m, name: string) => seen[name] ?? '');
    }
  }
  return env;
}

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// Config is validated upstream, but a non-string value here would make spawn throw.
function assignStrings(target: Record<string, string>, source: Record<string, string> | undefined): void {
  if (!source) return;
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'string') target[key] = value;
  }
}

// Windows environment names are case-insensitive ("Path" vs "PATH"); a plain object is not.
function lookupIgnoringCase(base: NodeJS.ProcessEnv, key: string): string | undefined {
  if (typeof base[key] === 'string') return base[key];
  const lower = key.toLowerCase();
  for (const [k, v] of Object.entries(base)) {
    if (k.toLowerCase() === lower && typeof v === 'string') return v;
  }
  return undefined;
}

export interface PlaceholderVars {
  CLAUDE_PROJECT_DIR?: string;
  CLAUDE_PLUGIN_ROOT?: string;
  CLAUDE_PLUGIN_DATA?: string;
}

/** The three placeholders; shared with shell-placeholders.ts (global: reset lastIndex before exec). */
export const PLACEHOLDER = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g;

/**
 * Replace `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` with
 * their values as plain strings. Placeholders without a value, and every other `${...}`,
 * are left untouched so a shell can still expand its own variables. (Shell-form commands:
 * substituteForShell in shell-placeholders.ts, which parses the line with unbash.)
 */
export function substitutePlaceholders(text: string, vars: PlaceholderVars): string {
  // A replacer function, not a replacement string: values may contain `$&` and the like.
  return text.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars) => vars[name] ?? match);
}
