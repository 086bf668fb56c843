/**
 * Binding and unbinding sessions: a session's state built on a frozen snapshot with its own
 * engine, SessionStart before the session is ready, rebind to the current config, dispose.
 */
import { userHome } from '../util/os-dirs.js';
import path from 'node:path';
import { createHookEngine, type HookEngine, type HookEngineOptions } from '../engine/engine.js';
import { memoryCounterStore } from '../engine/session-counters.js';
import { engineOptionsFromConfig } from '../load/engine-options.js';
import type { Decision } from '../reduce/reduce.js';
import { makeHandle } from './handle.js';
import { checkSessionEngineOptions } from './option-keys.js';
import { runEvent } from './run.js';
import { snapshotFor } from './snapshot.js';
import { aliasKey, applyFunctionHook, canonicalDir, find, live, recompose, type ManagerState, type SessionState } from './state.js';
import type { BindOptions, SessionConfigSnapshot, SessionHandle, SessionInfo, StartOptions, StartResult } from './types.js';

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** Reserve the id and take the snapshot; a failed load frees the id again. */
async function reserve(m: ManagerState, opts: BindOptions, projectDir: string): Promise<SessionConfigSnapshot> {
  if (m.sessions.has(opts.sessionId))
    throw new Error(`session ${JSON.stringify(opts.sessionId)} is already bound; dispose it first or use rebind()`);
  // Reserve the id before the first await, so two concurrent binds of one id cannot both succeed.
  const placeholder = { id: opts.sessionId, ready: false, disposed: false } as SessionState;
  m.sessions.set(opts.sessionId, placeholder);
  let snapshot: SessionConfigSnapshot;
  try {
    snapshot = await snapshotFor(m, projectDir);
  } catch (e) {
    m.sessions.delete(opts.sessionId);
    throw e;
  }
  for (const w of snapshot.warnings) m.warn(w, opts.sessionId);
  return snapshot;
}

/** The session's engine on its snapshot; a bad engine option (a throw) frees the reserved id again. */
function sessionEngine(
  m: ManagerState,
  info: SessionInfo,
  snapshot: SessionConfigSnapshot,
  hookEnv: Record<string, string>,
): { engine: HookEngine; engineOptions: HookEngineOptions } {
  try {
    const host = typeof m.options.engineOptions === 'function' ? m.options.engineOptions(info) : (m.options.engineOptions ?? {});
    if (typeof m.options.engineOptions === 'function') checkSessionEngineOptions('bindSession', host, 'engineOptions(session).');
    const engineOptions: HookEngineOptions = {
      ...engineOptionsFromConfig(snapshot.config),
      ...definedOnly(host as Record<string, unknown>),
      hooks: [],
      projectDir: info.projectDir,
      cwd: info.worktreeDir ?? info.projectDir,
      sessionId: info.sessionId,
      sessionEnv: hookEnv,
    };
    // The session's counters (Stop blocks, `once` hooks run): kept by the engine, read by hooks().
    engineOptions.sessionCounters ??= memoryCounterStore();
    if (!host.onWarning && m.options.onWarning) engineOptions.onWarning = (msg) => m.warn(msg, info.sessionId);
    return { engine: createHookEngine(engineOptions), engineOptions };
  } catch (e) {
    m.sessions.delete(info.sessionId);
    throw e;
  }
}

export async function createState(m: ManagerState, opts: BindOptions): Promise<SessionState> {
  if (typeof opts.sessionId !== 'string' || opts.sessionId === '') throw new TypeError('bindSession: sessionId must be a non-empty string');
  if (typeof opts.projectDir !== 'string' || opts.projectDir === '')
    throw new TypeError('bindSession: projectDir must be a non-empty string');
  const projectDir = path.resolve(opts.projectDir);
  const worktreeDir = opts.worktreeDir !== undefined ? path.resolve(opts.worktreeDir) : undefined;
  const snapshot = await reserve(m, opts, projectDir);

  // `env` is the session's environment for its tools: the host's explicit env, plus what
  // SessionStart hooks export through CLAUDE_ENV_FILE (startSession), frozen before anything
  // else runs. Hooks get the host's explicit env only: as in Claude Code, the exports reach later
  // Bash commands, not later hooks (one project hook cannot set PATH for every other hook).
  const env: Record<string, string> = { ...(opts.env ?? {}) };
  const hookEnv: Record<string, string> = Object.freeze({ ...(opts.env ?? {}) });
  const info: SessionInfo = {
    sessionId: opts.sessionId,
    projectDir,
    ...(worktreeDir ? { worktreeDir } : {}),
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    env,
  };
  const { engine, engineOptions } = sessionEngine(m, info, snapshot, hookEnv);

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
    effective: [],
    counters: engineOptions.sessionCounters!,
    engine,
    resources: Object.freeze({ sessionId: opts.sessionId, ...(opts.model !== undefined ? { model: opts.model } : {}), env }),
    homeDir: engineOptions.homeDir ?? userHome(),
    paused: false,
    ready: false,
    disposed: false,
    managerHooks: new Map(),
    handle: undefined as unknown as SessionHandle,
  };
  state.handle = makeHandle(m, state);
  m.sessions.set(state.id, state);
  for (const dir of state.aliases) m.aliases.set(aliasKey(state.id, dir), state);
  recompose(state);
  for (const f of m.functionHooks) applyFunctionHook(state, f);
  return state;
}

export async function dispose(m: ManagerState, sessionId: string): Promise<boolean> {
  const s = m.sessions.get(sessionId);
  if (!s?.ready) return false;
  s.disposed = true;
  s.ready = false;
  m.sessions.delete(sessionId);
  // Every alias of this id goes, including ones added later through addAlias.
  const prefix = `${sessionId}\0`;
  for (const key of [...m.aliases.keys()]) if (key.startsWith(prefix)) m.aliases.delete(key);
  await s.engine.close();
  return true;
}

/** SessionStart first: `continue:false` refuses the session; CLAUDE_ENV_FILE exports join the env, then it is frozen. */
export async function startSession(m: ManagerState, opts: StartOptions): Promise<StartResult> {
  const s = await createState(m, opts);
  let decision: Decision;
  try {
    const input = { source: opts.source ?? 'startup', ...(opts.model !== undefined ? { model: opts.model } : {}), ...opts.input };
    decision = await runEvent(m, s, 'SessionStart', input, opts.ctx);
  } catch (e) {
    s.ready = true;
    await dispose(m, s.id);
    throw e;
  }
  if (!decision.continue) {
    s.ready = true;
    await dispose(m, s.id);
    return { ok: false, reason: decision.stopReason ?? 'a SessionStart hook refused the session (continue: false)', decision };
  }
  const added = decision.eventOutput.env;
  if (added && typeof added === 'object') {
    for (const [k, v] of Object.entries(added as Record<string, unknown>)) if (typeof v === 'string') s.env[k] = v;
  }
  Object.freeze(s.env);
  s.ready = true;
  return { ok: true, session: s.handle, decision };
}

export async function rebind(m: ManagerState, sessionId: string): Promise<SessionHandle> {
  const s = find(m, sessionId);
  if (!s) throw new Error(`no bound session ${JSON.stringify(sessionId)}`);
  const snapshot = await snapshotFor(m, s.projectDir);
  for (const w of snapshot.warnings) m.warn(w, s.id);
  live(s).snapshot = snapshot;
  recompose(s);
  return s.handle;
}
