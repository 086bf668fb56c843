/**
 * The trust gate: which hooks may run, and why the others may not.
 *
 * Two gates, both per workspace (canonical identity, workspace.ts):
 * 1. Workspace trust — has the workspace been trusted at all? A never-trusted workspace
 *    contributes nothing, before any digest is compared. A host with its own workspace-trust
 *    prompt passes `workspaceTrusted` instead of using the store's flag.
 * 2. Hook trust — the digest of the workspace's canonical external config (digest.ts) must
 *    equal the digest trusted in the store.
 *
 * Hooks that need trust: project and local settings, and plugins/skills whose root lies in the
 * workspace, unless force-enabled by managed policy (see `defaultNeedsTrust`). User settings,
 * managed policy, files named on a command line and function hooks do not.
 *
 * Trust is all-or-nothing per workspace: every gated hook and every gated settings file carries
 * the workspace's state — `trusted` runs; `untrusted`, `modified` and `error` are skipped with a
 * warning that says how to trust. Per-hook `changes` say which hooks differ from what was
 * trusted, so a review shows exactly what changed.
 */
import os from 'node:os';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import type { ConfigGateInput, GateSource, LoadConfigOptions, LoadedConfig } from '../config/load.js';
import { loadConfig, SETTINGS_KEYS } from '../config/index.js';
import type { HookHandler, NormalizedHook, Provenance } from '../types.js';
import {
  canonicalHook,
  describeChange,
  diffConfigs,
  digestOf,
  hookShape,
  rootCodec,
  type CanonicalConfig,
  type CanonicalHook,
  type CanonicalSettings,
  type Change,
} from './digest.js';
import { hashCacheFor, type HashCache } from './hash.js';
import { pinsOf } from './pins.js';
import { pinRecords, type PinRecord } from './scripts.js';
import { defaultTrustStorePath, readTrustStore, TrustStoreError, updateTrustStore, type TrustRecord } from './store.js';
import { resolveWorkspace, type Workspace } from './workspace.js';

export type TrustState = 'trusted' | 'untrusted' | 'modified' | 'error';

/** The provenance fields that decide whether a source needs trust. */
export type TrustSource = Pick<Provenance, 'kind' | 'file' | 'pluginRoot' | 'skillRoot'> & { managed?: boolean };

export interface TrustOptions {
  /** The project directory whose hooks are gated. */
  workspaceDir: string;
  /** Trust store file; default `defaultTrustStorePath()` (honours $AGENT_HOOKS_TRUST_STORE). */
  storePath?: string;
  /** The host's own workspace-trust decision; default: the store's record. */
  workspaceTrusted?: boolean;
  /** Which sources need trust; default `defaultNeedsTrust`. */
  needsTrust?: (source: TrustSource, workspace: Workspace) => boolean;
  /** For `~/` and `${HOME}` in commands; default os.homedir(). */
  homeDir?: string;
  /** Program name used in the "how to trust" hints; default `agent-hooks`. */
  command?: string;
  /**
   * File hashes cache (hash.ts). Default: `hash-cache.json` next to the trust store; `false`
   * hashes every file every time.
   */
  hashCache?: HashCache | false;
  /**
   * Verify only what hooks of these events run (a dispatch that fires one event). Hooks of
   * other events that are unchanged, in config and place, from the trusted config are not
   * pinned or read: their trusted records stand in, and their scripts are verified when their
   * own event fires. Any change to the config itself is still seen. A report made this way
   * cannot be trusted (`trustWorkspace` refuses it). Default: every hook.
   */
  events?: readonly string[];
}

export interface HookTrustStatus {
  id: string;
  event: string;
  matcher?: string;
  type: HookHandler['type'];
  /** What the hook runs, in one line. */
  summary: string;
  source: Provenance;
  needsTrust: boolean;
  /** trusted for hooks that need no trust; otherwise the workspace's state. */
  state: TrustState;
  /** Differences from the trusted config (empty when none or never trusted). */
  changes: Change[];
  /** Paths the hook pins (canonical, absolute; `glob:…` for a glob's match list). */
  scripts: string[];
  /** Why what this hook executes cannot be determined; empty when it is pinned. */
  unpinned: string[];
  /** Pinned paths outside the workspace (listed so the reviewer sees them). */
  outside: string[];
  /** Unreadable referenced files. */
  errors: string[];
}

export interface SkippedHook {
  hook: NormalizedHook;
  state: Exclude<TrustState, 'trusted'>;
  /** Why, and how to trust; one line. */
  message: string;
}

export interface ScriptStatus {
  path: string;
  /** `sha256:<hex>`, `missing`, `directory`, `special`, or `error`. */
  current: string;
  /** What the trusted config recorded; absent when not referenced then (or never trusted). */
  trusted?: string;
  error?: string;
  /** Not read by this assessment (`TrustOptions.events`): the trusted record stands in. */
  deferred?: true;
}

export interface TrustReport {
  workspace: Workspace;
  /** The store file consulted. */
  store: string;
  /** Gate 1. */
  workspaceTrusted: boolean;
  /** Gate 2, and the verdict for every gated hook and settings file. */
  state: TrustState;
  /** Why `state`, in one sentence. */
  reason: string;
  /** Digest of the current gated config; absent when it could not be computed (state error). */
  digest?: string;
  trustedDigest?: string;
  trustedAt?: string;
  /** Every hook given, in order. */
  hooks: HookTrustStatus[];
  /** Hooks in the trusted config that are gone now. */
  removed: CanonicalHook[];
  /** Changed hook-related settings of gated files. */
  settingsChanges: Change[];
  scripts: ScriptStatus[];
  /** Gated settings files and files of gated hooks, by source kind. */
  gatedSources: GateSource[];
  /** Sources whose hooks and settings must not apply (all gated sources unless trusted). */
  excludedSources: GateSource[];
  skipped: SkippedHook[];
  /** `file: path: message` for each skipped hook. */
  warnings: string[];
  /** Store problems and unreadable scripts. */
  errors: string[];
  /** What `trustWorkspace` records; absent when state is error. */
  config?: CanonicalConfig;
  /** Gated command hooks whose executed files cannot be determined: trusting needs `allowUnpinned`. */
  unpinned: Array<{ id: string; reasons: string[] }>;
  /** Set when only hooks of these events had their scripts read (`TrustOptions.events`). */
  events?: string[];
}

export interface TrustEvaluation {
  /** The hooks that may run, in order. */
  allowed: NormalizedHook[];
  states: HookTrustStatus[];
  warnings: string[];
  digest?: string;
  state: TrustState;
  report: TrustReport;
}

/** Keys of settings files that matter to hooks (everything agent-hooks reads except `hooks`). */
const HOOK_SETTINGS_KEYS = SETTINGS_KEYS.filter((k) => k !== 'hooks');

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Project and local settings need trust; so do plugins and skills whose root is inside the
 * workspace (its git work tree), unless force-enabled by managed policy. Everything else
 * (user, managed, cli, sdk, plugins installed elsewhere) is the user's or admin's own.
 */
export function defaultNeedsTrust(source: TrustSource, workspace: Workspace): boolean {
  if (source.managed) return false;
  if (source.kind === 'project' || source.kind === 'local') return true;
  if (source.kind === 'plugin' || source.kind === 'skill') {
    const root = source.pluginRoot ?? source.skillRoot ?? source.file;
    return root !== undefined && (isInside(root, workspace.root) || isInside(root, workspace.dir));
  }
  return false;
}

function describeHandler(h: HookHandler): string {
  switch (h.type) {
    case 'command':
      return h.args ? `${h.command} ${JSON.stringify(h.args)}` : h.command;
    case 'http':
      return h.url;
    case 'mcp_tool':
      return `${h.server}/${h.tool}`;
    case 'function':
      return h.name ?? 'function';
    default:
      return h.prompt.length > 80 ? `${h.prompt.slice(0, 77)}...` : h.prompt;
  }
}

/** Quote for a POSIX shell when needed, so the hint can be pasted. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-./:@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return p;
  }
}

/**
 * Compute the trust state of a workspace's hooks. Never throws: store problems and unreadable
 * scripts become state `error` (fail closed).
 */
export async function assessTrust(
  input: { hooks: readonly NormalizedHook[]; settings?: ConfigGateInput['settings'] },
  opts: TrustOptions,
): Promise<TrustReport> {
  const workspace = await resolveWorkspace(opts.workspaceDir);
  const storePath = opts.storePath ?? defaultTrustStorePath(process.env, opts.homeDir ?? os.homedir());
  const homeDir = opts.homeDir ?? os.homedir();
  const needsTrust = opts.needsTrust ?? defaultNeedsTrust;
  const prog = opts.command ?? 'agent-hooks';
  const { encode, decode } = rootCodec(workspace.root);
  const errors: string[] = [];

  // Which hooks and settings files are gated. Plugin/skill roots are compared by real path.
  const realRoots = new Map<string, string>();
  for (const h of input.hooks) {
    for (const r of [h.source.pluginRoot, h.source.skillRoot, h.source.pluginData, h.source.file]) {
      if (r !== undefined && !realRoots.has(r)) realRoots.set(r, await realOrSelf(r));
    }
  }
  for (const layer of input.settings ?? []) if (!realRoots.has(layer.file)) realRoots.set(layer.file, await realOrSelf(layer.file));
  // Every path in the digest is canonical: the same workspace through a symlink is the same trust.
  const real = (p: string): string => realRoots.get(p) ?? p;
  const gatedOf = (h: NormalizedHook): boolean => {
    if (h.handler.type === 'function') return false;
    const s = h.source as TrustSource;
    const src: TrustSource = {
      kind: s.kind,
      file: s.file,
      ...(s.pluginRoot !== undefined ? { pluginRoot: realRoots.get(s.pluginRoot) ?? s.pluginRoot } : {}),
      ...(s.skillRoot !== undefined ? { skillRoot: realRoots.get(s.skillRoot) ?? s.skillRoot } : {}),
      ...(s.managed ? { managed: true } : {}),
    };
    return needsTrust(src, workspace);
  };
  const gated = input.hooks.map(gatedOf);
  const gatedSources = new Map<string, GateSource>();
  const addGated = (kind: GateSource['kind'], file: string) => gatedSources.set(`${kind}\0${file}`, { kind, file });
  input.hooks.forEach((h, i) => {
    if (gated[i] && h.source.file !== undefined) addGated(h.source.kind, h.source.file);
  });
  const settings: CanonicalSettings[] = [];
  for (const layer of input.settings ?? []) {
    if (!needsTrust({ kind: layer.kind, file: layer.file }, workspace)) continue;
    addGated(layer.kind, layer.file);
    const picked: Record<string, unknown> = {};
    for (const k of HOOK_SETTINGS_KEYS) {
      const v = (layer.data as Record<string, unknown>)[k];
      if (v !== undefined) picked[k] = v;
    }
    if (Object.keys(picked).length > 0) settings.push({ kind: layer.kind, file: encode(real(layer.file)), settings: picked });
  }

  // Store (first: with `events`, the trusted config decides which hooks need not be read).
  let record: TrustRecord | undefined;
  let storeError: string | undefined;
  try {
    record = (await readTrustStore(storePath)).workspaces[workspace.identity];
  } catch (e) {
    storeError = e instanceof TrustStoreError ? e.message : `cannot read trust store ${storePath}: ${(e as Error).message}`;
  }
  const workspaceTrusted = opts.workspaceTrusted ?? record !== undefined;
  const trusted = record?.hooks;

  // Hooks of events not fired now that are unchanged from the trusted config keep its records.
  const events = opts.events ? new Set(opts.events) : undefined;
  const trustedShapes = new Map<string, CanonicalHook>();
  if (events && trusted) for (const t of trusted.config.hooks) trustedShapes.set(hookShape(t), t);
  const deferredOf = (h: NormalizedHook): CanonicalHook | undefined => {
    if (!events || events.has(h.event) || trustedShapes.size === 0) return undefined;
    const t = trustedShapes.get(hookShape(canonicalHook(h, encode, [], real)));
    // Every record it needs must be in the trusted config, or there is nothing to stand in.
    return t && t.scripts.every((k) => trusted!.config.scripts[k] !== undefined) ? t : undefined;
  };

  // What gated command hooks execute (pins.ts), as canonical records (scripts.ts).
  const cache = opts.hashCache === false ? undefined : (opts.hashCache ?? hashCacheFor(storePath));
  const allRecords = new Map<string, PinRecord>();
  const deferredRecords = new Map<string, PinRecord>();
  const hookScripts: string[][] = [];
  const hookErrors: string[][] = [];
  const hookUnpinned: string[][] = [];
  for (let i = 0; i < input.hooks.length; i++) {
    const h = input.hooks[i]!;
    hookScripts.push([]);
    hookErrors.push([]);
    hookUnpinned.push([]);
    if (!gated[i] || h.handler.type !== 'command') continue;
    const stand = deferredOf(h);
    if (stand) {
      hookScripts[i] = stand.scripts.map(decode);
      hookUnpinned[i] = (stand.unpinned ?? []).map(decode);
      stand.scripts.forEach((k, j) => deferredRecords.set(hookScripts[i]![j]!, { key: hookScripts[i]![j]!, record: trusted!.config.scripts[k]! }));
      continue;
    }
    const pluginRoot = h.source.pluginRoot ?? h.source.skillRoot;
    const pins = pinsOf(h.handler, {
      cwd: workspace.dir,
      projectDir: workspace.dir,
      ...(workspace.git ? { gitTopLevel: workspace.git.worktree } : {}),
      ...(pluginRoot !== undefined ? { pluginRoot: real(pluginRoot) } : {}),
      ...(h.source.pluginData !== undefined ? { pluginData: real(h.source.pluginData) } : {}),
      homeDir,
    });
    // Read the on-disk cache only when something is to be hashed.
    if (pins.files.length > 0 || pins.trees.length > 0) await cache?.load();
    const { records, unpinned } = await pinRecords(pins, cache);
    hookUnpinned[i] = unpinned;
    for (const r of records) {
      if (!allRecords.has(r.key)) allRecords.set(r.key, r);
      hookScripts[i]!.push(r.key);
      if (r.error) hookErrors[i]!.push(r.error);
    }
  }
  await cache?.flush();
  // A file that a hook of the fired event also runs was read above: that record wins.
  const deferred = new Set<string>();
  for (const [key, r] of deferredRecords) {
    if (allRecords.has(key)) continue;
    allRecords.set(key, r);
    deferred.add(key);
  }
  const scripts: Record<string, string> = {};
  for (const [key, r] of allRecords) {
    if (r.record === undefined) errors.push(r.error ?? `cannot read ${key}`);
    else scripts[encode(key)] = r.record;
  }

  const canonicalHooks: CanonicalHook[] = [];
  input.hooks.forEach((h, i) => {
    if (!gated[i]) return;
    const c = canonicalHook(h, encode, hookScripts[i]!.map(encode), real);
    if (hookUnpinned[i]!.length > 0) c.unpinned = hookUnpinned[i]!.map(encode);
    canonicalHooks.push(c);
  });
  const scriptErrors = errors.length > 0;
  const config: CanonicalConfig | undefined = scriptErrors ? undefined : { version: 1, hooks: canonicalHooks, settings, scripts };
  const digest = config ? digestOf(config) : undefined;
  if (storeError) errors.unshift(storeError);

  let state: TrustState;
  let reason: string;
  if (storeError) {
    state = 'error';
    reason = storeError;
  } else if (scriptErrors) {
    state = 'error';
    reason = `a referenced script cannot be read: ${errors[0]}`;
  } else if (!workspaceTrusted) {
    state = 'untrusted';
    reason = opts.workspaceTrusted === false ? 'the host has not trusted this workspace' : 'this workspace has never been trusted';
  } else if (!trusted) {
    state = 'untrusted';
    reason = "this workspace's hooks have not been reviewed and trusted";
  } else if (trusted.digest === digest) {
    state = 'trusted';
    reason = `hooks match the digest trusted at ${trusted.trustedAt}`;
  } else {
    state = 'modified';
    reason = 'the hook config or a script it runs changed since it was trusted';
  }

  // Equal digests mean equal configs: nothing to diff.
  const diff = trusted && config && trusted.digest !== digest ? diffConfigs(trusted.config, config, decode) : undefined;
  let gi = 0;
  const hooks: HookTrustStatus[] = input.hooks.map((h, i) => {
    const changes = gated[i] && diff ? diff.hooks[gi++] ?? [] : [];
    return {
      id: h.id,
      event: h.event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      type: h.handler.type,
      summary: describeHandler(h.handler),
      source: h.source,
      needsTrust: gated[i]!,
      state: gated[i] ? state : 'trusted',
      changes,
      scripts: hookScripts[i]!,
      errors: hookErrors[i]!,
      unpinned: hookUnpinned[i]!,
      outside: hookScripts[i]!.filter((k) => !k.startsWith('glob:') && !isInside(k, workspace.root) && !isInside(k, workspace.dir)),
    };
  });

  const scriptStatus: ScriptStatus[] = [...allRecords].map(([p, r]) => {
    const current = r.record ?? 'error';
    const old = trusted?.config.scripts[encode(p)];
    return { path: p, current, ...(old !== undefined ? { trusted: old } : {}), ...(r.error ? { error: r.error } : {}), ...(deferred.has(p) ? { deferred: true as const } : {}) };
  });

  const cwdArg = shellQuote(workspace.dir);
  const howTo = (): string => {
    if (storeError) return `fix the trust store, then review with \`${prog} status --cwd ${cwdArg}\``;
    if (scriptErrors) return `make the referenced scripts readable, then review with \`${prog} status --cwd ${cwdArg}\``;
    const ack = hookUnpinned.some((u, i) => gated[i] && u.length > 0) ? ' --allow-unpinned' : '';
    return `review with \`${prog} status --cwd ${cwdArg}\`, then trust with \`${prog} trust --cwd ${cwdArg} --digest ${digest}${ack}\``;
  };
  const skipped: SkippedHook[] = [];
  if (state !== 'trusted') {
    input.hooks.forEach((h, i) => {
      if (!gated[i]) return;
      const st = hooks[i]!;
      const detail =
        st.errors.length > 0
          ? st.errors.join('; ')
          : st.changes.length > 0
            ? st.changes.map(describeChange).join('; ')
            : reason;
      skipped.push({
        hook: h,
        state: state as SkippedHook['state'],
        message: `${h.source.kind} ${h.handler.type} hook skipped (${state}: ${detail}); ${howTo()}`,
      });
    });
  }
  const warnings = skipped.map((s) => [s.hook.source.file, s.hook.source.path, s.message].filter(Boolean).join(': '));

  return {
    workspace,
    store: storePath,
    workspaceTrusted,
    state,
    reason,
    ...(digest ? { digest } : {}),
    ...(trusted ? { trustedDigest: trusted.digest, trustedAt: trusted.trustedAt } : {}),
    hooks,
    removed: diff?.removed ?? [],
    settingsChanges: diff?.settings ?? [],
    scripts: scriptStatus,
    gatedSources: [...gatedSources.values()],
    excludedSources: state === 'trusted' ? [] : [...gatedSources.values()],
    skipped,
    warnings,
    errors,
    ...(config ? { config } : {}),
    unpinned: hooks.flatMap((h) => (h.needsTrust && h.unpinned.length > 0 ? [{ id: h.id, reasons: h.unpinned }] : [])),
    ...(events ? { events: [...events] } : {}),
  };
}

/**
 * The hooks that may run after an assessment with `events`: gated hooks of other events were not
 * verified, so they are left out (all hooks when the report read everything).
 */
export function verifiedHooks<T extends { id: string }>(hooks: readonly T[], report: TrustReport): T[] {
  const events = report.events;
  if (!events) return [...hooks];
  const unread = new Set(report.hooks.filter((h) => h.needsTrust && !events.includes(h.event)).map((h) => h.id));
  return hooks.filter((h) => !unread.has(h.id));
}

/**
 * Gate a list of already-loaded hooks (for embedders). Prefer `loadTrustedConfig` when loading
 * from files: it gates before dedup, so an untrusted project copy of one of your own hooks cannot
 * displace it, and it gates the hook-related settings of project files too.
 */
export async function evaluateTrust(hooks: readonly NormalizedHook[], opts: TrustOptions): Promise<TrustEvaluation> {
  const report = await assessTrust({ hooks }, opts);
  const allowed = verifiedHooks(hooks.filter((_h, i) => !report.hooks[i]!.needsTrust || report.state === 'trusted'), report);
  return { allowed, states: report.hooks, warnings: report.warnings, ...(report.digest ? { digest: report.digest } : {}), state: report.state, report };
}

/**
 * A `loadConfig` gate: assesses trust on every hook and settings file before policy and dedup,
 * and leaves out the gated sources unless trusted. `report()` is the assessment of the last load.
 */
export function trustGate(opts: TrustOptions): { gate: (input: ConfigGateInput) => Promise<GateSource[]>; report: () => TrustReport | undefined } {
  let last: TrustReport | undefined;
  return {
    gate: async (input) => {
      last = await assessTrust(input, opts);
      return last.excludedSources;
    },
    report: () => last,
  };
}

/**
 * loadConfig with the trust gate. Skip warnings are dropped when policy removes non-managed
 * hooks anyway (managed disableAllHooks / allowManagedHooksOnly).
 */
export async function loadTrustedConfig(
  loadOptions: Omit<LoadConfigOptions, 'gate'>,
  trustOptions: Partial<TrustOptions> = {},
): Promise<{ config: LoadedConfig; trust: TrustReport }> {
  const cwd = path.resolve(loadOptions.cwd);
  const workspaceDir = trustOptions.workspaceDir ?? path.resolve(cwd, loadOptions.projectDir ?? '.');
  const homeDir = trustOptions.homeDir ?? loadOptions.homeDir;
  const { gate, report } = trustGate({ ...trustOptions, workspaceDir, ...(homeDir !== undefined ? { homeDir } : {}) });
  const config = await loadConfig({ ...loadOptions, gate });
  let trust = report();
  if (!trust) {
    // loadConfig failed before the gate ran; assess what we have so callers always get a report.
    trust = await assessTrust({ hooks: [] }, { ...trustOptions, workspaceDir });
  }
  if (config.disabled.nonManaged || config.managedOnly) trust = { ...trust, skipped: [], warnings: [] };
  if (trust.events) config.hooks = verifiedHooks(config.hooks, trust);
  return { config, trust };
}

export class TrustRefusedError extends Error {
  override name = 'TrustRefusedError';
}

export interface TrustResult {
  identity: string;
  digest?: string;
  workspaceOnly: boolean;
  record: TrustRecord;
}

/**
 * Record trust for the assessed workspace: workspace trust, and (unless `workspaceOnly`) the
 * report's digest and canonical config. Refuses (TrustRefusedError) when the report is in state
 * error, or when `expectedDigest` is given and differs from the digest of the report — the
 * config changed since it was shown. What is stored is exactly what was assessed.
 */
export async function trustWorkspace(report: TrustReport, opts: { expectedDigest?: string; workspaceOnly?: boolean; allowUnpinned?: boolean } = {}): Promise<TrustResult> {
  // Workspace trust alone needs no digest; hook trust needs a complete, readable config.
  if (!opts.workspaceOnly && (report.errors.length > 0 || !report.config || !report.digest)) {
    throw new TrustRefusedError(`cannot trust ${report.workspace.dir}: ${report.errors.join('; ') || report.reason}`);
  }
  // A report that read only some events' scripts vouches for nothing else.
  if (!opts.workspaceOnly && report.events) {
    throw new TrustRefusedError(`cannot trust ${report.workspace.dir}: this assessment read only the scripts of ${report.events.join(', ')} hooks; assess every hook (no \`events\`) to trust`);
  }
  if (opts.expectedDigest !== undefined && opts.expectedDigest !== report.digest) {
    throw new TrustRefusedError(
      `refusing to trust ${report.workspace.dir}: the hooks changed since they were shown (expected ${opts.expectedDigest}, now ${report.digest}); review them again`,
    );
  }
  // An unpinned hook can change what it runs without changing the digest: only an explicit yes trusts it.
  const unpinned = report.unpinned ?? [];
  if (!opts.workspaceOnly && unpinned.length > 0 && !opts.allowUnpinned) {
    const first = unpinned[0]!;
    throw new TrustRefusedError(
      `refusing to trust ${report.workspace.dir}: ${unpinned.length} hook(s) are unpinned — what they execute cannot be determined, so a change there would not show as modified (first: ${first.reasons[0]}); acknowledge with --allow-unpinned (library: allowUnpinned) after reviewing them`,
    );
  }
  const now = new Date().toISOString();
  const { config, digest } = report;
  const record = await updateTrustStore(report.store, (data) => {
    const prev = data.workspaces[report.workspace.identity];
    const next: TrustRecord = {
      path: report.workspace.dir,
      workspaceTrustedAt: prev?.workspaceTrustedAt ?? now,
      ...(opts.workspaceOnly || !config || !digest ? (prev?.hooks ? { hooks: prev.hooks } : {}) : { hooks: { digest, trustedAt: now, config } }),
    };
    data.workspaces[report.workspace.identity] = next;
    return next;
  });
  return { identity: report.workspace.identity, ...(record.hooks ? { digest: record.hooks.digest } : {}), workspaceOnly: !!opts.workspaceOnly, record };
}

/**
 * Remove a workspace's record (workspace and hook trust). With `expectedDigest`, refuses
 * (TrustRefusedError) unless that is the digest currently trusted — the trust changed since it
 * was shown. Returns the removed record, or undefined when there was none.
 */
export async function revokeWorkspace(opts: { workspaceDir: string; storePath?: string; expectedDigest?: string; homeDir?: string }): Promise<{ identity: string; removed?: TrustRecord }> {
  const workspace = await resolveWorkspace(opts.workspaceDir);
  const storePath = opts.storePath ?? defaultTrustStorePath(process.env, opts.homeDir ?? os.homedir());
  const removed = await updateTrustStore(storePath, (data) => {
    const rec = data.workspaces[workspace.identity];
    if (opts.expectedDigest !== undefined && rec?.hooks?.digest !== opts.expectedDigest) {
      throw new TrustRefusedError(
        `refusing to revoke ${workspace.dir}: the trusted digest is ${rec?.hooks?.digest ?? 'none'}, not ${opts.expectedDigest} — the trust changed since it was shown`,
      );
    }
    delete data.workspaces[workspace.identity];
    return rec;
  });
  return { identity: workspace.identity, ...(removed ? { removed } : {}) };
}
