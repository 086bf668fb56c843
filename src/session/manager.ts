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
import {
  createManagerState,
  applyFunctionHook,
  aliasKey,
  canonicalDir,
  find,
  type ManagerFunctionHook,
  type ManagerState,
} from './state.js';
import type { FunctionHookRegistration } from '../engine/engine.js';
import { createState, dispose, rebind, startSession } from './bind.js';
import { projectEntry } from './snapshot.js';
import { REGISTRATION_KEYS } from '../engine/option-keys.js';
import { checkKnownKeys } from '../util/option-keys.js';
import { BIND_OPTION_KEYS, START_OPTION_KEYS } from './option-keys.js';
import type { HookManager, HookManagerOptions } from './types.js';

export * from './types.js';

/**
 * The manager: its state is a plain record (state.ts); binding lives in bind.ts, snapshots and
 * gates in snapshot.ts, firing in run.ts, the session handle in handle.ts.
 */
export function createHookManager(options: HookManagerOptions = {}): HookManager {
  const m = createManagerState(options);
  const { cache, sessions, aliases, functionHooks } = m;
  const manager: HookManager = {
    async bindSession(opts) {
      checkKnownKeys('bindSession', opts, BIND_OPTION_KEYS);
      const s = await createState(m, opts);
      Object.freeze(s.env);
      s.ready = true;
      return s.handle;
    },
    async startSession(opts) {
      checkKnownKeys('startSession', opts, START_OPTION_KEYS);
      return startSession(m, opts);
    },
    session: (sessionId, dir) => find(m, sessionId, dir)?.handle,
    addAlias(sessionId, dir) {
      const s = find(m, sessionId);
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
      const s = find(m, sessionId, dir);
      if (s) s.paused = true;
      return s !== undefined;
    },
    resume(sessionId, dir) {
      const s = find(m, sessionId, dir);
      if (s) s.paused = false;
      return s !== undefined;
    },
    isPaused: (sessionId, dir) => find(m, sessionId, dir)?.paused ?? false,
    setProcessEnabled(enabled) {
      m.processEnabled = enabled;
    },
    get processEnabled() {
      return m.processEnabled;
    },
    register: (reg) => registerEverywhere(m, reg),
    projectConfig: async (projectDir) => (await projectEntry(m, projectDir)).config,
    invalidate(projectDir) {
      if (projectDir === undefined) cache.clear();
      else cache.delete(canonicalDir(projectDir));
    },
    rebind: (sessionId) => rebind(m, sessionId),
    dispose: (sessionId) => dispose(m, sessionId),
    async close() {
      await Promise.all([...sessions.keys()].map((id) => dispose(m, id)));
    },
    sessions: () => [...sessions.values()].filter((s) => s.ready).map((s) => s.id),
    cache: {
      get size() {
        return cache.size;
      },
      max: m.max,
      has: (projectDir) => cache.has(canonicalDir(projectDir)),
    },
  };
  return manager;
}

/** A function hook for every session, now and later (only those on its project when it names one). */
function registerEverywhere({ sessions, functionHooks }: ManagerState, reg: FunctionHookRegistration): () => void {
  checkKnownKeys('register', reg, REGISTRATION_KEYS, '', 'field');
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
}
