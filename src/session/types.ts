/** The shapes of the hook manager (manager.ts): options, bind/start options, session handles, snapshots. */
import type { LoadConfigOptions, LoadedConfig } from '../config/load.js';
import type { FunctionHookRegistration, HookEngineOptions, RunContext } from '../engine/engine.js';
import type { EventName } from '../events/catalog.js';
import type { Decision } from '../reduce/reduce.js';
import type { TrustOptions, TrustReport } from '../trust/index.js';
import type { Diagnostic, NormalizedHook } from '../types.js';

export const DEFAULT_PROJECT_CACHE_SIZE = 64;

/** Result of a trust gate: the hooks that may run, and why others may not. */
export interface GateResult {
  allowed: NormalizedHook[];
  warnings: string[];
}
/**
 * Decides which external hooks of a project may run (hook trust). Called for every snapshot
 * (bind, rebind) and for every skill/agent file added to a session; never for function hooks.
 * A gate that throws lets nothing through (fail closed) and warns.
 */
type TrustGate = (hooks: readonly NormalizedHook[], projectDir: string) => GateResult | Promise<GateResult>;

/** Engine options a host may set; the manager owns hooks, directories, session id and env. */
export type SessionEngineOptions = Omit<HookEngineOptions, 'hooks' | 'projectDir' | 'cwd' | 'sessionId' | 'sessionEnv' | 'disabled'>;

export interface SessionInfo {
  sessionId: string;
  projectDir: string;
  worktreeDir?: string;
  /** Model for prompt hooks, frozen at bind (a resumed session keeps its model). */
  model?: string;
  /** The session env; filled by SessionStart during startSession, frozen before any other hook runs. */
  env: Readonly<Record<string, string>>;
}

export interface HookManagerOptions {
  /** Project config loader. Default: loadConfig(loadOptions(projectDir)). Not combinable with `trust` or `loadOptions`. */
  load?: (projectDir: string) => Promise<LoadedConfig>;
  /** Options of the built-in loader. Default: { cwd: projectDir, projectDir } (user, project, local, managed settings). */
  loadOptions?: (projectDir: string) => Omit<LoadConfigOptions, 'gate'>;
  /**
   * Hook trust (src/trust): project configs load through loadTrustedConfig (gated before dedup;
   * untrusted, modified or unreadable → skipped with a warning), and the frontmatter hooks of
   * skill/agent files inside the workspace run only as reviewed (assessed again when registered;
   * changed since the review → they fail closed). `workspaceDir` is each session's project.
   */
  trust?: Partial<Omit<TrustOptions, 'workspaceDir'>>;
  /** Engine options for every session; a function gets the session (e.g. to build a prompt backend on its frozen model). */
  engineOptions?: SessionEngineOptions | ((session: SessionInfo) => SessionEngineOptions);
  /** Hook trust gate; without one every loaded hook enters the snapshot. */
  gate?: TrustGate;
  /** Bound of the project config cache (default 64). */
  projectCacheSize?: number;
  /** Manager warnings (gate, skills); also the engines' onWarning unless engineOptions sets one. */
  onWarning?: (message: string, sessionId?: string) => void;
}

export interface BindOptions {
  sessionId: string;
  /** The source project: its config is loaded, and it is CLAUDE_PROJECT_DIR. */
  projectDir: string;
  /** The session's worktree: an alias sharing the session's pause state, and the hooks' default cwd. */
  worktreeDir?: string;
  /** Explicit environment for the session's command hooks (frozen). */
  env?: Record<string, string>;
  model?: string;
}

export interface StartOptions extends BindOptions {
  /** SessionStart `source` (default "startup"). */
  source?: string;
  /** Extra SessionStart input fields. */
  input?: Record<string, unknown>;
  ctx?: RunContext;
}

export type StartResult =
  | { ok: true; session: SessionHandle; decision: Decision }
  /** A SessionStart hook returned `continue: false`: the session is not bound. */
  | { ok: false; reason: string; decision: Decision };

/** The frozen config a session was bound with. */
export interface SessionConfigSnapshot {
  /** The config as loaded (deep-frozen copy), before the trust gate. */
  readonly config: LoadedConfig;
  /** Hooks admitted by the gate (deep-frozen): what this session runs from config. */
  readonly hooks: readonly NormalizedHook[];
  /** Trust and gate warnings (why hooks were left out). */
  readonly warnings: readonly string[];
  /** The trust assessment the config was loaded with (when the manager has `trust`). */
  readonly trust?: TrustReport;
}

export interface SkillRegistration {
  name: string;
  file: string;
  root: string;
  /** Hooks registered (after the gate and policy). */
  hooks: readonly NormalizedHook[];
  diagnostics: Diagnostic[];
  warnings: string[];
}

export interface AgentScope extends SkillRegistration {
  /** Remove the subagent's hooks (idempotent). */
  exit(): void;
}

export interface SessionHandle {
  readonly id: string;
  readonly projectDir: string;
  readonly worktreeDir?: string;
  /** Frozen session env (bind env + SessionStart's CLAUDE_ENV_FILE variables); give it to the host's own subprocesses. */
  readonly env: Readonly<Record<string, string>>;
  readonly model?: string;
  readonly snapshot: SessionConfigSnapshot;
  readonly paused: boolean;
  readonly disposed: boolean;
  /** Effective hooks now: snapshot + skills + running agents, deduped, minus spent `once` hooks (function hooks excluded). */
  hooks(event?: EventName): NormalizedHook[];
  run(event: EventName, input: Record<string, unknown>, ctx?: RunContext): Promise<Decision>;
  pause(): void;
  resume(): void;
  /** Session-scoped function hook; returns its unregister function. */
  register(reg: FunctionHookRegistration): () => void;
  /** Register a skill's frontmatter hooks for the rest of the session (again for the same file: no-op). */
  addSkill(file: string): Promise<SkillRegistration>;
  /** Register a subagent's frontmatter hooks (Stop → SubagentStop) until `exit()`. */
  enterAgent(file: string): Promise<AgentScope>;
  /** enterAgent, run fn (fire the subagent's events, SubagentStop included, inside), then exit. */
  withAgent<T>(file: string, fn: (scope: AgentScope) => T | Promise<T>): Promise<T>;
  /** Wait for the session's background (async) hooks. */
  drain(): Promise<void>;
}

export interface HookManager {
  bindSession(opts: BindOptions): Promise<SessionHandle>;
  startSession(opts: StartOptions): Promise<StartResult>;
  /** The session by id, or by the alias (sessionId, dir) where dir is its project or a worktree. */
  session(sessionId: string, dir?: string): SessionHandle | undefined;
  /** Add a directory (e.g. a worktree created later) as an alias of the session. */
  addAlias(sessionId: string, dir: string): boolean;
  /** Canonical directories registered as aliases of this session id ([] once disposed). */
  aliasesOf(sessionId: string): string[];
  /** Pause a session, named by id or by one of its aliases. False when no such session/alias. */
  pause(sessionId: string, dir?: string): boolean;
  resume(sessionId: string, dir?: string): boolean;
  isPaused(sessionId: string, dir?: string): boolean;
  /** Process-level host switch (default enabled). */
  setProcessEnabled(enabled: boolean): void;
  readonly processEnabled: boolean;
  /** Function hook for every session, now and later; with projectDir only sessions on that project (or worktree). */
  register(reg: FunctionHookRegistration): () => void;
  /** The project's config through the LRU cache. */
  projectConfig(projectDir: string): Promise<LoadedConfig>;
  /** Drop a project's cached config (all when omitted). Bound sessions keep their snapshots. */
  invalidate(projectDir?: string): void;
  /** Re-snapshot a session from the current project config; env, pause, aliases, skills and spent `once` hooks are kept. */
  rebind(sessionId: string): Promise<SessionHandle>;
  /** Close the session's engine (waits for its async hooks) and remove every alias of its id. */
  dispose(sessionId: string): Promise<boolean>;
  /** Dispose every session. */
  close(): Promise<void>;
  sessions(): string[];
  readonly cache: { readonly size: number; readonly max: number; has(projectDir: string): boolean };
}
