/**
 * Workspaces as the panel sees them: the trust assessment of each (the same discovery and digest
 * as `agent-hooks status`, so a digest shown here is the one `trust --digest` and dispatch
 * compute), turned into a redacted view with per-hook changes and readable diffs of the config
 * and of referenced scripts.
 */
import type { LoadConfigOptions } from '../config/load.js';
import { loadConfig } from '../config/load.js';
import {
  assessTrust,
  canonicalJson,
  describeChange,
  trustGate,
  readTrustStore,
  type CanonicalConfig,
  type CanonicalHook,
  type Change,
  type TrustOptions,
  type TrustReport,
  type TrustState,
} from '../trust/index.js';
import { rootCodec } from '../trust/digest.js';
import type { Diagnostic, HookHandler, NormalizedHook } from '../types.js';
import { lineDiff, prettyJson, type LineDiff } from './diff.js';
import { redactChange, redactHandler, redactHook, redactUrl, showableRealScript } from './redact.js';
import { readScriptCopy, readSmallFile } from './script-copies.js';

export interface WorkspaceLoadOptions {
  /** Load options per workspace; default `{ cwd: dir, projectDir: dir, discover: true }` plus homeDir/managedSettingsPath. */
  loadOptions?: (dir: string) => Omit<LoadConfigOptions, 'gate'>;
  /** Trust options (store, home, needsTrust) for every workspace. */
  trust?: Partial<Omit<TrustOptions, 'workspaceDir'>>;
  homeDir?: string;
  managedSettingsPath?: string;
}

export interface Assessment {
  report: TrustReport;
  /** The hooks the gate saw, in the order of `report.hooks` (full handlers, for the view). */
  hooks: readonly NormalizedHook[];
  diagnostics: Diagnostic[];
}

/**
 * Load a workspace's config through the trust gate, exactly like `agent-hooks status`
 * (loadTrustedConfig), keeping the hooks the gate saw so the view can show whole handlers.
 */
export async function assessWorkspace(dir: string, opts: WorkspaceLoadOptions): Promise<Assessment> {
  const load = opts.loadOptions?.(dir) ?? {
    cwd: dir,
    projectDir: dir,
    discover: true,
    ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
    ...(opts.managedSettingsPath !== undefined ? { managedSettingsPath: opts.managedSettingsPath } : {}),
  };
  const homeDir = opts.trust?.homeDir ?? opts.homeDir ?? load.homeDir;
  const trustOptions: TrustOptions = { ...opts.trust, ...(homeDir !== undefined ? { homeDir } : {}), workspaceDir: dir };
  const { gate, report } = trustGate(trustOptions);
  let seen: readonly NormalizedHook[] = [];
  const config = await loadConfig({
    ...load,
    gate: (input) => {
      seen = input.hooks;
      return gate(input);
    },
  });
  const trust = report() ?? (await assessTrust({ hooks: [] }, trustOptions));
  if (!report()) seen = [];
  return { report: trust, hooks: seen, diagnostics: config.diagnostics };
}

interface ChangeView extends Change {
  description: string;
}

/** What a hook runs, exactly (secrets hidden). */
interface RunView {
  kind: 'command' | 'url' | 'prompt' | 'mcp_tool' | 'function';
  text: string;
  args?: string[];
  shell?: string;
}

interface HookView {
  id: string;
  event: string;
  matcher?: string;
  type: HookHandler['type'];
  source: { kind: string; file?: string; path: string; pluginName?: string; skillName?: string; managed?: boolean };
  needsTrust: boolean;
  state: TrustState;
  /** false: switched off with `"enabled": false`; shown, never run. */
  enabled: boolean;
  run: RunView;
  /** The other handler fields (timeout, if, async, env names, header names, …), secrets hidden. */
  details: Record<string, unknown>;
  changes: ChangeView[];
  /** The hook's config, trusted vs now (for changed and new hooks). */
  diff?: LineDiff;
  scripts: string[];
  /** Why what the hook executes cannot be determined; trusting needs `allowUnpinned`. */
  unpinned: string[];
  /** Pinned paths outside the workspace. */
  outside: string[];
  errors: string[];
}

interface ScriptView {
  path: string;
  current: string;
  trusted?: string;
  changed: boolean;
  /** Content diff (trusted vs now; all-added when never trusted). */
  diff?: LineDiff;
  /** Why there is no diff. */
  note?: string;
}

export interface WorkspaceView {
  dir: string;
  identity: string;
  root: string;
  workspaceTrusted: boolean;
  state: TrustState;
  reason: string;
  digest?: string;
  trustedDigest?: string;
  trustedAt?: string;
  store: string;
  hooks: HookView[];
  /** Trusted hooks that are gone now (secrets hidden). */
  removed: Array<{ event: string; matcher?: string; type: string; source: { kind: string; file?: string; path: string }; run: RunView }>;
  settingsChanges: ChangeView[];
  scripts: ScriptView[];
  /** Gated hooks that are unpinned: the trust request must say `allowUnpinned: true`. */
  unpinned: Array<{ id: string; reasons: string[] }>;
  /** The whole gated config, trusted vs now. */
  configDiff?: LineDiff;
  errors: string[];
  diagnostics: Diagnostic[];
}

function runOf(h: Record<string, unknown>): RunView {
  switch (h.type) {
    case 'command':
      return {
        kind: 'command',
        text: String(h.command),
        ...(Array.isArray(h.args) ? { args: (h.args as unknown[]).map(String) } : {}),
        ...(typeof h.shell === 'string' ? { shell: h.shell } : {}),
      };
    case 'http':
      return { kind: 'url', text: redactUrl(String(h.url)) };
    case 'mcp_tool':
      return { kind: 'mcp_tool', text: `${String(h.server)} / ${String(h.tool)}` };
    case 'function':
      return { kind: 'function', text: String(h.name ?? 'function') };
    default:
      return { kind: 'prompt', text: String(h.prompt ?? '') };
  }
}

const RUN_FIELDS = new Set(['type', 'command', 'args', 'shell', 'url', 'prompt', 'name', 'fn']);

function detailsOf(handler: HookHandler): Record<string, unknown> {
  const red = redactHandler(handler as unknown as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(red)) if (!RUN_FIELDS.has(k) && v !== undefined) out[k] = v;
  return out;
}

/** A canonical hook as shown in a diff: paths decoded, secrets hidden, stable field order. */
function displayHook(h: CanonicalHook, decode: (s: string) => string): Record<string, unknown> {
  const handler = redactHandler(h.handler);
  if (typeof handler.command === 'string') handler.command = decode(handler.command);
  if (Array.isArray(handler.args)) handler.args = (handler.args as unknown[]).map((a) => (typeof a === 'string' ? decode(a) : a));
  const src: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(h.source)) src[k] = typeof v === 'string' && k !== 'kind' && k !== 'path' ? decode(v) : v;
  // Sorted keys: the stored and the fresh canonical config may list keys in different orders.
  return JSON.parse(
    canonicalJson({ event: h.event, ...(h.matcher !== undefined ? { matcher: h.matcher } : {}), handler, source: src }),
  ) as Record<string, unknown>;
}

function displayConfig(c: CanonicalConfig, decode: (s: string) => string): Record<string, unknown> {
  return {
    hooks: c.hooks.map((h) => displayHook(h, decode)),
    settings: c.settings.map((s) => ({ kind: s.kind, file: decode(s.file), settings: s.settings })),
    scripts: Object.fromEntries(Object.entries(c.scripts).map(([k, v]) => [decode(k), v])),
  };
}

const isBinary = (b: Buffer) => b.subarray(0, 8192).includes(0);

async function scriptView(
  s: TrustReport['scripts'][number],
  opts: { root: string; copiesDir?: string; neverTrusted: boolean },
): Promise<ScriptView> {
  const changed = s.trusted !== undefined ? s.trusted !== s.current : true;
  const base: ScriptView = { path: s.path, current: s.current, ...(s.trusted !== undefined ? { trusted: s.trusted } : {}), changed };
  if (!changed) return base;
  if (!(await showableRealScript(s.path, opts.root)))
    return { ...base, note: 'outside the workspace or looks like secret material: content not shown' };
  if (s.current === 'error') return { ...base, note: s.error ?? 'unreadable' };

  let after = '';
  if (s.current.startsWith('sha256:')) {
    const buf = await readSmallFile(s.path);
    if (!buf) return { ...base, note: 'too large to show' };
    if (isBinary(buf)) return { ...base, note: 'binary file' };
    after = buf.toString('utf8');
  } else if (s.current !== 'missing') {
    return { ...base, note: `now a ${s.current}` };
  }

  let before = '';
  if (s.trusted?.startsWith('sha256:')) {
    const copy = opts.copiesDir ? await readScriptCopy(s.trusted, opts.copiesDir) : undefined;
    if (!copy) return { ...base, note: 'the trusted content was not kept (trusted before serve saw it); only the hashes differ' };
    if (isBinary(copy)) return { ...base, note: 'binary file' };
    before = copy.toString('utf8');
  }
  const diff = lineDiff(before, after);
  if (!diff) return { ...base, note: 'too large to diff' };
  return { ...base, diff, ...(opts.neverTrusted ? { note: 'never trusted: the whole file is shown' } : {}) };
}

/** Build the panel's view of an assessed workspace. Never throws for content problems. */
export async function workspaceView(a: Assessment, opts: { copiesDir?: string } = {}): Promise<WorkspaceView> {
  const r = a.report;
  const { decode } = rootCodec(r.workspace.root);
  const trustedConfig = await trustedConfigOf(r);
  const current = r.config;
  const hookDiffs = current && trustedConfig ? hookDiffsOf(r, current, trustedConfig, decode) : new Map<number, LineDiff>();
  const hooks: HookView[] = r.hooks.map((h, i) => hookView(a, h, i, hookDiffs.get(i)));

  const neverTrusted = r.trustedDigest === undefined;
  const scripts = await Promise.all(
    r.scripts.map((s) => scriptView(s, { root: r.workspace.root, ...(opts.copiesDir ? { copiesDir: opts.copiesDir } : {}), neverTrusted })),
  );

  let configDiff: LineDiff | undefined;
  if (current && trustedConfig && r.state === 'modified') {
    configDiff = lineDiff(prettyJson(displayConfig(trustedConfig, decode)), prettyJson(displayConfig(current, decode)));
  }

  return {
    dir: r.workspace.dir,
    identity: r.workspace.identity,
    root: r.workspace.root,
    workspaceTrusted: r.workspaceTrusted,
    state: r.state,
    reason: r.reason,
    ...(r.digest ? { digest: r.digest } : {}),
    ...(r.trustedDigest ? { trustedDigest: r.trustedDigest, trustedAt: r.trustedAt } : {}),
    store: r.store,
    hooks,
    removed: r.removed.map((h) => removedView(h, decode)),
    settingsChanges: r.settingsChanges.map((c) => ({ ...c, description: describeChange(c) })),
    scripts,
    unpinned: r.unpinned,
    ...(configDiff ? { configDiff } : {}),
    errors: r.errors,
    diagnostics: a.diagnostics,
  };
}

/** The trusted configuration the report was assessed against, when the store still has it. */
async function trustedConfigOf(r: TrustReport): Promise<CanonicalConfig | undefined> {
  try {
    const rec = (await readTrustStore(r.store)).workspaces[r.workspace.identity];
    // Only the record this report was assessed against: a newer one would misattribute the changes.
    if (rec?.hooks && rec.hooks.digest === r.trustedDigest) return rec.hooks.config;
  } catch {
    // the report already carries the store error
  }
  return undefined;
}

/** Per gated hook (by its index in the report): an added hook in full, a changed one against its trusted form. */
function hookDiffsOf(
  r: TrustReport,
  current: CanonicalConfig,
  trustedConfig: CanonicalConfig,
  decode: (s: string) => string,
): Map<number, LineDiff> {
  const gatedIdx: number[] = [];
  r.hooks.forEach((h, i) => {
    if (h.needsTrust) gatedIdx.push(i);
  });
  const hookDiffs = new Map<number, LineDiff>();
  // The canonical config holds only the gated hooks, in report order: the gi-th of them is report hook i.
  gatedIdx.forEach((i, gi) => {
    const st = r.hooks[i]!;
    const cur = current.hooks[gi];
    if (!cur) return;
    if (st.changes.some((c) => c.kind === 'added')) {
      const d = lineDiff('', prettyJson(displayHook(cur, decode)));
      if (d) hookDiffs.set(i, d);
    } else if (st.changes.some((c) => c.kind === 'config')) {
      const old = trustedConfig.hooks.find((t) => t.source.file === cur.source.file && t.source.path === cur.source.path);
      if (old) {
        const d = lineDiff(prettyJson(displayHook(old, decode)), prettyJson(displayHook(cur, decode)));
        if (d) hookDiffs.set(i, d);
      }
    }
  });
  return hookDiffs;
}

function hookView(a: Assessment, h: TrustReport['hooks'][number], i: number, diff: LineDiff | undefined): HookView {
  const handler = a.hooks[i]?.id === h.id ? a.hooks[i]!.handler : undefined;
  const changes = h.changes.map(redactChange).map((c) => ({ ...c, description: describeChange(c) }));
  return {
    id: h.id,
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    type: h.type,
    source: {
      kind: h.source.kind,
      ...(h.source.file !== undefined ? { file: h.source.file } : {}),
      path: h.source.path,
      ...(h.source.pluginName !== undefined ? { pluginName: h.source.pluginName } : {}),
      ...(h.source.skillName !== undefined ? { skillName: h.source.skillName } : {}),
      ...(h.source.managed ? { managed: true } : {}),
    },
    needsTrust: h.needsTrust,
    state: h.state,
    enabled: h.enabled,
    run: handler ? runOf(handler as unknown as Record<string, unknown>) : { kind: 'function', text: h.type },
    details: handler ? detailsOf(handler) : {},
    changes,
    ...(diff !== undefined ? { diff } : {}),
    scripts: h.scripts,
    unpinned: h.unpinned,
    outside: h.outside,
    errors: h.errors,
  };
}

function removedView(h: TrustReport['removed'][number], decode: (s: string) => string): WorkspaceView['removed'][number] {
  const shown = displayHook(redactHook(h), decode) as {
    source: { kind: string; file?: string; path: string };
    handler: Record<string, unknown>;
  };
  return {
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    type: String(h.handler.type),
    source: shown.source,
    run: runOf(shown.handler),
  };
}
