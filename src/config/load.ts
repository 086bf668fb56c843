/**
 * Loading: read every config source, validate it strictly, normalize hooks with provenance,
 * apply policy (disableAllHooks, allowManagedHooksOnly) and dedupe.
 *
 * Hook order: managed, user, project, local, cli (in the order given), plugins, skills.
 * Scalar settings precedence (highest first): managed > cli (last given first) > local > project > user.
 * A file with any error contributes nothing (whole file rejected); other files still load.
 * loadConfig never throws for what it reads: every problem becomes a path-qualified Diagnostic.
 * An unknown key of its own options is the caller's mistake: it rejects with a TypeError.
 */
import { isDispatchCommand } from '../util/dispatch-line.js';
import { userHome } from '../util/os-dirs.js';
import path from 'node:path';
import type { Diagnostic, NormalizedHook, SourceKind } from '../types.js';
import type { TrustReport } from '../trust/types.js';
import { ROOT_PATH } from './diagnostics.js';
import { lintMistakes, type DialectLintFacts } from '../lint/mistakes.js';
import { dedupeHooks, isManagedHook } from './registry.js';
import { claudeConfigDir } from '../util/claude-dir.js';
import { passableEnvName } from '../util/env-names.js';
import type { AgentHooksOptions } from './schema.js';
import { DISCOVER_SETTING_KINDS, loadDiscoveredDialects } from './discovered.js';
import { sandboxOf } from './confinement.js';
// Not loaded on first use: every gated load (each dispatch) uses it, and a chunk is a file more to open.
import { projectFrontmatterSpecs } from './frontmatter-read.js';
import { checkOptionKeys, optionErrors, type LoadConfigOptions, type LoadedConfig, type LoadedFile } from './options.js';
import { loadSettingsText, readText, type ReadResult, type SettingsLayer } from './settings.js';

export type { ConfigGateInput, LoadConfigOptions, LoadedConfig, PluginSpec } from './options.js';

/** Where Claude Code looks for the managed policy file on each platform. */
export function defaultManagedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
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
 * `agentHooks.builtinHooks`: the highest-precedence user, managed or --settings value. The engine's
 * own hooks are the user's choice, not a repository's (a project adds the code-review preset, a
 * trust-gated hook, instead); where only managed hooks run, only managed settings count.
 */
function builtinHooksOf(
  byPrecedence: readonly SettingsLayer[],
  managedOnly: boolean,
  diagnostics: Diagnostic[],
): AgentHooksOptions['builtinHooks'] {
  let chosen: AgentHooksOptions['builtinHooks'];
  for (const l of byPrecedence) {
    const value = l.data?.agentHooks?.builtinHooks;
    if (value === undefined) continue;
    const honoured = managedOnly ? l.kind === 'managed' : DISCOVER_SETTING_KINDS.includes(l.kind);
    if (!honoured) {
      const why = managedOnly && l.kind !== 'managed' ? 'only managed hooks run' : `it is ${l.kind} settings`;
      diagnostics.push({
        level: 'warning',
        file: l.file,
        path: 'agentHooks.builtinHooks',
        message: `only honoured in user, managed and --settings files; ignored here (${why})`,
      });
    } else chosen ??= value;
  }
  return chosen;
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
      diagnostics.push({
        level: 'warning',
        file: l.file,
        path: 'agentHooks.passEnv',
        message: `only honoured in user, managed and --settings files; ignored here (${why})`,
      });
      continue;
    }
    list.forEach((name, i) => {
      if (passableEnvName(name)) {
        names ??= [];
        if (!names.includes(name)) names.push(name);
      } else
        diagnostics.push({
          level: 'warning',
          file: l.file,
          path: `agentHooks.passEnv[${i}]`,
          message: `${JSON.stringify(name)} is never passed to hooks (it makes a shell or the loader run code first); ignored`,
        });
    });
    names ??= [];
  }
  return names;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  checkOptionKeys(opts);
  const diagnostics: Diagnostic[] = [];
  const bad = optionErrors(opts);
  if (bad.length) {
    for (const message of bad)
      diagnostics.push({ level: 'error', path: message.slice(0, message.indexOf(':')), message: message.slice(message.indexOf(':') + 2) });
    return { hooks: [], diagnostics, options: {}, disabled: { all: false, nonManaged: false }, managedOnly: false, files: [] };
  }
  try {
    return await loadConfigUnsafe(opts, diagnostics);
  } catch (e) {
    // Defensive: a bug here must surface as a diagnostic, never crash the host.
    diagnostics.push({
      level: 'error',
      path: ROOT_PATH,
      message: `internal error while loading config: ${(e as Error)?.message ?? String(e)}`,
    });
    return { hooks: [], diagnostics, options: {}, disabled: { all: false, nonManaged: false }, managedOnly: false, files: [] };
  }
}

type Candidate = { kind: SourceKind; file: string; required: boolean; inline?: string };

/** The Claude-shaped files to read, in hook order: managed, user, project, local, then --settings. */
function candidatesOf(opts: LoadConfigOptions, cwd: string, projectDir: string, configDir: string, discover: boolean): Candidate[] {
  const candidates: Candidate[] = [];
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
  return candidates;
}

/** Read and parse each candidate; a missing optional file is skipped, an unreadable one reported. */
async function readLayers(
  candidates: readonly Candidate[],
  opts: LoadConfigOptions,
  files: LoadedFile[],
  diagnostics: Diagnostic[],
): Promise<SettingsLayer[]> {
  const layers: SettingsLayer[] = [];
  for (const c of candidates) {
    const read: ReadResult = c.inline !== undefined ? { status: 'ok', text: c.inline } : await readText(c.file, opts.readFilesSync);
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
      // A file named on the command line may be any agent's dialect (src/agents/); Claude's stays native.
      const { loadForeignSettings } = await import('../agents/shared/foreign-settings.js');
      const foreign = await loadForeignSettings(c.file, read.text, c.kind, opts.dialect);
      if (foreign) {
        diagnostics.push(...foreign.diagnostics);
        layers.push({ kind: c.kind, file: c.file, hooks: foreign.hooks, ...(foreign.ok ? { data: {} } : {}) });
        files.push({ file: c.file, kind: c.kind, ok: foreign.ok });
        continue;
      }
    }
    // The compiled settings validator accepts first; zod is loaded only for a file it does not accept.
    let layer = loadSettingsText(c.kind, c.file, read.text, diagnostics);
    if (layer.unjudged) {
      await import('./schema.js'); // fills the slot with the settings schemas (src/util/zod-slot.ts)
      layer = loadSettingsText(c.kind, c.file, read.text, diagnostics);
    }
    layers.push(layer);
    files.push({ file: c.file, kind: c.kind, ok: layer.data !== undefined });
  }
  return layers;
}

/**
 * The trust gate (the option's, else the default one for discovered workspace files): sources it
 * excludes are dropped from the layers and hook lists in place.
 */
async function applyGate(
  opts: LoadConfigOptions,
  ctx: { projectDir: string; homeDir: string; discover: boolean },
  layers: SettingsLayer[],
  pluginHooks: NormalizedHook[],
  skillHooks: NormalizedHook[],
  diagnostics: Diagnostic[],
): Promise<TrustReport | undefined> {
  const { projectDir, homeDir, discover } = ctx;
  let gate = opts.gate;
  let report: (() => TrustReport | undefined) | undefined;
  if (!gate && discover && !opts.unsafeSkipTrustGate) {
    // The trust gate (and its store) loads only when discovered workspace layers may need it.
    const { trustGate } = await import('../trust/gate.js');
    const t = trustGate({ ...opts.trust, workspaceDir: projectDir, homeDir });
    report = t.report;
    gate = async (input) => {
      const excluded = await t.gate(input);
      for (const s of t.report()?.skipped ?? [])
        diagnostics.push({ level: 'warning', file: s.hook.source.file, path: s.hook.source.path, message: s.message });
      return excluded;
    };
  }
  if (gate) {
    const settings = layers.flatMap((l) => (l.data ? [{ kind: l.kind, file: l.file, data: l.data }] : []));
    const key = (kind: SourceKind, file: string | undefined) => `${kind}\0${file ?? ''}`;
    const excluded = new Set<string>();
    // The project's skill/agent frontmatter hooks are reviewed with the workspace, though they are
    // registered only when invoked (src/session): the gate sees them, the config does not get them.
    const frontmatter = discover ? await reviewedFrontmatter(projectDir, skillHooks) : [];
    for (const s of await gate({ hooks: [...layers.flatMap((l) => l.hooks), ...pluginHooks, ...skillHooks, ...frontmatter], settings }))
      excluded.add(key(s.kind, s.file));
    const drop = <T>(list: T[], keyOf: (x: T) => string) => {
      for (let i = list.length - 1; i >= 0; i--) if (excluded.has(keyOf(list[i]!))) list.splice(i, 1);
    };
    drop(layers, (l) => key(l.kind, l.file));
    drop(pluginHooks, (h) => key(h.source.kind, h.source.file));
    drop(skillHooks, (h) => key(h.source.kind, h.source.file));
  }
  return report?.();
}

/** The project's skill/agent frontmatter hooks (frontmatter-read.ts), normalized as skills are, marked `frontmatter`. */
async function reviewedFrontmatter(projectDir: string, skillHooks: readonly NormalizedHook[]): Promise<NormalizedHook[]> {
  const specs = await projectFrontmatterSpecs(projectDir, new Set(skillHooks.flatMap((h) => (h.source.file ? [h.source.file] : []))));
  if (specs.length === 0) return [];
  const { loadSkill } = await import('./extensions.js');
  // Problems in these files are reported when the skill or agent is invoked (frontmatter.ts).
  return specs.flatMap(({ spec, kind }) =>
    loadSkill(spec, projectDir, [], []).map((h) => ({ ...h, source: { ...h.source, frontmatter: kind } })),
  );
}

/** Merge the (gated) layers: scalar settings by precedence, env, policy filters, dedup, allowlists. */
function mergeLayers(
  layers: SettingsLayer[],
  pluginHooks: NormalizedHook[],
  skillHooks: NormalizedHook[],
  files: LoadedFile[],
  diagnostics: Diagnostic[],
): LoadedConfig {
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
  // A sandbox is only ever added; only the user's own files keep the default view off.
  const sandbox = sandboxOf(layers, diagnostics);
  if (sandbox !== undefined) options.sandbox = sandbox;
  else delete options.sandbox;

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
  const builtinHooks = builtinHooksOf(byPrecedence, disabled.nonManaged || managedOnly, diagnostics);
  if (builtinHooks) options.builtinHooks = builtinHooks;
  else delete options.builtinHooks;

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

/**
 * A hook that calls `agent-hooks dispatch` (what `install` writes in an agent's file) is the
 * agent's door to this engine, not a hook of it: run here it would run every hook again, and
 * the trust gate would ask to review it. A file holding one is the agent's own config, whose
 * other hooks the agent runs itself: the engine reads none of them (no hook runs twice).
 */
function dropDispatchLines(layers: SettingsLayer[], pluginHooks: NormalizedHook[]): void {
  const isDoor = (h: NormalizedHook) => h.handler.type === 'command' && isDispatchCommand(h.handler.command);
  for (const l of layers) if (l.hooks.some(isDoor)) l.hooks = [];
  for (let i = pluginHooks.length - 1; i >= 0; i--) if (isDoor(pluginHooks[i] as NormalizedHook)) pluginHooks.splice(i, 1);
}

/** The shared lint (src/lint/hooks.ts), with the tool names and timeout unit of each other agent whose hooks were read. */
async function lintLoaded(hooks: readonly NormalizedHook[]): Promise<Diagnostic[]> {
  const names = new Set(hooks.flatMap((h) => (h.dialect && h.dialect !== 'claude' ? [h.dialect] : [])));
  // The `if` parser (unbash, picomatch) loads only for a hook that has an `if`, as the engine's planning does.
  if (hooks.some((h) => h.handler.if !== undefined)) await (await import('../matching/lazy-rules.js')).ensureIfRules();
  const facts = new Map<string, DialectLintFacts>();
  if (names.size > 0) {
    // Those agents' readers already loaded their facts: no new module is read here.
    const { loadDialect } = await import('../agents/registry.js');
    const { isDialectName } = await import('../agents/types.js');
    for (const n of names) {
      if (!isDialectName(n)) continue;
      const d = await loadDialect(n);
      facts.set(n, { tools: d.tools.map((t) => t.native), timeoutUnit: d.defaults.timeoutUnit, title: d.title });
    }
  }
  return lintMistakes(hooks, (n) => facts.get(n));
}

async function loadConfigUnsafe(opts: LoadConfigOptions, diagnostics: Diagnostic[]): Promise<LoadedConfig> {
  const cwd = path.resolve(opts.cwd);
  const projectDir = path.resolve(cwd, opts.projectDir ?? '.');
  const homeDir = path.resolve(opts.homeDir ?? userHome());
  const configDir = claudeConfigDir({ homeDir: opts.homeDir, configDir: opts.claudeConfigDir, defaultHome: homeDir });
  const discover = opts.discover ?? true;
  const files: LoadedFile[] = [];
  const layers = await readLayers(candidatesOf(opts, cwd, projectDir, configDir, discover), opts, files, diagnostics);
  if (discover) await loadDiscoveredDialects(opts, { projectDir, homeDir }, layers, files, diagnostics);

  const pluginHooks: NormalizedHook[] = [];
  const skillHooks: NormalizedHook[] = [];
  // Plugins and skills are checked by zod (src/config/extensions.ts): loaded only when there are some.
  if (opts.plugins?.length || opts.skills?.length) {
    const { loadPlugin, loadSkill } = await import('./extensions.js');
    for (const p of opts.plugins ?? []) {
      pluginHooks.push(...(await loadPlugin(typeof p === 'string' ? { root: p } : p, { cwd, configDir }, diagnostics, files)));
    }
    for (const s of opts.skills ?? []) skillHooks.push(...loadSkill(s, cwd, diagnostics, files));
  }
  dropDispatchLines(layers, pluginHooks);
  // Every hook read is linted, trusted or not: a mistake is one before the workspace is trusted too.
  diagnostics.push(...(await lintLoaded([...layers.flatMap((l) => l.hooks), ...pluginHooks, ...skillHooks])));
  const trust = await applyGate(opts, { projectDir, homeDir, discover }, layers, pluginHooks, skillHooks, diagnostics);
  const merged = mergeLayers(layers, pluginHooks, skillHooks, files, diagnostics);
  if (!trust) return merged;
  // The default gate's verdict: reviewed hooks verified at each execution; a reviewed workspace that changed fails closed.
  const { withTrustVerdict } = await import('../trust/verify.js');
  merged.hooks = withTrustVerdict(merged.hooks, trust, { homeDir, nonManagedOff: merged.disabled.nonManaged || merged.managedOnly });
  return merged;
}
