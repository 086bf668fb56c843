/**
 * The project of a hook call, as the agent means it: never simply the payload's cwd, which follows
 * the agent's shell (`cd sub`), so that a `cd` cannot take the project's trusted guards away.
 *
 *   1. `--cwd` when given (the caller's explicit choice);
 *   2. the agent's project variable (its dialect facts' `projectDirEnv`, e.g. CLAUDE_PROJECT_DIR),
 *      when set to an absolute path;
 *   3. the nearest directory at or above cwd that the trust store knows as a trusted workspace
 *      (walked as paths, so a cwd that no longer exists still finds its project);
 *   4. cwd.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { TrustStoreData } from '../trust/store.js';
import { defaultTrustStorePath } from '../util/trust-store-path.js';

export interface ProjectDirInput {
  /** `--cwd`. */
  flagCwd?: string;
  /** The payload's cwd (or the process's when the payload has none). */
  cwd: string;
  /** The agent's project variables, first wins. */
  envNames: readonly string[];
  env: NodeJS.ProcessEnv;
}

export async function agentProjectDir(o: ProjectDirInput): Promise<string> {
  if (o.flagCwd !== undefined) return resolve(o.flagCwd);
  for (const name of o.envNames) {
    const v = o.env[name];
    if (v && isAbsolute(v)) return resolve(v);
  }
  const cwd = resolve(o.cwd);
  return (await trustedWorkspaceAbove(cwd, o.env)) ?? cwd;
}

/** The nearest trusted workspace at or above `dir`; undefined when none (or the store cannot be read: the gate reports that). */
async function trustedWorkspaceAbove(dir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const records = await storeRecords(env);
  if (records === undefined || records === 'unreadable' || Object.keys(records).length === 0) return undefined;
  const { resolveWorkspace } = await import('../trust/workspace.js');
  for (let cur = dir; ; cur = dirname(cur)) {
    if (Object.hasOwn(records, (await resolveWorkspace(cur)).identity)) return cur;
    if (dirname(cur) === cur) return undefined;
  }
}

/**
 * Whether the trust store holds reviewed hooks (of one of `events`, or any) for the workspace of `dir`. A config
 * removed or emptied since (by a write the engine could not refuse: `python3 -c "os.remove(…)"`)
 * must not take the reviewed guards with it: dispatch then does the full load, and the load the
 * trust gate, which fails their events closed as `modified`, instead of "nothing to run".
 */
export async function reviewedHooksOf(
  events: readonly string[] | undefined,
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const records = await storeRecords(env);
  if (records === undefined) return false;
  if (records === 'unreadable') return true; // the full load reports the store's fault
  const { resolveWorkspace } = await import('../trust/workspace.js');
  const identity = (await resolveWorkspace(dir)).identity;
  const hooks = Object.hasOwn(records, identity) ? (records[identity]?.hooks?.config.hooks ?? []) : [];
  return hooks.some((h) => (events === undefined || events.includes(h.event)) && h.source.frontmatter === undefined);
}

/** The store's workspace records; undefined without a store, whose modules are then not loaded (dispatch's fast path). */
async function storeRecords(env: NodeJS.ProcessEnv): Promise<TrustStoreData['workspaces'] | 'unreadable' | undefined> {
  const store = defaultTrustStorePath(env);
  if (!existsSync(store)) return undefined;
  const { readTrustStore } = await import('../trust/store.js');
  try {
    return (await readTrustStore(store)).workspaces;
  } catch {
    return 'unreadable';
  }
}
