/** Public API of hook trust: workspace identity, digests, the trust store and the gate. */
export {
  assessTrust,
  evaluateTrust,
  trustGate,
  trustWorkspace,
  revokeWorkspace,
  defaultNeedsTrust,
  verifiedHooks,
  TrustRefusedError,
  type TrustState,
  type TrustOptions,
  type TrustSource,
  type TrustReport,
  type TrustEvaluation,
  type TrustResult,
  type HookTrustStatus,
  type SkippedHook,
  type ScriptStatus,
} from './gate.js';
export { loadTrustedConfig } from './load.js';
export { resolveWorkspace, type Workspace } from './workspace.js';
export {
  canonicalJson,
  digestOf,
  diffConfigs,
  describeChange,
  type CanonicalConfig,
  type CanonicalHook,
  type CanonicalSettings,
  type Change,
  type ConfigDiff,
} from './digest.js';
export { referencedScripts, hashScript, type ScriptState } from './scripts.js';
export {
  defaultTrustStorePath,
  readTrustStore,
  updateTrustStore,
  TrustStoreError,
  TRUST_STORE_ENV,
  type TrustRecord,
  type TrustStoreData,
} from './store.js';
export type { ConfigGateInput, GateSource } from '../config/load.js';
