/** What a `dispatch` call is given, shared by its fast path (dispatch.ts) and the part that runs hooks (run.ts). */
import type { LoadFlags } from '../load/from-flags.js';

/**
 * The loading options are LoadFlags' own (settings, plugin, cwd, discover, managedSettings, dialect,
 * discoverDialects: as on `run`), so the two cannot drift; the rest is dispatch's.
 */
export interface DispatchFlags extends LoadFlags {
  agent: string;
  /** Native event name, for agents whose payload does not carry it (Copilot CLI's camelCase format). */
  event?: string;
  audit?: string;
  /** The team's policy server decides (src/dispatch/remote.ts); token from AGENT_HOOKS_REMOTE_TOKEN. */
  remote?: string;
  /** When the policy server cannot be reached: deny (default), ask or ignore. */
  remoteFailure?: string;
}

/** Set in the environment of every hook dispatch runs: a dispatch below it does nothing (recursion-guard.ts). */
export const DISPATCH_ENV = 'AGENT_HOOKS_DISPATCH';
