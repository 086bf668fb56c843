/**
 * What createHookManager, bindSession and startSession accept, checked when they are called: an
 * unknown key is a TypeError with a "did you mean" (src/util/option-keys.ts), never ignored.
 */
import { checkEngineOptions, ENGINE_OPTION_KEYS } from '../engine/option-keys.js';
import type { HookEngineOptions } from '../engine/types.js';
import { checkKnownKeys, type KnownKeys } from '../util/option-keys.js';
import type { BindOptions, HookManagerOptions, SessionEngineOptions, StartOptions } from './types.js';

export const MANAGER_OPTION_KEYS = {
  load: true,
  loadOptions: true,
  trust: true,
  engineOptions: true,
  gate: true,
  projectCacheSize: true,
  onWarning: true,
} as const satisfies KnownKeys<HookManagerOptions>;

/** TrustOptions but workspaceDir, which is each session's project. */
export const MANAGER_TRUST_KEYS = {
  storePath: true,
  workspaceTrusted: true,
  needsTrust: true,
  homeDir: true,
  command: true,
  hashCache: true,
  events: true,
} as const satisfies KnownKeys<NonNullable<HookManagerOptions['trust']>>;

/** The engine options the manager sets for each session: a host's value would be overwritten. */
const MANAGER_OWNED = {
  hooks: true,
  projectDir: true,
  cwd: true,
  sessionId: true,
  sessionEnv: true,
  disabled: true,
} as const satisfies KnownKeys<Omit<HookEngineOptions, keyof SessionEngineOptions>>;

export const SESSION_ENGINE_OPTION_KEYS = Object.fromEntries(
  Object.keys(ENGINE_OPTION_KEYS)
    .filter((k) => !Object.hasOwn(MANAGER_OWNED, k))
    .map((k) => [k, true]),
) as KnownKeys<SessionEngineOptions>;

export const BIND_OPTION_KEYS = {
  sessionId: true,
  projectDir: true,
  worktreeDir: true,
  env: true,
  model: true,
} as const satisfies KnownKeys<BindOptions>;

export const START_OPTION_KEYS = { ...BIND_OPTION_KEYS, source: true, input: true, ctx: true } as const satisfies KnownKeys<StartOptions>;

/** A session's engine options (the manager's `engineOptions`, or what its function returned). */
export function checkSessionEngineOptions(where: string, options: SessionEngineOptions, prefix: string): void {
  if (typeof options !== 'object' || options === null) return;
  const owned = Object.keys(options).find((k) => Object.hasOwn(MANAGER_OWNED, k));
  if (owned !== undefined) throw new TypeError(`${where}: option "${prefix}${owned}" is set by the manager for each session`);
  checkEngineOptions(options, where, prefix, SESSION_ENGINE_OPTION_KEYS);
}

export function checkManagerOptions(options: HookManagerOptions): void {
  checkKnownKeys('createHookManager', options, MANAGER_OPTION_KEYS);
  if (typeof options !== 'object' || options === null) return;
  checkKnownKeys('createHookManager', options.trust, MANAGER_TRUST_KEYS, 'trust.');
  if (typeof options.engineOptions !== 'function')
    checkSessionEngineOptions('createHookManager', options.engineOptions ?? {}, 'engineOptions.');
}
