/**
 * The trust gate: which hooks may run, and why the others may not.
 *
 * Two gates, both per workspace (canonical identity, workspace.ts):
 * 1. Workspace trust — has the workspace been trusted at all? A never-trusted workspace
 *    contributes nothing, before any digest is compared. A host with its own workspace-trust
 *    prompt passes `workspaceTrusted` instead of using the store's flag.
 * 2. Hook trust — the digest of the workspace's canonical external config (digest.ts) must
 *    equal the digest trusted in the store.
 *
 * Hooks that need trust: project and local settings, and plugins/skills whose root lies in the
 * workspace, unless force-enabled by managed policy (see `defaultNeedsTrust`). User settings,
 * managed policy, files named on a command line and function hooks do not.
 *
 * Trust is all-or-nothing per workspace: every gated hook and every gated settings file carries
 * the workspace's state — `trusted` runs; `untrusted`, `modified` and `error` are skipped with a
 * warning that says how to trust. Per-hook `changes` say which hooks differ from what was
 * trusted, so a review shows exactly what changed.
 *
 * The gate is made of modules of one job: selection.ts (which sources need trust), evidence.ts
 * (the store record and what each hook executes), report.ts (the verdict and its warnings),
 * assess.ts (the assessment), actions.ts (trust and revoke), load.ts (loadConfig through the gate).
 */
import { assessTrust } from './assess.js';
import type { GatedSource, TrustGateInput, TrustOptions, TrustReport } from './types.js';

export type * from './types.js';
export { assessTrust, evaluateTrust, verifiedHooks } from './assess.js';
export { defaultNeedsTrust } from './selection.js';
export { revokeWorkspace, trustWorkspace, TrustRefusedError } from './actions.js';

/**
 * A `loadConfig` gate: assesses trust on every hook and settings file before policy and dedup,
 * and leaves out the gated sources unless trusted. `report()` is the assessment of the last load.
 */
export function trustGate(opts: TrustOptions): {
  gate: (input: TrustGateInput) => Promise<GatedSource[]>;
  report: () => TrustReport | undefined;
} {
  let last: TrustReport | undefined;
  return {
    gate: async (input) => {
      last = await assessTrust(input, opts);
      return last.excludedSources;
    },
    report: () => last,
  };
}
