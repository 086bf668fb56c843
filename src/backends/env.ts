/**
 * Environment and path placeholders for command hooks.
 *
 * Hooks are often repository scripts, so they must not see the agent's credentials: a
 * hook gets a small allow-list from the host environment, the session's explicit
 * environment, the CLAUDE_* locations, and its own `env` — nothing else.
 */
import { forEachChild, parse, type SyntaxNode } from 'unbash';

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

/**
 * Names a pass-through list may not carry: they make a shell run a file before the hook
 * (BASH_ENV for bash, ENV for sh) or change which code every process loads.
 */
export const NEVER_PASSED_ENV_KEYS: readonly string[] = [
  'BASH_ENV',
  'ENV',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'NODE_OPTIONS',
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Is `name` a variable a pass-through list may name (a plain name, not one of NEVER_PASSED_ENV_KEYS)? */
export function passableEnvName(name: string): boolean {
  return ENV_NAME.test(name) && !NEVER_PASSED_ENV_KEYS.includes(name);
}

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

const PLACEHOLDER = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g;

/**
 * Replace `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` with
 * their values as plain strings. Placeholders without a value, and every other `${...}`,
 * are left untouched so a shell can still expand its own variables.
 */
export function substitutePlaceholders(text: string, vars: PlaceholderVars): string {
  // A replacer function, not a replacement string: values may contain `$&` and the like.
  return text.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars) => vars[name] ?? match);
}

/**
 * Characters a value may contain and still be pasted into a shell command line without
 * changing its meaning inside double quotes or as a plain word: no quotes, `$`, backticks,
 * backslashes, globs, separators, newlines, or a `~` that could start a word. PowerShell
 * gets a tighter set (`@`, `,`, `%` mean something there) but allows backslashes for Windows paths.
 */
const SHELL_SAFE = /^[A-Za-z0-9_\-./:@%+,= ]*$/;
const POWERSHELL_SAFE = /^[A-Za-z0-9_\-./: \\]*$/;

/** A value pasted as a bare word: no whitespace either (the shell would split it). */
const WORD_SAFE = /^[A-Za-z0-9_\-./:@%+,=]*$/;

type QuoteContext = 'unquoted' | 'double' | 'single' | 'literal';

/**
 * Where each `${NAME}` placeholder stands in a POSIX command line: unquoted, inside double
 * quotes, inside single quotes, or in a quoted here-document (literal). From unbash's parse;
 * placeholders it cannot place (inside backticks, or an unparsable line) are left out.
 */
function placeholderContexts(command: string): Map<number, QuoteContext> {
  const out = new Map<number, QuoteContext>();
  let script;
  try {
    script = parse(command);
  } catch {
    return out;
  }
  const atLiteral = (pos: number, end: number, ctx: QuoteContext) => {
    PLACEHOLDER.lastIndex = 0;
    const text = command.slice(pos, end);
    for (let m = PLACEHOLDER.exec(text); m; m = PLACEHOLDER.exec(text)) out.set(pos + m.index, ctx);
  };
  const visit = (node: SyntaxNode, ctx: QuoteContext): void => {
    switch (node.type) {
      case 'Script':
        if (typeof node.source === 'string') return; // backticks: positions index a decoded copy
        break;
      case 'SingleQuoted':
        atLiteral(node.pos, node.end, 'single');
        return;
      case 'DoubleQuoted':
        forEachChild(node, (c) => visit(c, 'double'));
        return;
      case 'CommandExpansion':
      case 'ProcessSubstitution':
        forEachChild(node, (c) => visit(c, 'unquoted'));
        return;
      case 'HereDoc':
        if (node.delimiter?.quoted) atLiteral(node.body.pos, node.body.end, 'literal');
        else forEachChild(node, (c) => visit(c, 'double'));
        return;
      case 'ParameterExpansion':
        if (
          node.operation === undefined &&
          node.prefix === undefined &&
          node.index === undefined &&
          command.slice(node.pos, node.end) === `\${${node.parameter}}`
        )
          out.set(node.pos, ctx);
        return;
    }
    forEachChild(node, (c) => visit(c, ctx));
  };
  visit(script, 'unquoted');
  return out;
}

/**
 * Placeholders for a shell-form command, substituted so the value stays one word whatever it
 * holds (a project directory may contain a space or a `$`):
 * - unquoted: pasted as is when it is a plain word, else single-quoted (`'/my proj'/x.sh`);
 * - inside double quotes: pasted when safe there, else left as `${NAME}` for the shell to expand
 *   from the exported environment (no splitting, no re-parsing inside double quotes);
 * - inside single quotes: pasted, with any `'` written as `'\''` (as Claude Code pastes, so
 *   single-quoted placeholders work);
 * - where the position cannot be placed (inside backticks): pasted when a plain word, else left
 *   as `${NAME}`.
 * PowerShell: pasted when safe, else `${env:NAME}`.
 */
export function substituteForShell(command: string, vars: PlaceholderVars, shell: 'bash' | 'sh' | 'powershell'): string {
  if (shell === 'powershell') {
    return command.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars) => {
      const value = vars[name];
      if (value === undefined) return match;
      return POWERSHELL_SAFE.test(value) ? value : `\${env:${name}}`;
    });
  }
  if (!command.includes('${CLAUDE_')) return command;
  const contexts = placeholderContexts(command);
  return command.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars, offset: number) => {
    const value = vars[name];
    if (value === undefined) return match;
    switch (contexts.get(offset)) {
      case 'unquoted':
        return WORD_SAFE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
      case 'double':
        return SHELL_SAFE.test(value) ? value : match;
      case 'single':
        return value.replace(/'/g, `'\\''`);
      case 'literal':
        return value;
      default:
        return WORD_SAFE.test(value) ? value : match;
    }
  });
}
