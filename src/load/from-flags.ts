/**
 * Loading hooks the way the agent would, from the options a caller names (the CLI's flags, a
 * dispatch call): discovery, explicit files and plugins, and the trust gate for discovered ones.
 */
import { resolve } from 'node:path';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../config/load.js';
import type { ConfigGateInput } from '../config/load.js';
import type { Diagnostic, SourceKind } from '../types.js';
import { parseDiscoverDialects, type DiscoverDialects } from '../agents/shared/locations.js';
import type { TrustReport } from '../trust/index.js';
import { realOr } from '../util/real-path.js';
import { reviewedHooksOf } from './project-dir.js';

export interface LoadFlags {
  settings?: string[];
  plugin?: string[];
  cwd?: string;
  discover?: boolean;
  managedSettings?: string;
  /** Force the dialect of --settings files (default: detected per file; src/agents/). */
  dialect?: string;
  /** `--discover-dialects LIST|all`: other agents' standard hook files to discover (docs/dialects.md "Discovery"). */
  discoverDialects?: string;
}

/**
 * --settings given: only those files (and --plugin dirs), unless --discover.
 * No --settings: discover user, project, local and managed settings like the agent would;
 * discovered project and local settings then pass the trust gate (docs/security.md): skipped
 * hooks become warnings that say how to trust. Files and plugins named on the command line are
 * trusted by the person who named them.
 */
export async function loadFromFlags(
  flags: LoadFlags,
  // events: the only events this process fires; the gate then reads only their hooks' scripts (TrustOptions.events).
  // readFilesSync: LoadConfigOptions.readFilesSync, for the one-shot commands.
  opts: { eachSkippedHook?: boolean; events?: readonly string[]; readFilesSync?: boolean } = {},
): Promise<LoadedConfig & { trust?: TrustReport }> {
  const built = loadOptionsFromFlags(flags);
  if ('error' in built)
    return {
      hooks: [],
      diagnostics: [built.error],
      options: {},
      disabled: { all: false, nonManaged: false },
      managedOnly: false,
      files: [],
    };
  const { plugins, cwd } = built;
  const options = { ...built.options, readFilesSync: opts.readFilesSync };
  if (!options.discover) return loadConfig(options);
  // Only discovered settings pass the trust gate. The gate's store, digests and script hashing
  // load only when a source it could gate was read: with user and managed settings alone
  // (what most `dispatch` calls see) loadConfig runs with a gate that excludes nothing.
  const named = new Set(plugins.flatMap((p) => [p, realOr(p)]));
  let trust: TrustReport | undefined;
  const config = await loadConfig({
    ...options,
    gate: async (input) => {
      // No source to gate, and no reviewed hooks on record: a config removed since it was
      // reviewed would otherwise take its guards with it (project-dir.ts reviewedHooksOf).
      if (!mayNeedTrust(input) && !(await reviewedHooksOf(opts.events, cwd))) return [];
      const { defaultNeedsTrust, trustGate } = await import('../trust/index.js');
      // The gate compares plugin roots by real path.
      const full = trustGate({
        workspaceDir: cwd,
        needsTrust: (source, workspace) =>
          !(source.pluginRoot !== undefined && named.has(source.pluginRoot)) && defaultNeedsTrust(source, workspace),
        ...(opts.events ? { events: opts.events } : {}),
      });
      const excluded = await full.gate(input);
      trust = full.report();
      return excluded;
    },
  });
  if (!trust) return config;
  // The gate read only these events' scripts: gated hooks of any other event must not run from this config.
  if (trust.events) {
    const { verifiedHooks } = await import('../trust/index.js');
    config.hooks = verifiedHooks(config.hooks, trust);
  }
  // As loadTrustedConfig: no skip warnings when policy removes non-managed hooks anyway; reviewed
  // hooks verified at each execution, and those of a reviewed workspace that changed fail closed.
  const nonManagedOff = config.disabled.nonManaged || config.managedOnly;
  const { withTrustVerdict } = await import('../trust/verify.js');
  config.hooks = withTrustVerdict(config.hooks, trust, { nonManagedOff });
  if (nonManagedOff) trust = { ...trust, skipped: [], warnings: [] };
  if (opts.eachSkippedHook) {
    for (const s of trust.skipped)
      config.diagnostics.push({ level: 'warning', file: s.hook.source.file, path: s.hook.source.path, message: s.message });
  } else {
    const summary = skippedSummary(trust);
    if (summary) config.diagnostics.push({ level: 'warning', path: '', message: summary });
  }
  return { ...config, trust };
}

/** The loadConfig options the flags stand for (shared by run, list and doctor). */
export function loadOptionsFromFlags(
  flags: LoadFlags,
): { options: LoadConfigOptions & { discover: boolean }; plugins: string[]; cwd: string } | { error: Diagnostic } {
  const cwd = resolve(flags.cwd ?? process.cwd());
  // Paths on the command line are relative to the shell's directory, not --cwd; a value
  // starting with { is inline JSON and passes through untouched.
  const explicit = (flags.settings ?? []).map((f) => (f.trimStart().startsWith('{') ? f : resolve(f)));
  const plugins = (flags.plugin ?? []).map((p) => resolve(p));
  let discoverDialects: DiscoverDialects | undefined;
  if (flags.discoverDialects !== undefined) {
    const parsed = parseDiscoverDialects(flags.discoverDialects);
    if (!parsed.ok) return { error: { level: 'error', path: '--discover-dialects', message: parsed.message } };
    discoverDialects = parsed.value;
  }
  const options = {
    cwd,
    projectDir: cwd,
    discover: flags.discover ?? explicit.length === 0,
    settingsFiles: explicit,
    plugins,
    managedSettingsPath: flags.managedSettings ? resolve(flags.managedSettings) : undefined,
    ...(flags.dialect ? { dialect: flags.dialect } : {}),
    ...(discoverDialects !== undefined ? { discoverDialects } : {}),
  };
  return { options, plugins, cwd };
}

/**
 * One line for all hooks the trust gate skipped, with the command that fixes it (the per-hook
 * messages stay on `trust.skipped`; `run --verbose` prints them). With one hook, its own detail
 * (what changed) is kept.
 */
function skippedSummary(trust: TrustReport): string | undefined {
  const { skipped } = trust;
  if (skipped.length === 0) return undefined;
  const first = skipped[0]!.message;
  const cut = first.lastIndexOf('); ');
  const howTo = cut >= 0 ? first.slice(cut + 3) : '';
  if (skipped.length === 1) return `1 ${first}`;
  const kinds = [...new Set(skipped.map((s) => s.hook.source.kind))].join('/');
  return `${skipped.length} ${kinds} hooks skipped (${trust.state}: ${trust.reason}); ${howTo}`;
}

/** Kinds the trust gate never gates (defaultNeedsTrust): the user's, the admin's and the caller's own. */
const NEVER_GATED: ReadonlySet<SourceKind> = new Set(['managed', 'user', 'cli', 'sdk']);

/** Conservative: any hook or settings file of a kind the gate may gate loads the gate. */
function mayNeedTrust(input: ConfigGateInput): boolean {
  return input.hooks.some((h) => !NEVER_GATED.has(h.source.kind)) || input.settings.some((s) => !NEVER_GATED.has(s.kind));
}
