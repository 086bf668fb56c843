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
  type TrustReport,
  type HookTrustStatus,
} from './gate.js';
export { loadTrustedConfig } from './load.js';
export { failClosed, frontmatterVerdict } from './verify.js';
export { resolveWorkspace, type Workspace } from './workspace.js';
export {
  canonicalJson,
  describeChange,
  type CanonicalConfig,
  type CanonicalHook,
  type Change,
} from './digest.js';
export {
  defaultTrustStorePath,
  readTrustStore,
  updateTrustStore,
  TrustStoreError,
} from './store.js';
