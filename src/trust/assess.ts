/**
 * The assessment: selection (selection.ts), evidence (evidence.ts), digest (digest.ts) and report
 * (report.ts) in the order that matters, plus the two ways to apply it to a list of hooks.
 */
import { userHome } from '../util/os-dirs.js';
import { canonicalHook, diffConfigs, digestOf, rootCodec, type CanonicalConfig, type CanonicalHook } from './digest.js';
import { gatherScripts, readStoreRecord, type ScriptEvidence } from './evidence.js';
import { hookStatuses, howToTrust, scriptStatuses, skippedHooks, skipWarnings, verdictOf } from './report.js';
import { defaultNeedsTrust, selectGated } from './selection.js';
import { defaultTrustStorePath } from './store.js';
import type { TrustEvaluation, TrustGateInput, TrustOptions, TrustReport } from './types.js';
import { resolveWorkspace } from './workspace.js';
import type { NormalizedHook } from '../types.js';

/** The canonical config the digest covers; undefined when a referenced script cannot be read. */
function canonicalConfigOf(
  hooks: readonly NormalizedHook[],
  gated: readonly boolean[],
  ev: ScriptEvidence,
  settings: CanonicalConfig['settings'],
  encode: (p: string) => string,
  real: (p: string) => string,
): CanonicalConfig | undefined {
  if (ev.errors.length > 0) return undefined;
  const canonicalHooks: CanonicalHook[] = [];
  hooks.forEach((h, i) => {
    if (!gated[i]) return;
    const c = canonicalHook(h, encode, ev.hookScripts[i]!.map(encode), real);
    if (ev.hookUnpinned[i]!.length > 0) c.unpinned = ev.hookUnpinned[i]!.map(encode);
    canonicalHooks.push(c);
  });
  return { version: 1, hooks: canonicalHooks, settings, scripts: ev.scripts };
}

/** What an assessment read: the workspace, the store record, the selection and the script evidence. */
interface Gathered {
  workspace: Awaited<ReturnType<typeof resolveWorkspace>>;
  storePath: string;
  encode: (p: string) => string;
  decode: (p: string) => string;
  sel: Awaited<ReturnType<typeof selectGated>>;
  store: Awaited<ReturnType<typeof readStoreRecord>>;
  workspaceTrusted: boolean;
  trusted: NonNullable<Awaited<ReturnType<typeof readStoreRecord>>['record']>['hooks'] | undefined;
  ev: ScriptEvidence;
}

/**
 * Compute the trust state of a workspace's hooks. Never throws: store problems and unreadable
 * scripts become state `error` (fail closed).
 */
export async function assessTrust(input: TrustGateInput, opts: TrustOptions): Promise<TrustReport> {
  const g = await gather(input, opts);
  const { sel, ev, store, trusted } = g;
  const config = canonicalConfigOf(input.hooks, sel.gated, ev, sel.settings, g.encode, sel.real);
  const digest = config ? digestOf(config) : undefined;
  const verdict = verdictOf({
    ...(store.error ? { storeError: store.error } : {}),
    ...(ev.errors.length > 0 ? { scriptError: ev.errors[0]! } : {}),
    workspaceTrusted: g.workspaceTrusted,
    hostDecided: opts.workspaceTrusted === false,
    trusted,
    digest,
  });
  return reportOf(input, opts, g, config, digest, verdict);
}

/** Workspace, selection, store record, then the scripts: the order the store decides what is read. */
async function gather(input: TrustGateInput, opts: TrustOptions): Promise<Gathered> {
  const workspace = await resolveWorkspace(opts.workspaceDir);
  const storePath = opts.storePath ?? defaultTrustStorePath(process.env, opts.homeDir ?? userHome());
  const homeDir = opts.homeDir ?? userHome();
  const { encode, decode } = rootCodec(workspace.root);
  const sel = await selectGated(input, workspace, opts.needsTrust ?? defaultNeedsTrust, encode);

  // Store first: with `events`, the trusted config decides which hooks need not be read.
  const store = await readStoreRecord(storePath, workspace);
  const workspaceTrusted = opts.workspaceTrusted ?? store.record !== undefined;
  const trusted = store.record?.hooks;
  const ev = await gatherScripts(input.hooks, {
    workspace,
    opts,
    storePath,
    homeDir,
    gated: sel.gated,
    trusted,
    encode,
    decode,
    real: sel.real,
  });
  return { workspace, storePath, encode, decode, sel, store, workspaceTrusted, trusted, ev };
}

function reportOf(
  input: TrustGateInput,
  opts: TrustOptions,
  g: Gathered,
  config: CanonicalConfig | undefined,
  digest: string | undefined,
  verdict: ReturnType<typeof verdictOf>,
): TrustReport {
  const { workspace, sel, ev, store, trusted } = g;
  const errors = store.error ? [store.error, ...ev.errors] : [...ev.errors];
  // Equal digests mean equal configs: nothing to diff.
  const diff = trusted && config && trusted.digest !== digest ? diffConfigs(trusted.config, config, g.decode) : undefined;
  const hooks = hookStatuses(input.hooks, {
    gated: sel.gated,
    state: verdict.state,
    diff,
    hookScripts: ev.hookScripts,
    hookErrors: ev.hookErrors,
    hookUnpinned: ev.hookUnpinned,
    workspace,
  });
  const unpinnedGated = ev.hookUnpinned.some((u, i) => sel.gated[i] && u.length > 0);
  const howTo = () =>
    howToTrust({
      prog: opts.command ?? 'agent-hooks',
      workspace,
      storeError: !!store.error,
      scriptErrors: ev.errors.length > 0,
      digest,
      unpinned: unpinnedGated,
    });
  const skipped = skippedHooks(input.hooks, hooks, verdict, howTo);
  const events = opts.events ? new Set(opts.events) : undefined;

  return {
    workspace,
    store: g.storePath,
    workspaceTrusted: g.workspaceTrusted,
    state: verdict.state,
    reason: verdict.reason,
    ...(digest ? { digest } : {}),
    ...(trusted ? { trustedDigest: trusted.digest, trustedAt: trusted.trustedAt, reviewedHooks: trusted.config.hooks } : {}),
    hooks,
    removed: diff?.removed ?? [],
    settingsChanges: diff?.settings ?? [],
    scripts: scriptStatuses(ev.allRecords, ev.deferred, trusted, g.encode),
    gatedSources: [...sel.gatedSources],
    excludedSources: verdict.state === 'trusted' ? [] : [...sel.gatedSources],
    skipped,
    warnings: skipWarnings(skipped),
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
  const allowed = verifiedHooks(
    hooks.filter((_h, i) => !report.hooks[i]!.needsTrust || report.state === 'trusted'),
    report,
  );
  return {
    allowed,
    states: report.hooks,
    warnings: report.warnings,
    ...(report.digest ? { digest: report.digest } : {}),
    state: report.state,
    report,
  };
}
