/**
 * HookManager: binds a frozen config snapshot to each session.
 *
 * - A session is keyed by its id. Its source project and its worktree(s) are aliases
 *   (sessionId, dir) of one session state, so pausing through either pauses both, while another
 *   session on the same workspace has its own state and is unaffected. dispose(sessionId)
 *   removes every alias of that id.
 * - Project configs are cached in an LRU (64 by default). A session holds its own snapshot, so
 *   eviction, invalidation or a changed file never alters an active session; `rebind` is the
 *   one explicit way to move a session to the current config.
 * - Process disabled, config disabled (managed disableAllHooks) or session paused: every event
 *   returns its pass-through default (emptyDecision) without reaching the engine.
 * - startSession runs SessionStart first: `continue:false` refuses the session; CLAUDE_ENV_FILE
 *   variables are merged into the session env, which is then frozen before any later hook.
 * - Skills (`addSkill`) stay registered for the rest of the session, `once` hooks run once;
 *   subagent hooks (`withAgent`) exist only while the subagent runs.
 * See docs/sessions.md.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../config/load.js';
import { dedupeHooks, isManagedHook } from '../config/registry.js';
import { loadFrontmatterHooks, type FrontmatterHooks } from '../config/frontmatter.js';
import {
  createHookEngine,
  emptyDecision,
  InvalidHookInputError,
  type FunctionHookRegistration,
  type HookEngine,
  type HookEngineOptions,
  type RunContext,
} from '../engine/engine.js';
import { buildPlanIndex, planHooks, type PlanIndex } from '../engine/plan.js';
import { isEventName, type EventName } from '../events/catalog.js';
import { permissionModeOf, skipsInPlanMode } from '../events/facts.js';
import { engineOptionsFromConfig } from '../load/engine-options.js';
import type { Decision } from '../reduce/reduce.js';
import { assessTrust, defaultNeedsTrust, loadTrustedConfig, type TrustOptions, type TrustReport } from '../trust/index.js';
import type { Diagnostic, NormalizedHook, SessionSnapshot } from '../types.js';

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
export type TrustGate = (hooks: readonly NormalizedHook[], projectDir: string) => GateResult | Promise<GateResult>;

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
   * untrusted, modified or unreadable → skipped with a warning), and skill/agent files inside the
   * workspace need workspace trust. `workspaceDir` is each session's project.
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

/** Real path when the directory exists (so /tmp and /private/tmp are one alias), else resolved. */
export function canonicalDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Deep-frozen copy of plain data; functions and non-plain objects (class instances) are kept by reference. */
function frozenCopy<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((v) => frozenCopy(v, depth + 1))) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = frozenCopy(v, depth + 1);
  return Object.freeze(out) as T;
}

const aliasKey = (sessionId: string, dir: string) => `${sessionId}\0${dir}`;
const isOnce = (h: NormalizedHook) => h.source.kind === 'skill' && h.handler.once === true;

interface ManagerFunctionHook {
  reg: FunctionHookRegistration;
  /** Canonical projectDir restriction. */
  dir?: string;
}

interface SessionState {
  id: string;
  projectDir: string;
  canonicalProject: string;
  worktreeDir?: string;
  aliases: Set<string>;
  model?: string;
  env: Record<string, string>;
  /** The engine option of the same name: `once` planning must skip what the engine skips. */
  skipToolHooksInPlanMode: boolean;
  snapshot: SessionConfigSnapshot;
  skills: Map<string, SkillRegistration>;
  agents: Set<SkillRegistration>;
  spentOnce: Set<string>;
  effective: readonly NormalizedHook[];
  onceIndex: PlanIndex | undefined;
  engine: HookEngine;
  /** Frozen session resources handed to backends with every firing (prompt hooks: model, env). */
  resources: SessionSnapshot;
  homeDir: string;
  paused: boolean;
  ready: boolean;
  disposed: boolean;
  /** Unregister functions of manager-level function hooks in this session's engine. */
  managerHooks: Map<ManagerFunctionHook, () => void>;
  handle: SessionHandle;
}

interface ProjectEntry {
  config: LoadedConfig;
  trust?: TrustReport;
}

export function createHookManager(options: HookManagerOptions = {}): HookManager {
  const max = options.projectCacheSize ?? DEFAULT_PROJECT_CACHE_SIZE;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`projectCacheSize must be a positive integer, got ${String(max)}`);
  if (options.load && (options.trust || options.loadOptions)) {
    throw new TypeError('createHookManager: `load` replaces the built-in loader; use `loadOptions` with `trust`, or gate inside your own `load`');
  }
  const loadOptions = options.loadOptions ?? ((projectDir: string) => ({ cwd: projectDir, projectDir }));
  const trustFor = (projectDir: string): TrustOptions => ({ ...options.trust, workspaceDir: projectDir });
  const load = async (projectDir: string): Promise<ProjectEntry> => {
    if (options.load) return { config: await options.load(projectDir) };
    if (options.trust) return loadTrustedConfig(loadOptions(projectDir), trustFor(projectDir));
    return { config: await loadConfig(loadOptions(projectDir)) };
  };
  const warn = (message: string, sessionId?: string) => options.onWarning?.(message, sessionId);
  const cache = new LRUCache<string, Promise<ProjectEntry>>({ max });
  const sessions = new Map<string, SessionState>();
  const aliases = new Map<string, SessionState>();
  const functionHooks = new Set<ManagerFunctionHook>();
  let processEnabled = true;

  function projectEntry(projectDir: string): Promise<ProjectEntry> {
    const key = canonicalDir(projectDir);
    const hit = cache.get(key);
    if (hit) return hit;
    const p = Promise.resolve().then(() => load(path.resolve(projectDir)));
    cache.set(key, p);
    // A failed load is not cached: the next bind tries again.
    p.catch(() => {
      if (cache.peek(key) === p) cache.delete(key);
    });
    return p;
  }
  const projectConfig = async (projectDir: string) => (await projectEntry(projectDir)).config;

  async function gate(hooks: readonly NormalizedHook[], projectDir: string): Promise<GateResult> {
    if (!options.gate || hooks.length === 0) return { allowed: [...hooks], warnings: [] };
    try {
      const r = await options.gate(hooks, projectDir);
      return { allowed: [...r.allowed], warnings: [...r.warnings] };
    } catch (e) {
      return { allowed: [], warnings: [`hook trust gate failed for ${projectDir}; no hooks from it run: ${(e as Error)?.message ?? String(e)}`] };
    }
  }

  async function snapshotFor(projectDir: string): Promise<SessionConfigSnapshot> {
    const { config, trust } = await projectEntry(projectDir);
    const gated = await gate(config.hooks, projectDir);
    return Object.freeze({
      config: frozenCopy(config),
      hooks: frozenCopy(gated.allowed),
      warnings: Object.freeze([...(trust?.warnings ?? []), ...gated.warnings]),
      ...(trust ? { trust: frozenCopy(trust) } : {}),
    });
  }

  /**
   * Skill/agent hooks registered at runtime are not part of the trusted config digest (they are
   * registered when invoked, as in Claude Code); those from inside the workspace need workspace
   * trust, read from the store at registration time. A store error fails closed.
   */
  async function workspaceTrustGate(hooks: readonly NormalizedHook[], projectDir: string): Promise<GateResult> {
    if (!options.trust || hooks.length === 0) return { allowed: [...hooks], warnings: [] };
    const report = await assessTrust({ hooks: [] }, trustFor(projectDir));
    const trusted = report.workspaceTrusted && report.state !== 'error';
    if (trusted) return { allowed: [...hooks], warnings: [] };
    const needsTrust = options.trust.needsTrust ?? defaultNeedsTrust;
    const allowed: NormalizedHook[] = [];
    const warnings: string[] = [];
    for (const h of hooks) {
      const root = h.source.skillRoot ?? h.source.pluginRoot;
      const source = { kind: h.source.kind, file: h.source.file, ...(root !== undefined ? { skillRoot: canonicalDir(root) } : {}) };
      if (!needsTrust(source, report.workspace)) allowed.push(h);
      else warnings.push(`${h.source.file}: ${h.source.path}: ${h.source.kind} ${h.handler.type} hook skipped (${report.state === 'error' ? report.reason : 'the workspace is not trusted'}); trust the workspace first`);
    }
    return { allowed, warnings };
  }

  /** Snapshot + skills + running agents → the engine's hooks; spent `once` hooks left out. */
  function recompose(s: SessionState) {
    const all = dedupeHooks([...s.snapshot.hooks, ...[...s.skills.values()].flatMap((r) => r.hooks), ...[...s.agents].flatMap((r) => r.hooks)]);
    s.effective = Object.freeze(all.filter((h) => !s.spentOnce.has(h.id)));
    const once = s.effective.filter(isOnce);
    s.onceIndex = once.length > 0 ? buildPlanIndex(once) : undefined;
    s.engine.setHooks(s.effective);
  }

  function live(s: SessionState): SessionState {
    if (s.disposed) throw new Error(`session ${JSON.stringify(s.id)} is disposed`);
    return s;
  }

  function find(sessionId: string, dir?: string): SessionState | undefined {
    const s = dir === undefined ? sessions.get(sessionId) : aliases.get(aliasKey(sessionId, canonicalDir(dir)));
    return s?.ready ? s : undefined;
  }

  function applyFunctionHook(s: SessionState, f: ManagerFunctionHook) {
    if (f.dir !== undefined && !s.aliases.has(f.dir)) return;
    const { projectDir: _only, ...reg } = f.reg;
    s.managerHooks.set(f, s.engine.register(reg));
  }

  /** Frontmatter hooks → gated, policy-checked registration. */
  async function frontmatterFor(s: SessionState, file: string, kind: 'skill' | 'agent'): Promise<SkillRegistration> {
    const fm: FrontmatterHooks = await loadFrontmatterHooks(file, { kind, cwd: s.worktreeDir ?? s.projectDir });
    const warnings: string[] = [];
    let hooks = fm.hooks;
    const cfg = s.snapshot.config;
    // Frontmatter hooks are never managed: policy that removes non-managed hooks removes them too.
    if (hooks.length > 0 && (cfg.disabled.nonManaged || cfg.managedOnly)) {
      warnings.push(`${kind} ${fm.name}: its hooks are not registered (${cfg.managedOnly ? 'allowManagedHooksOnly' : 'disableAllHooks'} is in force)`);
      hooks = hooks.filter(isManagedHook);
    }
    const trusted = await workspaceTrustGate(hooks, s.projectDir);
    const gated = await gate(trusted.allowed, s.projectDir);
    warnings.push(...trusted.warnings, ...gated.warnings);
    for (const w of warnings) warn(w, s.id);
    for (const d of fm.diagnostics) if (d.level === 'error') warn(`${d.file ?? file}: ${d.path}: ${d.message}`, s.id);
    return { name: fm.name, file: fm.file, root: fm.root, hooks: frozenCopy(gated.allowed), diagnostics: fm.diagnostics, warnings };
  }

  async function run(s: SessionState, event: EventName, input: Record<string, unknown>, ctx: RunContext = {}): Promise<Decision> {
    live(s);
    if (!isEventName(event)) throw new InvalidHookInputError(String(event), 'unknown event');
    if (!processEnabled || s.snapshot.config.disabled.all || s.paused) return emptyDecision(event);

    // `once`: find the once-hooks this firing will run and retire them as soon as the engine has
    // planned (synchronously, inside run()), so a concurrent firing cannot run them again.
    const spent = s.onceIndex ? plannedOnce(s, event, input, ctx) : [];
    const pending = s.engine.run(event, input, { sessionId: s.id, session: s.resources, ...ctx });
    if (spent.length > 0) {
      for (const h of spent) s.spentOnce.add(h.id);
      recompose(s);
    }
    try {
      return await pending;
    } catch (e) {
      // Invalid input: nothing ran, so the once-hooks are not spent.
      if (spent.length > 0 && e instanceof InvalidHookInputError && !s.disposed) {
        for (const h of spent) s.spentOnce.delete(h.id);
        recompose(s);
      }
      throw e;
    }
  }

  function plannedOnce(s: SessionState, event: EventName, input: Record<string, unknown>, ctx: RunContext): NormalizedHook[] {
    const mode = permissionModeOf(ctx.permissionMode, input);
    if (s.skipToolHooksInPlanMode && skipsInPlanMode(event, mode)) return [];
    const cwd = ctx.cwd ?? (typeof input.cwd === 'string' && input.cwd ? input.cwd : (s.worktreeDir ?? s.projectDir));
    return planHooks(s.onceIndex!, event, input, { cwd, homeDir: s.homeDir, projectDir: s.projectDir, ...(ctx.onlyHooks ? { only: ctx.onlyHooks } : {}) }).map((p) => p.hook);
  }

  async function createState(opts: BindOptions): Promise<SessionState> {
    if (typeof opts.sessionId !== 'string' || opts.sessionId === '') throw new TypeError('bindSession: sessionId must be a non-empty string');
    if (typeof opts.projectDir !== 'string' || opts.projectDir === '') throw new TypeError('bindSession: projectDir must be a non-empty string');
    if (sessions.has(opts.sessionId)) throw new Error(`session ${JSON.stringify(opts.sessionId)} is already bound; dispose it first or use rebind()`);
    const projectDir = path.resolve(opts.projectDir);
    const worktreeDir = opts.worktreeDir !== undefined ? path.resolve(opts.worktreeDir) : undefined;
    // Reserve the id before the first await, so two concurrent binds of one id cannot both succeed.
    const placeholder = { id: opts.sessionId, ready: false, disposed: false } as SessionState;
    sessions.set(opts.sessionId, placeholder);
    let snapshot: SessionConfigSnapshot;
    try {
      snapshot = await snapshotFor(projectDir);
    } catch (e) {
      sessions.delete(opts.sessionId);
      throw e;
    }
    for (const w of snapshot.warnings) warn(w, opts.sessionId);

    // `env` is the session's environment for its tools: the host's explicit env, plus what
    // SessionStart hooks export through CLAUDE_ENV_FILE (startSession), frozen before anything
    // else runs. Hooks get the host's explicit env only: as in Claude Code, the exports reach later
    // Bash commands, not later hooks (one project hook cannot set PATH for every other hook).
    const env: Record<string, string> = { ...(opts.env ?? {}) };
    const hookEnv: Record<string, string> = Object.freeze({ ...(opts.env ?? {}) });
    const info: SessionInfo = { sessionId: opts.sessionId, projectDir, ...(worktreeDir ? { worktreeDir } : {}), ...(opts.model !== undefined ? { model: opts.model } : {}), env };
    const host = typeof options.engineOptions === 'function' ? options.engineOptions(info) : (options.engineOptions ?? {});
    const engineOptions: HookEngineOptions = {
      ...engineOptionsFromConfig(snapshot.config),
      ...definedOnly(host as Record<string, unknown>),
      hooks: [],
      projectDir,
      cwd: worktreeDir ?? projectDir,
      sessionId: opts.sessionId,
      sessionEnv: hookEnv,
    };
    if (!host.onWarning && options.onWarning) engineOptions.onWarning = (m) => warn(m, opts.sessionId);
    const engine = createHookEngine(engineOptions);

    const canonicalProject = canonicalDir(projectDir);
    const state: SessionState = {
      id: opts.sessionId,
      projectDir,
      canonicalProject,
      ...(worktreeDir ? { worktreeDir } : {}),
      aliases: new Set([canonicalProject, ...(worktreeDir ? [canonicalDir(worktreeDir)] : [])]),
      ...(opts.model !== undefined ? { model: opts.model } : {}),
      env,
      snapshot,
      skills: new Map(),
      agents: new Set(),
      spentOnce: new Set(),
      effective: [],
      onceIndex: undefined,
      engine,
      resources: Object.freeze({ sessionId: opts.sessionId, ...(opts.model !== undefined ? { model: opts.model } : {}), env }),
      homeDir: host.homeDir ?? homedir(),
      skipToolHooksInPlanMode: engineOptions.skipToolHooksInPlanMode === true,
      paused: false,
      ready: false,
      disposed: false,
      managerHooks: new Map(),
      handle: undefined as unknown as SessionHandle,
    };
    state.handle = makeHandle(state);
    sessions.set(state.id, state);
    for (const dir of state.aliases) aliases.set(aliasKey(state.id, dir), state);
    recompose(state);
    for (const f of functionHooks) applyFunctionHook(state, f);
    return state;
  }

  function makeHandle(s: SessionState): SessionHandle {
    const enterAgent = async (file: string): Promise<AgentScope> => {
      const reg = await frontmatterFor(live(s), file, 'agent');
      live(s).agents.add(reg);
      recompose(s);
      return {
        ...reg,
        exit() {
          if (s.agents.delete(reg) && !s.disposed) recompose(s);
        },
      };
    };
    return {
      id: s.id,
      projectDir: s.projectDir,
      ...(s.worktreeDir ? { worktreeDir: s.worktreeDir } : {}),
      get env() {
        return s.env;
      },
      ...(s.model !== undefined ? { model: s.model } : {}),
      get snapshot() {
        return s.snapshot;
      },
      get paused() {
        return s.paused;
      },
      get disposed() {
        return s.disposed;
      },
      hooks: (event) => (event ? s.effective.filter((h) => h.event === event) : [...s.effective]),
      run: (event, input, ctx) => run(s, event, input, ctx),
      pause() {
        live(s).paused = true;
      },
      resume() {
        live(s).paused = false;
      },
      register: (reg) => live(s).engine.register(reg),
      async addSkill(file) {
        const existing = live(s).skills.get(path.resolve(s.worktreeDir ?? s.projectDir, file));
        if (existing) return existing;
        const reg = await frontmatterFor(s, file, 'skill');
        live(s);
        if (!s.skills.has(reg.file)) {
          s.skills.set(reg.file, reg);
          recompose(s);
        }
        return s.skills.get(reg.file)!;
      },
      enterAgent,
      async withAgent(file, fn) {
        const scope = await enterAgent(file);
        try {
          return await fn(scope);
        } finally {
          scope.exit();
        }
      },
      drain: () => s.engine.drain(),
    };
  }

  async function dispose(sessionId: string): Promise<boolean> {
    const s = sessions.get(sessionId);
    if (!s || !s.ready) return false;
    s.disposed = true;
    s.ready = false;
    sessions.delete(sessionId);
    // Every alias of this id goes, including ones added later through addAlias.
    const prefix = `${sessionId}\0`;
    for (const key of [...aliases.keys()]) if (key.startsWith(prefix)) aliases.delete(key);
    await s.engine.close();
    return true;
  }

  const manager: HookManager = {
    async bindSession(opts) {
      const s = await createState(opts);
      Object.freeze(s.env);
      s.ready = true;
      return s.handle;
    },

    async startSession(opts) {
      const s = await createState(opts);
      let decision: Decision;
      try {
        const input = { source: opts.source ?? 'startup', ...(opts.model !== undefined ? { model: opts.model } : {}), ...opts.input };
        decision = await run(s, 'SessionStart', input, opts.ctx);
      } catch (e) {
        s.ready = true;
        await dispose(s.id);
        throw e;
      }
      if (!decision.continue) {
        s.ready = true;
        await dispose(s.id);
        return { ok: false, reason: decision.stopReason ?? 'a SessionStart hook refused the session (continue: false)', decision };
      }
      const added = decision.eventOutput.env;
      if (added && typeof added === 'object') {
        for (const [k, v] of Object.entries(added as Record<string, unknown>)) if (typeof v === 'string') s.env[k] = v;
      }
      Object.freeze(s.env);
      s.ready = true;
      return { ok: true, session: s.handle, decision };
    },

    session: (sessionId, dir) => find(sessionId, dir)?.handle,

    addAlias(sessionId, dir) {
      const s = find(sessionId);
      if (!s) return false;
      const c = canonicalDir(dir);
      s.aliases.add(c);
      aliases.set(aliasKey(sessionId, c), s);
      for (const f of functionHooks) if (f.dir === c && !s.managerHooks.has(f)) applyFunctionHook(s, f);
      return true;
    },

    aliasesOf(sessionId) {
      const prefix = `${sessionId}\0`;
      return [...aliases.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    },

    pause(sessionId, dir) {
      const s = find(sessionId, dir);
      if (s) s.paused = true;
      return s !== undefined;
    },
    resume(sessionId, dir) {
      const s = find(sessionId, dir);
      if (s) s.paused = false;
      return s !== undefined;
    },
    isPaused: (sessionId, dir) => find(sessionId, dir)?.paused ?? false,

    setProcessEnabled(enabled) {
      processEnabled = enabled;
    },
    get processEnabled() {
      return processEnabled;
    },

    register(reg) {
      const f: ManagerFunctionHook = { reg, ...(reg.projectDir !== undefined ? { dir: canonicalDir(reg.projectDir) } : {}) };
      functionHooks.add(f);
      for (const s of sessions.values()) if (s.engine && !s.disposed) applyFunctionHook(s, f);
      return () => {
        if (!functionHooks.delete(f)) return;
        for (const s of sessions.values()) {
          s.managerHooks?.get(f)?.();
          s.managerHooks?.delete(f);
        }
      };
    },

    projectConfig,
    invalidate(projectDir) {
      if (projectDir === undefined) cache.clear();
      else cache.delete(canonicalDir(projectDir));
    },

    async rebind(sessionId) {
      const s = find(sessionId);
      if (!s) throw new Error(`no bound session ${JSON.stringify(sessionId)}`);
      const snapshot = await snapshotFor(s.projectDir);
      for (const w of snapshot.warnings) warn(w, s.id);
      live(s).snapshot = snapshot;
      recompose(s);
      return s.handle;
    },

    dispose,
    async close() {
      await Promise.all([...sessions.keys()].map((id) => dispose(id)));
    },
    sessions: () => [...sessions.values()].filter((s) => s.ready).map((s) => s.id),
    cache: {
      get size() {
        return cache.size;
      },
      max,
      has: (projectDir) => cache.has(canonicalDir(projectDir)),
    },
  };
  return manager;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
