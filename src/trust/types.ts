/**
 * The shapes of hook trust: the options of an assessment, the report it gives, and the input it
 * reads. `TrustGateInput` and `GatedSource` are what a config gate hands over (config/load.ts's
 * `ConfigGateInput` and `GateSource` fit them): declared here so trust never imports config.
 */
import type { HookHandler, NormalizedHook, Provenance, SourceKind } from '../types.js';
import type { CanonicalConfig, CanonicalHook, Change } from './digest.js';
import type { HashCache } from './hash.js';
import type { Workspace } from './workspace.js';

/** A settings file or hooks file, by kind (config/load.ts's GateSource). */
export interface GatedSource {
  kind: SourceKind;
  file: string;
}

/** What an assessment reads: hooks in config order and the accepted settings files (config/load.ts's ConfigGateInput). */
export interface TrustGateInput {
  hooks: readonly NormalizedHook[];
  settings?: ReadonlyArray<{ kind: SourceKind; file: string; data: object }>;
}

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
  /** false: switched off with `"enabled": false` (listed and reviewed, never run). */
  enabled: boolean;
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
  /** The hooks of the trusted config as recorded (paths encoded): what a person reviewed. */
  reviewedHooks?: CanonicalHook[];
  /** Hooks in the trusted config that are gone now. */
  removed: CanonicalHook[];
  /** Changed hook-related settings of gated files. */
  settingsChanges: Change[];
  scripts: ScriptStatus[];
  /** Gated settings files and files of gated hooks, by source kind. */
  gatedSources: GatedSource[];
  /** Sources whose hooks and settings must not apply (all gated sources unless trusted). */
  excludedSources: GatedSource[];
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
