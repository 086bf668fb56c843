/** What loadConfig takes and returns, and the check of its options before anything reads them. */
import type { Diagnostic, NormalizedHook, SourceKind } from '../types.js';
import type { DialectName } from '../agents/types.js';
import type { AgentHooksOptions, SettingsFile } from './schema.js';
import { checkKnownKeys, type KnownKeys } from '../util/option-keys.js';

export interface PluginSpec {
  /** Plugin directory (holds hooks/hooks.json); relative to cwd. */
  root: string;
  /** Default: `.claude-plugin/plugin.json` name, else the directory's basename. */
  name?: string;
  /** Default: `${name}@local`. */
  id?: string;
  /** CLAUDE_PLUGIN_DATA. Default: `<home>/.claude/plugins/data/<name>`. */
  dataDir?: string;
  /** Force-enabled by managed policy: exempt from allowManagedHooksOnly and non-managed disableAllHooks. */
  managed?: boolean;
}

/** Hooks from a skill's frontmatter, already parsed from YAML by the caller. */
export interface SkillSpec {
  /** Skill directory; substituted for ${CLAUDE_PLUGIN_ROOT} and used as the dedup prefix. */
  root: string;
  /** Default: the directory's basename. */
  name?: string;
  /** File the frontmatter came from (for provenance). Default: `<root>/SKILL.md`. */
  file?: string;
  /** The frontmatter `hooks` value: `{ Event: [{ matcher?, hooks: [...] }] }`. */
  hooks: unknown;
  /** Subagent frontmatter: its `Stop` hooks become `SubagentStop` (what fires when a subagent ends); `once` is ignored. */
  agent?: boolean;
}

export interface LoadConfigOptions {
  cwd: string;
  /** Default: cwd. */
  projectDir?: string;
  /** Default: os.homedir(). */
  homeDir?: string;
  /**
   * Claude Code's config directory (user settings.json, plugin data). Default: `$CLAUDE_CONFIG_DIR`
   * when homeDir is not given, else `<homeDir>/.claude`.
   */
  claudeConfigDir?: string;
  /** Read user, project, local and platform managed settings. Default true. */
  discover?: boolean;
  /** --settings: file paths (relative to cwd) or inline JSON objects; last given has highest precedence. */
  settingsFiles?: string[];
  plugins?: Array<string | PluginSpec>;
  /** Managed policy file; read even when discover is false. Default (when discovering): the platform path. */
  managedSettingsPath?: string;
  skills?: SkillSpec[];
  /** Force the dialect of `settingsFiles` (claude, codex, gemini, qwen, kimi, cursor, copilot); default: detected per file. */
  dialect?: string;
  /**
   * When discovering: the agents whose standard hook files are read besides Claude's (which are
   * always read). Default: the `agentHooks.discoverDialects` setting of managed, --settings or
   * user settings, else `['claude']` (Claude's only). Project and local files of every dialect
   * are workspace files: the trust gate sees them. Env for KIMI_CODE_HOME/CODEX_HOME: process.env.
   */
  discoverDialects?: readonly DialectName[] | 'all';
  /**
   * Trust gate (src/trust): sees every hook and accepted settings file before policy and dedup,
   * and returns the sources (kind + file) that contribute nothing — neither hooks nor settings.
   * Gating before dedup keeps an untrusted copy of a hook from displacing the trusted original.
   */
  gate?: (input: ConfigGateInput) => Promise<Iterable<GateSource>> | Iterable<GateSource>;
  /**
   * Safe by default: when discovering and no `gate` is given, the trust gate (src/trust) gates
   * the discovered project and local layers — untrusted or modified workspace hooks are left out
   * with a warning in `diagnostics`. Options for that default gate: the trust store path, the
   * host's own workspace-trust decision.
   */
  trust?: { storePath?: string; workspaceTrusted?: boolean };
  /**
   * Load discovered project and local hooks without the trust gate: a hostile repository's hooks
   * then run. Only for tools that inspect config without running it (`agent-hooks check`).
   */
  unsafeSkipTrustGate?: boolean;
  /**
   * Read the settings files (Claude's and the other agents' discovered ones, --settings) with
   * synchronous calls. For a process with nothing else to run while it loads, as the CLI's
   * dispatch and `run`: an asynchronous read goes through libuv's thread pool, whose four threads
   * start at the first one, and costs a round trip per system call (docs/performance.md item 14).
   * A host keeps the default, so that reading never blocks its event loop. Plugin files are read
   * asynchronously either way.
   */
  readFilesSync?: boolean;
}

/** A settings file or hooks file, by kind: one path can be both discovered and named on a command line. */
interface GateSource {
  kind: SourceKind;
  file: string;
}

export interface ConfigGateInput {
  /** Every hook read, in config order, before policy and dedup. */
  hooks: readonly NormalizedHook[];
  /** Every accepted settings file with its validated content. */
  settings: ReadonlyArray<{ kind: SourceKind; file: string; data: SettingsFile }>;
}

export interface LoadedFile {
  file: string;
  kind: SourceKind;
  ok: boolean;
}

export interface LoadedConfig {
  /** Hooks that may run, after policy and dedup, in config order. */
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
  /** Merged `agentHooks` engine options (per key, highest precedence wins). */
  options: AgentHooksOptions;
  /** Merged settings `env` (per key, highest precedence wins). */
  env?: Record<string, string>;
  disabled: {
    /** Managed disableAllHooks: nothing runs. */
    all: boolean;
    /** Non-managed hooks were removed (true as well when `all`). */
    nonManaged: boolean;
    reason?: string;
  };
  /** allowManagedHooksOnly is in force (managed settings). */
  managedOnly: boolean;
  /** Union over layers; undefined when no layer defines it. */
  allowedHttpHookUrls?: string[];
  httpHookAllowedEnvVars?: string[];
  /** Every file read (or explicitly requested), with whether it was accepted. */
  files: LoadedFile[];
}

/** The keys loadConfig accepts (and of the objects inside its options); any other is refused. */
export const LOAD_CONFIG_OPTION_KEYS = {
  cwd: true,
  projectDir: true,
  homeDir: true,
  claudeConfigDir: true,
  discover: true,
  settingsFiles: true,
  plugins: true,
  managedSettingsPath: true,
  skills: true,
  dialect: true,
  discoverDialects: true,
  gate: true,
  trust: true,
  unsafeSkipTrustGate: true,
  readFilesSync: true,
} as const satisfies KnownKeys<LoadConfigOptions>;
const PLUGIN_SPEC_KEYS = { root: true, name: true, id: true, dataDir: true, managed: true } as const satisfies KnownKeys<PluginSpec>;
const SKILL_SPEC_KEYS = { root: true, name: true, file: true, hooks: true, agent: true } as const satisfies KnownKeys<SkillSpec>;
const TRUST_KEYS = { storePath: true, workspaceTrusted: true } as const satisfies KnownKeys<NonNullable<LoadConfigOptions['trust']>>;

/**
 * An unknown key of loadConfig's options is the caller's typo (`settingFiles`), not a problem of
 * the files it reads: a TypeError naming it, where a diagnostic could go unread and leave no hooks.
 */
export function checkOptionKeys(opts: unknown): void {
  checkKnownKeys('loadConfig', opts, LOAD_CONFIG_OPTION_KEYS);
  if (typeof opts !== 'object' || opts === null) return;
  const { trust, plugins, skills } = opts as Record<string, unknown>;
  checkKnownKeys('loadConfig', trust, TRUST_KEYS, 'trust.');
  const each = (list: unknown, name: string, known: Readonly<Record<string, true>>) => {
    if (Array.isArray(list)) for (const [i, v] of list.entries()) checkKnownKeys('loadConfig', v, known, `${name}[${i}].`);
  };
  each(plugins, 'plugins', PLUGIN_SPEC_KEYS);
  each(skills, 'skills', SKILL_SPEC_KEYS);
}

function kindOf(v: unknown): string {
  return v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v;
}

/**
 * The shape of loadConfig's options, checked before anything reads them: an untyped caller's
 * mistake (`skills: [{ path }]`) is a path-qualified error, never an internal one.
 */
export function optionErrors(opts: unknown): string[] {
  const errors: string[] = [];
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) return [`options: expected an object, got ${kindOf(opts)}`];
  const o = opts as Record<string, unknown>;
  const want = (path: string, v: unknown, type: 'string' | 'boolean', required = false) => {
    if (v === undefined && !required) return;
    if (typeof v !== type) errors.push(`${path}: expected a ${type}, got ${kindOf(v)}`);
  };
  const list = (key: string, each: (v: unknown, path: string) => void) => {
    const v = o[key];
    if (v === undefined) return;
    if (!Array.isArray(v)) errors.push(`options.${key}: expected an array, got ${kindOf(v)}`);
    else
      v.forEach((x, i) => {
        each(x, `options.${key}[${i}]`);
      });
  };
  want('options.cwd', o.cwd, 'string', true);
  for (const k of ['projectDir', 'homeDir', 'managedSettingsPath', 'dialect'] as const) want(`options.${k}`, o[k], 'string');
  want('options.discover', o.discover, 'boolean');
  list('settingsFiles', (v, path) => want(path, v, 'string'));
  list('plugins', (v, path) => {
    if (typeof v === 'string') return;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) errors.push(`${path}: expected a directory or { root }, got ${kindOf(v)}`);
    else want(`${path}.root`, (v as Record<string, unknown>).root, 'string', true);
  });
  list('skills', (v, path) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) errors.push(`${path}: expected { root, hooks }, got ${kindOf(v)}`);
    else want(`${path}.root`, (v as Record<string, unknown>).root, 'string', true);
  });
  if (
    o.discoverDialects !== undefined &&
    o.discoverDialects !== 'all' &&
    !(Array.isArray(o.discoverDialects) && o.discoverDialects.every((x) => typeof x === 'string'))
  ) {
    errors.push(`options.discoverDialects: expected 'all' or a list of dialect names, got ${kindOf(o.discoverDialects)}`);
  }
  return errors;
}
