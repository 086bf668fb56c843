/**
 * The manager's plain state records: one per manager (its cache, sessions, aliases and function
 * hooks) and one per bound session, with the small helpers that keep a session's engine in step.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { dedupeHooks } from '../config/registry.js';
import type { FunctionHookRegistration, HookEngine } from '../engine/engine.js';
import { loadTrustedConfig, type TrustOptions, type TrustReport } from '../trust/index.js';
import { isOnce } from '../engine/run-hooks.js';
import type { SessionCounterStore } from '../engine/session-counters.js';
import { checkManagerOptions } from './option-keys.js';
import type { NormalizedHook, SessionSnapshot } from '../types.js';
import {
  DEFAULT_PROJECT_CACHE_SIZE,
  type HookManagerOptions,
  type SessionConfigSnapshot,
  type SessionHandle,
  type SkillRegistration,
} from './types.js';

/** Real path when the directory exists (so /tmp and /private/tmp are one alias), else resolved. */
export function canonicalDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Deep-frozen copy of plain data; functions and non-plain objects (class instances) are kept by reference. */
export function frozenCopy<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((v) => frozenCopy(v, depth + 1))) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = frozenCopy(v, depth + 1);
  return Object.freeze(out) as T;
}

export const aliasKey = (sessionId: string, dir: string) => `${sessionId}\0${dir}`;

export interface ManagerFunctionHook {
  reg: FunctionHookRegistration;
  /** Canonical projectDir restriction. */
  dir?: string;
}

export interface SessionState {
  id: string;
  projectDir: string;
  canonicalProject: string;
  worktreeDir?: string;
  aliases: Set<string>;
  model?: string;
  env: Record<string, string>;
  snapshot: SessionConfigSnapshot;
  skills: Map<string, SkillRegistration>;
  agents: Set<SkillRegistration>;
  effective: readonly NormalizedHook[];
  /** The engine's per-session counters: which `once` hooks have run (src/engine/run-hooks.ts). */
  counters: SessionCounterStore;
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

export interface ProjectEntry {
  config: LoadedConfig;
  trust?: TrustReport;
}

/** One manager: its options, project cache, sessions by id and by alias, and function hooks. */
export interface ManagerState {
  options: HookManagerOptions;
  max: number;
  /** Loads a project's config (the host's loader, the trusted loader, or loadConfig). */
  load: (projectDir: string) => Promise<ProjectEntry>;
  trustFor: (projectDir: string) => TrustOptions;
  /** With `trust`: a fresh trusted load, for what the review says of a skill/agent file now. */
  review?: (projectDir: string) => ReturnType<typeof loadTrustedConfig>;
  warn: (message: string, sessionId?: string) => void;
  cache: LRUCache<string, Promise<ProjectEntry>>;
  sessions: Map<string, SessionState>;
  aliases: Map<string, SessionState>;
  functionHooks: Set<ManagerFunctionHook>;
  processEnabled: boolean;
}

/** Validates the options (bad ones throw before anything is bound) and makes the manager's state. */
export function createManagerState(options: HookManagerOptions): ManagerState {
  checkManagerOptions(options);
  const max = options.projectCacheSize ?? DEFAULT_PROJECT_CACHE_SIZE;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`projectCacheSize must be a positive integer, got ${String(max)}`);
  if (options.load && (options.trust || options.loadOptions)) {
    throw new TypeError(
      'createHookManager: `load` replaces the built-in loader; use `loadOptions` with `trust`, or gate inside your own `load`',
    );
  }
  const loadOptions = options.loadOptions ?? ((projectDir: string) => ({ cwd: projectDir, projectDir }));
  const trustFor = (projectDir: string): TrustOptions => ({ ...options.trust, workspaceDir: projectDir });
  const review = options.trust ? (projectDir: string) => loadTrustedConfig(loadOptions(projectDir), trustFor(projectDir)) : undefined;
  const load = async (projectDir: string): Promise<ProjectEntry> => {
    if (options.load) return { config: await options.load(projectDir) };
    if (review) {
      const { config, trust } = await review(projectDir);
      return { config, trust };
    }
    return { config: await loadConfig(loadOptions(projectDir)) };
  };
  return {
    options,
    max,
    load,
    trustFor,
    ...(review ? { review } : {}),
    warn: (message, sessionId) => options.onWarning?.(message, sessionId),
    cache: new LRUCache<string, Promise<ProjectEntry>>({ max }),
    sessions: new Map(),
    aliases: new Map(),
    functionHooks: new Set(),
    processEnabled: true,
  };
}

/** Snapshot + skills + running agents → the engine's hooks (the engine keeps which `once` hooks ran). */
export function recompose(s: SessionState) {
  const all = dedupeHooks([
    ...s.snapshot.hooks,
    ...[...s.skills.values()].flatMap((r) => r.hooks),
    ...[...s.agents].flatMap((r) => r.hooks),
  ]);
  s.effective = Object.freeze(all);
  s.engine.setHooks(s.effective);
}

/** The session's hooks less the `once` hooks already run (when the store answers at once, as memory does). */
export function unspent(s: SessionState, hooks: readonly NormalizedHook[]): NormalizedHook[] {
  return hooks.filter((h) => !isOnce(h) || s.counters.read(s.id, `once\0${h.id}`) === 0);
}

export function live(s: SessionState): SessionState {
  if (s.disposed) throw new Error(`session ${JSON.stringify(s.id)} is disposed`);
  return s;
}

export function find(m: ManagerState, sessionId: string, dir?: string): SessionState | undefined {
  const s = dir === undefined ? m.sessions.get(sessionId) : m.aliases.get(aliasKey(sessionId, canonicalDir(dir)));
  return s?.ready ? s : undefined;
}

export function applyFunctionHook(s: SessionState, f: ManagerFunctionHook) {
  if (f.dir !== undefined && !s.aliases.has(f.dir)) return;
  const { projectDir: _only, ...reg } = f.reg;
  s.managerHooks.set(f, s.engine.register(reg));
}
