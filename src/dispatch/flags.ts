/** What a `dispatch` call is given, shared by its fast path (dispatch.ts) and the part that runs hooks (run.ts). */

export interface DispatchFlags {
  agent: string;
  /** Native event name, for agents whose payload does not carry it (Copilot CLI's camelCase format). */
  event?: string;
  settings?: string[];
  plugin?: string[];
  cwd?: string;
  discover?: boolean;
  managedSettings?: string;
  /** Force the dialect of --settings files. */
  dialect?: string;
  /** Other agents' hook files to discover, as on `run` (default: as `run`: the `agentHooks.discoverDialects` setting, else Claude's only). */
  discoverDialects?: string;
  audit?: string;
  /** The team's policy server decides (src/dispatch/remote.ts); token from AGENT_HOOKS_REMOTE_TOKEN. */
  remote?: string;
  /** When the policy server cannot be reached: deny (default), ask or ignore. */
  remoteFailure?: string;
}

/** Set in the environment of every hook dispatch runs: a dispatch inside a dispatch does nothing. */
export const DISPATCH_ENV = 'AGENT_HOOKS_DISPATCH';
