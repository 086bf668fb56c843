/** Public API of sessions: frozen config snapshots bound to sessions, aliases, pause, LRU project cache. */
export {
  createHookManager,
  canonicalDir,
  DEFAULT_PROJECT_CACHE_SIZE,
  type HookManager,
  type HookManagerOptions,
  type SessionHandle,
  type SessionConfigSnapshot,
  type SessionInfo,
  type SessionEngineOptions,
  type BindOptions,
  type StartOptions,
  type StartResult,
  type SkillRegistration,
  type AgentScope,
  type TrustGate,
  type GateResult,
} from './manager.js';
