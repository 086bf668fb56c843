/**
 * Loading: read every config source, validate it strictly, normalize hooks with provenance,
 * apply policy (disableAllHooks, allowManagedHooksOnly) and dedupe.
 *
 * Hook order: managed, user, project, local, cli (in the order given), plugins, skills.
 * Scalar settings precedence (highest first): managed > cli (last given first) > local > project > user.
 * A file with any error contributes nothing (whole file rejected); other files still load.
 * loadConfig never throws: every problem becomes a path-qualified Diagnostic.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { catalog, isEventName, type EventName } from '../events/catalog.js';
import type { EventSpec } from '../events/spec.js';
import type { Diagnostic, HookHandler, NormalizedHook, Provenance, SourceKind } from '../types.js';
import type { DialectName } from '../dialects/types.js';
import { ROOT_PATH, closest, formatPath, issuesToDiagnostics, nestingProblem, parseJson, type DocumentKind } from './diagnostics.js';
import { dedupKeyFor, dedupeHooks, isManagedHook, normalizeMatcher } from './registry.js';
import { dropUnknownHookKeys } from './liberal.js';
import { claudeConfigDir } from '../util/claude-dir.js';
import { passableEnvName } from '../backends/env.js';
import {
  SETTINGS_KEYS,
  hooksObjectSchema,
  pluginHooksFileSchema,
  settingsFileSchema,
  type AgentHooksOptions,
  type HooksConfig,
  type SettingsFile,
} from './schema.js';

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
}

/** A settings file or hooks file, by kind: one path can be both discovered and named on a command line. */
export interface GateSource {
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

/** Where Claude Code looks for the managed policy file on each platform. */
export function defaultManagedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

type ReadResult = { status: 'ok'; text: string } | { status: 'missing' } | { status: 'error'; message: string };

async function readText(file: string): Promise<ReadResult> {
  try {
    return { status: 'ok', text: await fs.readFile(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    if (code === 'EISDIR') return { status: 'error', message: 'cannot read file: it is a directory' };
    return { status: 'error', message: `cannot read file: ${code ?? (e as Error).message}` };
  }
}

/** Source context shared by all hooks of one file. */
interface SourceContext {
  kind: SourceKind;
  file: string;
  pluginRoot?: string;
  pluginName?: string;
  pluginId?: string;
  pluginData?: string;
  skillRoot?: string;
  skillName?: string;
  managed?: boolean;
  /** Placeholders replaced (plain string replace) in command and args. */
  substitutions?: Record<string, string>;
}

function substitute(s: string, vars: Record<string, string> | undefined): string {
  if (!vars) return s;
  let out = s;
  for (const [name, value] of Object.entries(vars)) out = out.split(`\${${name}}`).join(value);
  return out;
}

/**
 * Validated hooks object → NormalizedHooks. `rawHooks` supplies the file's event order
 * (zod output follows the schema's order). Also reports questionable-but-valid config as warnings.
 */
function normalizeHooks(
  hooks: HooksConfig,
  rawHooks: Record<string, unknown>,
  ctx: SourceContext,
  diagnostics: Diagnostic[],
): NormalizedHook[] {
  const out: NormalizedHook[] = [];
  const warn = (p: PropertyKey[], message: string) =>
    diagnostics.push({ level: 'warning', file: ctx.file, path: formatPath(p), message });

  for (const event of Object.keys(rawHooks)) {
    if (!isEventName(event)) continue; // unreachable after validation; keeps types honest
    const spec = catalog[event] as EventSpec;
    const groups = hooks[event] ?? [];
    groups.forEach((group, gi) => {
      if (spec.matcher === null && normalizeMatcher(group.matcher) !== '') {
        warn(['hooks', event, gi, 'matcher'], `${event} has no matcher support; the matcher is ignored`);
      }
      group.hooks.forEach((cfg, hi) => {
        const p: PropertyKey[] = ['hooks', event, gi, 'hooks', hi];
        if (spec.hookTypes && !spec.hookTypes.includes(cfg.type)) {
          warn([...p, 'type'], `${event} does not support '${cfg.type}' hooks (supported: ${spec.hookTypes.join(', ')}); this hook is skipped`);
          return;
        }
        if (cfg.if !== undefined && !spec.ifCondition) {
          warn([...p, 'if'], `'if' is only evaluated on tool events; on ${event} a hook with 'if' never runs`);
        }
        if (cfg.once && ctx.kind !== 'skill') {
          warn([...p, 'once'], `'once' is only honoured in skill frontmatter; ignored here`);
        }
        let handler: HookHandler = { ...cfg };
        if (cfg.type === 'command') {
          if (cfg.args && /\s/.test(cfg.command) && !/[\\/]/.test(cfg.command)) {
            warn([...p, 'command'], `with 'args', 'command' is one executable; move the extra words of ${JSON.stringify(cfg.command)} into 'args'`);
          }
          handler = {
            ...cfg,
            command: substitute(cfg.command, ctx.substitutions),
            ...(cfg.args ? { args: cfg.args.map((a) => substitute(a, ctx.substitutions)) } : {}),
          };
        }
        const hookPath = formatPath(p);
        const source: Provenance & { managed?: boolean } = { kind: ctx.kind, file: ctx.file, path: hookPath };
        for (const k of ['pluginRoot', 'pluginName', 'pluginId', 'pluginData', 'skillRoot', 'skillName'] as const) {
          if (ctx[k] !== undefined) source[k] = ctx[k];
        }
        // Not yet a field of Provenance (asked for); read it through isManagedHook.
        if (ctx.managed) source.managed = true;
        const id = `${ctx.kind}:${ctx.file}#${hookPath}`;
        const base = {
          id,
          event: event as EventName,
          ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
          handler,
          source,
        };
        out.push({ ...base, dedupKey: dedupKeyFor(base) });
      });
    });
  }
  return out;
}

function validate<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  file: string,
  doc: DocumentKind,
  diagnostics: Diagnostic[],
  pathPrefix: PropertyKey[] = [],
): T | undefined {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  diagnostics.push(...issuesToDiagnostics(r.error.issues, raw, file, doc, pathPrefix));
  return undefined;
}

function parseDocument(text: string, file: string, diagnostics: Diagnostic[]): { raw?: unknown } {
  if (text.trim() === '') {
    diagnostics.push({ level: 'warning', file, path: ROOT_PATH, message: 'file is empty; treated as {}' });
    return { raw: {} };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    diagnostics.push({ level: 'error', file, path: ROOT_PATH, message: parsed.message });
    return {};
  }
  const deep = nestingProblem(parsed.value);
  if (deep) {
    diagnostics.push({ level: 'error', file, ...deep });
    return {};
  }
  return { raw: parsed.value };
}

/** A settings or plugin hooks document with unknown group and handler keys dropped (warned about). */
function withLiberalHooks(raw: unknown, file: string, diagnostics: Diagnostic[]): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !Object.hasOwn(raw, 'hooks')) return raw;
  const r = raw as Record<string, unknown>;
  const hooks = dropUnknownHookKeys(r.hooks, ['hooks'], file, diagnostics);
  return hooks === r.hooks ? raw : { ...r, hooks };
}

export interface SettingsLayer {
  kind: SourceKind;
  file: string;
  /** Valid settings; undefined when the file was rejected. */
  data?: SettingsFile;
  /** Policy switches salvaged from a rejected managed file (policy must not fail open on a typo). */
  salvaged?: Pick<SettingsFile, 'disableAllHooks' | 'allowManagedHooksOnly'>;
  hooks: NormalizedHook[];
}

export function loadSettingsText(kind: SourceKind, file: string, text: string, diagnostics: Diagnostic[]): SettingsLayer {
  const local: Diagnostic[] = [];
  const { raw } = parseDocument(text, file, local);
  const layer: SettingsLayer = { kind, file, hooks: [] };
  if (raw !== undefined) {
    // Typo'd top-level keys: warn only; other features own the rest of settings.json.
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const key of Object.keys(raw)) {
        if ((SETTINGS_KEYS as readonly string[]).includes(key)) continue;
        const hint = closest(key, SETTINGS_KEYS, 2);
        if (hint) local.push({ level: 'warning', file, path: formatPath([key]), message: `unknown setting ${JSON.stringify(key)} (did you mean ${JSON.stringify(hint)}?)` });
      }
    }
    const liberal = withLiberalHooks(raw, file, local);
    const data = validate(settingsFileSchema(), liberal, file, 'settings', local);
    if (data && !local.some((d) => d.level === 'error')) {
      layer.data = data;
      if (kind !== 'managed' && data.allowManagedHooksOnly !== undefined) {
        local.push({ level: 'warning', file, path: 'allowManagedHooksOnly', message: 'allowManagedHooksOnly is only honoured in managed settings; ignored' });
      }
      if (data.hooks) layer.hooks = normalizeHooks(data.hooks, (liberal as { hooks: Record<string, unknown> }).hooks, { kind, file }, local);
    } else if (kind === 'managed' && raw && typeof raw === 'object') {
      const r = raw as Record<string, unknown>;
      layer.salvaged = {};
      if (typeof r.disableAllHooks === 'boolean') layer.salvaged.disableAllHooks = r.disableAllHooks;
      if (typeof r.allowManagedHooksOnly === 'boolean') layer.salvaged.allowManagedHooksOnly = r.allowManagedHooksOnly;
    }
  }
  diagnostics.push(...local);
  return layer;
}

async function loadPlugin(
  spec: PluginSpec,
  opts: { cwd: string; configDir: string },
  diagnostics: Diagnostic[],
  files: LoadedFile[],
): Promise<NormalizedHook[]> {
  const root = path.resolve(opts.cwd, spec.root);
  try {
    if (!(await fs.stat(root)).isDirectory()) {
      diagnostics.push({ level: 'error', file: root, path: ROOT_PATH, message: 'plugin root is not a directory' });
      return [];
    }
  } catch {
    diagnostics.push({ level: 'error', file: root, path: ROOT_PATH, message: 'plugin directory not found' });
    return [];
  }

  // The manifest supplies the name and, optionally, more hook files (`"hooks": "./x.json"` or a
  // list of them) or inline hooks (`"hooks": {...}`), besides the standard hooks/hooks.json.
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const manifest = await readText(manifestFile);
  let manifestDoc: Record<string, unknown> | undefined;
  if (manifest.status === 'ok') {
    const parsed = parseJson(manifest.text);
    if (parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) manifestDoc = parsed.value as Record<string, unknown>;
    else if (spec.name === undefined) {
      diagnostics.push({ level: 'warning', file: manifestFile, path: ROOT_PATH, message: parsed.ok ? 'plugin manifest is not a JSON object; using the directory name' : parsed.message });
    }
  }
  let name = spec.name;
  if (name === undefined) {
    const n = manifestDoc?.name;
    if (typeof n === 'string' && n.trim() !== '') name = n;
    else if (manifestDoc) diagnostics.push({ level: 'warning', file: manifestFile, path: 'name', message: 'plugin manifest has no string "name"; using the directory name' });
    name ??= path.basename(root);
  }
  const id = spec.id ?? `${name}@local`;
  // The name becomes a directory component: keep it to a safe character set.
  const dataDir = spec.dataDir
    ? path.resolve(opts.cwd, spec.dataDir)
    : path.join(opts.configDir, 'plugins', 'data', name.replace(/[^A-Za-z0-9_-]/g, '-'));
  const ctx: SourceContext = {
    kind: 'plugin',
    file: '',
    pluginRoot: root,
    pluginName: name,
    pluginId: id,
    pluginData: dataDir,
    ...(spec.managed ? { managed: true } : {}),
    substitutions: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir },
  };

  const hookFiles = [path.join(root, 'hooks', 'hooks.json')];
  const inline: unknown[] = [];
  const declared = manifestDoc?.hooks;
  const declare = (v: unknown, at: PropertyKey[]) => {
    if (typeof v === 'string') {
      const f = path.resolve(root, v);
      if (!hookFiles.includes(f)) hookFiles.push(f);
    } else if (v && typeof v === 'object' && !Array.isArray(v)) inline.push(v);
    else diagnostics.push({ level: 'error', file: manifestFile, path: formatPath(at), message: `expected a path to a hooks file or a hooks object, got ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}` });
  };
  if (Array.isArray(declared)) declared.forEach((v, i) => declare(v, ['hooks', i]));
  else if (declared !== undefined) declare(declared, ['hooks']);

  const hooks: NormalizedHook[] = [];
  let ok = true;
  for (const [i, file] of hookFiles.entries()) {
    const read = await readText(file);
    if (read.status === 'missing') {
      // The standard file is optional; one the manifest names must exist.
      if (i > 0) {
        diagnostics.push({ level: 'error', file: manifestFile, path: 'hooks', message: `hooks file not found: ${file}` });
        ok = false;
      }
      continue;
    }
    if (read.status === 'error') {
      diagnostics.push({ level: 'error', file, path: ROOT_PATH, message: read.message });
      files.push({ file, kind: 'plugin', ok: false });
      ok = false;
      continue;
    }
    const local: Diagnostic[] = [];
    const { raw } = parseDocument(read.text, file, local);
    const got = raw === undefined ? undefined : pluginHooksDocument(raw, { ...ctx, file }, local);
    const fileOk = got !== undefined && !local.some((d) => d.level === 'error');
    diagnostics.push(...local);
    files.push({ file, kind: 'plugin', ok: fileOk });
    if (fileOk) hooks.push(...got);
    else ok = false;
  }
  for (const doc of inline) {
    const local: Diagnostic[] = [];
    // Inline hooks: the hooks.json shape, or the bare hooks object.
    const wrapped = Object.hasOwn(doc as object, 'hooks') ? doc : { hooks: doc };
    const got = pluginHooksDocument(wrapped, { ...ctx, file: manifestFile }, local, ['hooks']);
    diagnostics.push(...local);
    if (got !== undefined && !local.some((d) => d.level === 'error')) hooks.push(...got);
    else ok = false;
  }
  // A plugin with any broken hook source contributes nothing (as a settings file with an error).
  return ok ? hooks : [];
}

/** One plugin hooks document (`{ description?, hooks }`): unknown keys warned about and dropped, then validated. */
function pluginHooksDocument(raw: unknown, ctx: SourceContext, local: Diagnostic[], prefix: PropertyKey[] = []): NormalizedHook[] | undefined {
  let doc = raw;
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const r = doc as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => k !== 'hooks' && k !== 'description');
    for (const key of extra) {
      const hint = closest(key, ['hooks', 'description']);
      local.push({ level: 'warning', file: ctx.file, path: formatPath([...prefix.slice(0, -1), key]), message: `unknown key ${JSON.stringify(key)} ignored${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}` });
    }
    const kept: Record<string, unknown> = {};
    if (Object.hasOwn(r, 'description')) kept.description = r.description;
    if (Object.hasOwn(r, 'hooks')) kept.hooks = dropUnknownHookKeys(r.hooks, [...prefix.slice(0, -1), 'hooks'], ctx.file, local);
    doc = kept;
  }
  const data = validate(pluginHooksFileSchema(), doc, ctx.file, 'plugin', local, prefix.slice(0, -1));
  if (!data || local.some((d) => d.level === 'error')) return undefined;
  return normalizeHooks(data.hooks, (doc as { hooks: Record<string, unknown> }).hooks, ctx, local);
}

function loadSkill(spec: SkillSpec, cwd: string, diagnostics: Diagnostic[], files: LoadedFile[]): NormalizedHook[] {
  const root = path.resolve(cwd, spec.root);
  const file = spec.file ? path.resolve(cwd, spec.file) : path.join(root, 'SKILL.md');
  const local: Diagnostic[] = [];
  // Frontmatter holds the hooks object itself; paths are reported as hooks.<Event>… as in settings.
  // YAML aliases can make it cyclic or explosively shared: check the shape before anything walks it.
  const deep = nestingProblem(spec.hooks, ['hooks']);
  if (deep) local.push({ level: 'error', file, ...deep });
  const liberal = deep ? spec.hooks : dropUnknownHookKeys(spec.hooks, ['hooks'], file, local);
  const data = deep ? undefined : validate(hooksObjectSchema(), liberal, file, 'hooks', local, ['hooks']);
  let hooks: NormalizedHook[] = [];
  if (data && !local.some((d) => d.level === 'error')) {
    const name = spec.name ?? path.basename(root);
    hooks = normalizeHooks(data, liberal as Record<string, unknown>, {
      kind: 'skill',
      file,
      skillRoot: root,
      skillName: name,
      // Skills reuse CLAUDE_PLUGIN_ROOT for their own root (there is no CLAUDE_SKILL_ROOT).
      substitutions: { CLAUDE_PLUGIN_ROOT: root },
    }, local);
    if (spec.agent) hooks = hooks.map((h) => agentHook(h, local));
  }
  const ok = !local.some((d) => d.level === 'error');
  diagnostics.push(...local);
  files.push({ file, kind: 'skill', ok });
  return ok ? hooks : [];
}

/** A subagent's hook: Stop → SubagentStop (its ignored matcher stays ignored), `once` dropped with a warning. */
function agentHook(hook: NormalizedHook, diagnostics: Diagnostic[]): NormalizedHook {
  let out = hook;
  if (hook.handler.once !== undefined) {
    diagnostics.push({ level: 'warning', file: hook.source.file, path: `${hook.source.path}.once`, message: `'once' is only honoured in skill frontmatter; ignored in agent frontmatter` });
    const { once: _once, ...handler } = hook.handler;
    out = { ...out, handler: handler as HookHandler };
  }
  if (hook.event === 'Stop') {
    const { matcher: _matcher, ...rest } = out;
    out = { ...rest, event: 'SubagentStop' };
  }
  return out === hook ? hook : { ...out, dedupKey: dedupKeyFor(out) };
}

function union(lists: Array<string[] | undefined>): string[] | undefined {
  if (lists.every((l) => l === undefined)) return undefined;
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

function managedOnlyIn(layers: readonly SettingsLayer[]): boolean {
  const m = layers.find((l) => l.kind === 'managed');
  return (m?.data ?? m?.salvaged)?.allowManagedHooksOnly === true;
}

/**
 * `agentHooks.passEnv`: the union of the user's, the admin's and --settings lists (only the
 * managed list under allowManagedHooksOnly). A workspace file cannot name variables: it would
 * hand the agent's secrets to its own hooks. Names that run code before a hook are refused.
 */
function passEnvOf(layers: readonly SettingsLayer[], managedOnly: boolean, diagnostics: Diagnostic[]): string[] | undefined {
  let names: string[] | undefined;
  for (const l of layers) {
    const list = l.data?.agentHooks?.passEnv;
    if (list === undefined) continue;
    if (!DISCOVER_SETTING_KINDS.includes(l.kind) || (managedOnly && l.kind !== 'managed')) {
      const why = managedOnly && DISCOVER_SETTING_KINDS.includes(l.kind) ? 'allowManagedHooksOnly is in force' : `it is ${l.kind} settings`;
      diagnostics.push({ level: 'warning', file: l.file, path: 'agentHooks.passEnv', message: `only honoured in user, managed and --settings files; ignored here (${why})` });
      continue;
    }
    list.forEach((name, i) => {
      if (passableEnvName(name)) (names ??= []).includes(name) || names.push(name);
      else diagnostics.push({ level: 'warning', file: l.file, path: `agentHooks.passEnv[${i}]`, message: `${JSON.stringify(name)} is never passed to hooks (it makes a shell or the loader run code first); ignored` });
    });
    names ??= [];
  }
  return names;
}

/** Kinds whose `agentHooks.discoverDialects` is honoured: the user's and admin's own, not the workspace's. */
const DISCOVER_SETTING_KINDS: readonly SourceKind[] = ['managed', 'cli', 'user'];

/**
 * Which dialects to discover: the option, else the setting (managed > --settings, last first >
 * user). A workspace file cannot widen discovery (it is not trusted yet when discovery runs).
 */
function discoverDialectsOf(opts: LoadConfigOptions, layers: readonly SettingsLayer[], diagnostics: Diagnostic[]): readonly DialectName[] | 'all' | undefined {
  for (const l of layers) {
    if (l.data?.agentHooks?.discoverDialects !== undefined && !DISCOVER_SETTING_KINDS.includes(l.kind)) {
      diagnostics.push({ level: 'warning', file: l.file, path: 'agentHooks.discoverDialects', message: `only honoured in user, managed and --settings files; ignored in ${l.kind} settings` });
    }
  }
  if (opts.discoverDialects !== undefined) return opts.discoverDialects;
  const rank = (k: SourceKind) => DISCOVER_SETTING_KINDS.indexOf(k);
  const ordered = layers
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => rank(l.kind) >= 0 && l.data?.agentHooks?.discoverDialects !== undefined)
    .sort((a, b) => rank(a.l.kind) - rank(b.l.kind) || b.i - a.i);
  return ordered[0]?.l.data?.agentHooks?.discoverDialects;
}

/**
 * Read the standard hook files of the other dialects chosen (src/dialects/discovery.ts), each
 * forced to its location's dialect. Their layers go after Claude's discovered files and before
 * the --settings files, so hook order stays: managed, user, project, local, other agents, cli, ….
 */
async function loadDiscoveredDialects(
  opts: LoadConfigOptions,
  ctx: { projectDir: string; homeDir: string },
  layers: SettingsLayer[],
  files: LoadedFile[],
  diagnostics: Diagnostic[],
): Promise<void> {
  const { discoveryFilesOf, foreignDialects } = await import('../dialects/discovery.js');
  const dialects = foreignDialects(discoverDialectsOf(opts, layers, diagnostics));
  if (dialects.length === 0) return;
  const { loadForeignSettings } = await import('./readers/load.js');
  const found: SettingsLayer[] = [];
  for (const d of discoveryFilesOf(dialects, ctx)) {
    const read = await readText(d.file);
    if (read.status === 'missing') continue;
    if (read.status === 'error') {
      diagnostics.push({ level: 'error', file: d.file, path: ROOT_PATH, message: read.message });
      files.push({ file: d.file, kind: d.kind, ok: false });
      continue;
    }
    const foreign = await loadForeignSettings(d.file, read.text, d.kind, d.dialect);
    if (!foreign) continue; // unreachable: a forced non-Claude dialect always answers
    diagnostics.push(...foreign.diagnostics);
    found.push({ kind: d.kind, file: d.file, hooks: foreign.hooks, ...(foreign.ok ? { data: {} } : {}) });
    files.push({ file: d.file, kind: d.kind, ok: foreign.ok });
  }
  const firstCli = layers.findIndex((l) => l.kind === 'cli');
  layers.splice(firstCli < 0 ? layers.length : firstCli, 0, ...found);
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
    else v.forEach((x, i) => each(x, `options.${key}[${i}]`));
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
  if (o.discoverDialects !== undefined && o.discoverDialects !== 'all' && !(Array.isArray(o.discoverDialects) && o.discoverDialects.every((x) => typeof x === 'string'))) {
    errors.push(`options.discoverDialects: expected 'all' or a list of dialect names, got ${kindOf(o.discoverDialects)}`);
  }
  return errors;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  const diagnostics: Diagnostic[] = [];
  const bad = optionErrors(opts);
  if (bad.length) {
    for (const message of bad) diagnostics.push({ level: 'error', path: message.slice(0, message.indexOf(':')), message: message.slice(message.indexOf(':') + 2) });
    return { hooks: [], diagnostics, options: {}, disabled: { all: false, nonManaged: false }, managedOnly: false, files: [] };
  }
  try {
    return await loadConfigUnsafe(opts, diagnostics);
  } catch (e) {
    // Defensive: a bug here must surface as a diagnostic, never crash the host.
    diagnostics.push({ level: 'error', path: ROOT_PATH, message: `internal error while loading config: ${(e as Error)?.message ?? String(e)}` });
    return { hooks: [], diagnostics, options: {}, disabled: { all: false, nonManaged: false }, managedOnly: false, files: [] };
  }
}

async function loadConfigUnsafe(opts: LoadConfigOptions, diagnostics: Diagnostic[]): Promise<LoadedConfig> {
  const cwd = path.resolve(opts.cwd);
  const projectDir = path.resolve(cwd, opts.projectDir ?? '.');
  const homeDir = path.resolve(opts.homeDir ?? os.homedir());
  const configDir = claudeConfigDir({ homeDir: opts.homeDir, configDir: opts.claudeConfigDir, defaultHome: homeDir });
  const discover = opts.discover ?? true;
  const files: LoadedFile[] = [];

  const candidates: Array<{ kind: SourceKind; file: string; required: boolean; inline?: string }> = [];
  const managedPath = opts.managedSettingsPath ?? (discover ? defaultManagedSettingsPath() : undefined);
  if (managedPath) candidates.push({ kind: 'managed', file: path.resolve(cwd, managedPath), required: false });
  if (discover) {
    const user = path.join(configDir, 'settings.json');
    const project = path.join(projectDir, '.claude', 'settings.json');
    candidates.push({ kind: 'user', file: user, required: false });
    // Running in the home directory: the project file is the user file; read it once.
    if (project !== user) candidates.push({ kind: 'project', file: project, required: false });
    candidates.push({ kind: 'local', file: path.join(projectDir, '.claude', 'settings.local.json'), required: false });
  }
  (opts.settingsFiles ?? []).forEach((s, i) => {
    // Like `claude --settings '{...}'`: a value that looks like a JSON object is inline settings.
    if (s.trimStart().startsWith('{')) candidates.push({ kind: 'cli', file: `<--settings #${i + 1}>`, required: true, inline: s });
    else candidates.push({ kind: 'cli', file: path.resolve(cwd, s), required: true });
  });

  const layers: SettingsLayer[] = [];
  for (const c of candidates) {
    const read: ReadResult = c.inline !== undefined ? { status: 'ok', text: c.inline } : await readText(c.file);
    if (read.status === 'missing') {
      if (c.required) {
        diagnostics.push({ level: 'error', file: c.file, path: ROOT_PATH, message: 'settings file not found' });
        files.push({ file: c.file, kind: c.kind, ok: false });
      }
      continue;
    }
    if (read.status === 'error') {
      diagnostics.push({ level: 'error', file: c.file, path: ROOT_PATH, message: read.message });
      files.push({ file: c.file, kind: c.kind, ok: false });
      continue;
    }
    if (c.kind === 'cli') {
      // A file named on the command line may be any agent's dialect (src/dialects); Claude's stays native.
      const { loadForeignSettings } = await import('./readers/load.js');
      const foreign = await loadForeignSettings(c.file, read.text, c.kind, opts.dialect);
      if (foreign) {
        diagnostics.push(...foreign.diagnostics);
        layers.push({ kind: c.kind, file: c.file, hooks: foreign.hooks, ...(foreign.ok ? { data: {} } : {}) });
        files.push({ file: c.file, kind: c.kind, ok: foreign.ok });
        continue;
      }
    }
    const layer = loadSettingsText(c.kind, c.file, read.text, diagnostics);
    layers.push(layer);
    files.push({ file: c.file, kind: c.kind, ok: layer.data !== undefined });
  }

  if (discover) await loadDiscoveredDialects(opts, { projectDir, homeDir }, layers, files, diagnostics);

  const pluginHooks: NormalizedHook[] = [];
  for (const p of opts.plugins ?? []) {
    pluginHooks.push(...(await loadPlugin(typeof p === 'string' ? { root: p } : p, { cwd, configDir }, diagnostics, files)));
  }
  const skillHooks = (opts.skills ?? []).flatMap((s) => loadSkill(s, cwd, diagnostics, files));

  let gate = opts.gate;
  if (!gate && discover && !opts.unsafeSkipTrustGate) {
    // The trust gate (and its store) loads only when discovered workspace layers may need it.
    const { trustGate } = await import('../trust/gate.js');
    const t = trustGate({ ...opts.trust, workspaceDir: projectDir, homeDir });
    gate = async (input) => {
      const excluded = await t.gate(input);
      for (const s of t.report()?.skipped ?? []) diagnostics.push({ level: 'warning', file: s.hook.source.file, path: s.hook.source.path, message: s.message });
      return excluded;
    };
  }
  if (gate) {
    const settings = layers.flatMap((l) => (l.data ? [{ kind: l.kind, file: l.file, data: l.data }] : []));
    const key = (kind: SourceKind, file: string | undefined) => `${kind}\0${file ?? ''}`;
    const excluded = new Set<string>();
    for (const s of await gate({ hooks: [...layers.flatMap((l) => l.hooks), ...pluginHooks, ...skillHooks], settings })) excluded.add(key(s.kind, s.file));
    const drop = <T>(list: T[], keyOf: (x: T) => string) => {
      for (let i = list.length - 1; i >= 0; i--) if (excluded.has(keyOf(list[i]!))) list.splice(i, 1);
    };
    drop(layers, (l) => key(l.kind, l.file));
    drop(pluginHooks, (h) => key(h.source.kind, h.source.file));
    drop(skillHooks, (h) => key(h.source.kind, h.source.file));
  }

  // Scalars: managed first, then cli (last given wins), local, project, user.
  const rank: Partial<Record<SourceKind, number>> = { managed: 0, cli: 1, local: 2, project: 3, user: 4 };
  const byPrecedence = layers
    .map((l, i) => ({ l, i }))
    .sort((a, b) => rank[a.l.kind]! - rank[b.l.kind]! || b.i - a.i)
    .map(({ l }) => l);
  const pickDisable = (): { value: boolean; layer: SettingsLayer } | undefined => {
    for (const l of byPrecedence) {
      const v = l.data?.disableAllHooks ?? l.salvaged?.disableAllHooks;
      if (v !== undefined) return { value: v, layer: l };
    }
    return undefined;
  };

  const options: AgentHooksOptions = {};
  for (const l of [...byPrecedence].reverse()) Object.assign(options, l.data?.agentHooks);
  // Settings `env`, merged the same way (the telemetry switches are read from it: src/telemetry).
  const env: Record<string, string> = {};
  for (const l of [...byPrecedence].reverse()) if (l.data?.env && typeof l.data.env === 'object') Object.assign(env, l.data.env);
  const passEnv = passEnvOf(layers, managedOnlyIn(layers), diagnostics);
  if (passEnv) options.passEnv = passEnv;
  else delete options.passEnv;

  let hooks = [...layers.flatMap((l) => l.hooks), ...pluginHooks, ...skillHooks];

  const managed = layers.find((l) => l.kind === 'managed');
  const managedSettings = managed?.data ?? managed?.salvaged;
  const disabled: LoadedConfig['disabled'] = { all: false, nonManaged: false };
  const disable = pickDisable();
  if (managedSettings?.disableAllHooks === true) {
    hooks = [];
    disabled.all = true;
    disabled.nonManaged = true;
    disabled.reason = `disableAllHooks is true in managed settings (${managed!.file})`;
  } else if (disable?.value === true) {
    hooks = hooks.filter(isManagedHook);
    disabled.nonManaged = true;
    disabled.reason = `disableAllHooks is true in ${disable.layer.kind} settings (${disable.layer.file}); managed hooks still run`;
  }

  const managedOnly = managedSettings?.allowManagedHooksOnly === true;
  if (managedOnly) hooks = hooks.filter(isManagedHook);

  // Policy filters run before dedup, so a dropped non-managed copy cannot displace a kept one.
  hooks = dedupeHooks(hooks);

  // Under allowManagedHooksOnly, only the policy's own allowlists count.
  const listLayers = managedOnly ? layers.filter((l) => l.kind === 'managed') : layers;
  const allowedHttpHookUrls = union(listLayers.map((l) => l.data?.allowedHttpHookUrls));
  const httpHookAllowedEnvVars = union(listLayers.map((l) => l.data?.httpHookAllowedEnvVars));

  return {
    hooks,
    diagnostics,
    options,
    ...(Object.keys(env).length > 0 ? { env } : {}),
    disabled,
    managedOnly,
    ...(allowedHttpHookUrls ? { allowedHttpHookUrls } : {}),
    ...(httpHookAllowedEnvVars ? { httpHookAllowedEnvVars } : {}),
    files,
  };
}
