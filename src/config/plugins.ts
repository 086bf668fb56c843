/**
 * Plugin integration: plugin hooks are never hot-plugged one by one. The integrator keeps the
 * plugin-free base config, loads the hooks of *all* active plugins in one batch, and derives the
 * effective config as base + batch. A change of the active set or a refresh always starts again
 * from the base, so a plugin that was uninstalled (or disabled) leaves nothing behind.
 *
 * Policy of the base applies to the batch as the loader applies it: managed disableAllHooks
 * drops every plugin hook; non-managed disableAllHooks or allowManagedHooksOnly keep only
 * plugins force-enabled by policy (`managed: true`).
 *
 * Sessions hold snapshots: after setActivePlugins/refresh, invalidate the HookManager's cache
 * for the project; a bound session keeps its hooks until it is re-bound (HookManager.rebind).
 */
import { loadConfig, type LoadedConfig, type PluginSpec } from './load.js';
import { dedupeHooks, isManagedHook } from './registry.js';

export interface PluginIntegratorOptions {
  /** Loads the plugin-free base config (settings layers; pass no `plugins` here). */
  loadBase: () => Promise<LoadedConfig>;
  /** Plugin roots given as relative paths are resolved against cwd (default process.cwd()). */
  cwd?: string;
  /** Home for default plugin data directories (default os.homedir()). */
  homeDir?: string;
}

export interface PluginIntegrator {
  /** Replace the active set; loads all their hooks in one batch on top of the base. */
  setActivePlugins(plugins: ReadonlyArray<string | PluginSpec>): Promise<LoadedConfig>;
  /** Reload the base from its source, then re-apply the active set (re-reading the plugins' hooks). */
  refresh(): Promise<LoadedConfig>;
  /** The effective config (base + active plugins); loads the base on first use. */
  load(): Promise<LoadedConfig>;
  /** Last effective config, if loaded. */
  current(): LoadedConfig | undefined;
  /** The plugin-free base, if loaded. */
  base(): LoadedConfig | undefined;
  active(): ReadonlyArray<string | PluginSpec>;
}

/** base + one plugin batch → effective config, applying the base's policy to the plugins. */
function combinePluginBatch(base: LoadedConfig, batch: LoadedConfig): LoadedConfig {
  let plugins = batch.hooks.filter((h) => h.source.kind === 'plugin');
  if (base.disabled.all) plugins = [];
  else if (base.disabled.nonManaged || base.managedOnly) plugins = plugins.filter(isManagedHook);
  return {
    ...base,
    hooks: dedupeHooks([...base.hooks, ...plugins]),
    diagnostics: [...base.diagnostics, ...batch.diagnostics],
    files: [...base.files, ...batch.files],
  };
}

/** The base must be plugin-free: plugin hooks in it would survive an uninstall, so they are dropped. */
function pluginFree(config: LoadedConfig): LoadedConfig {
  if (!config.hooks.some((h) => h.source.kind === 'plugin')) return config;
  return {
    ...config,
    hooks: config.hooks.filter((h) => h.source.kind !== 'plugin'),
    diagnostics: [
      ...config.diagnostics,
      {
        level: 'warning',
        path: '(root)',
        message:
          'the base config of the plugin integrator contained plugin hooks; they were dropped (activate plugins with setActivePlugins)',
      },
    ],
  };
}

export function createPluginIntegrator(options: PluginIntegratorOptions): PluginIntegrator {
  let base: LoadedConfig | undefined;
  let current: LoadedConfig | undefined;
  let active: ReadonlyArray<string | PluginSpec> = [];
  // Only the latest request publishes `current`, whatever order the loads finish in.
  let generation = 0;

  const loadBatch = (plugins: ReadonlyArray<string | PluginSpec>) =>
    loadConfig({
      cwd: options.cwd ?? process.cwd(),
      ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
      discover: false,
      plugins: [...plugins],
    });

  async function apply(reloadBase: boolean): Promise<LoadedConfig> {
    const gen = ++generation;
    const plugins = active;
    const b = reloadBase || !base ? pluginFree(await options.loadBase()) : base;
    const batch = await loadBatch(plugins);
    const effective = combinePluginBatch(b, batch);
    if (gen === generation) {
      base = b;
      current = effective;
    }
    return effective;
  }

  return {
    setActivePlugins(plugins) {
      active = Object.freeze([...plugins]);
      return apply(false);
    },
    refresh: () => apply(true),
    load: () => (current ? Promise.resolve(current) : apply(false)),
    current: () => current,
    base: () => base,
    active: () => active,
  };
}
