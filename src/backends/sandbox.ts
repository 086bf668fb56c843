/**
 * The sandboxes for command hooks (`agentHooks.sandbox`, HookEngineOptions.sandbox), both bubblewrap:
 * - "bwrap": the hook runs in its own user, PID, network, IPC and UTS namespaces, with the whole
 *   file system read-only but the project directory (and the session's env file), a private /tmp,
 *   and a /proc that shows only its own processes — so it cannot read `/proc/$PPID/environ` (the
 *   agent's credentials), reach the network, or write outside the workspace (docs/security.md).
 * - "view": only a reviewed hook's pinned files are served (the checked bytes, sandbox-view.ts);
 *   everything else is the real file system, network and processes. A hook without served pins
 *   runs as without a sandbox. On by default where the agent confines the model's commands but
 *   not hooks (src/config/confinement.ts).
 *
 * Never fail open: a configured sandbox that cannot start is the engine's failure, not the hook's.
 * bwrap is looked up in fixed system directories, never through a `PATH` a project could prepend.
 */
import { dirname } from 'node:path';
import type { ExecutionResult, ServedPin } from '../types.js';
import { BWRAP_DIRS, findBwrap } from '../util/bwrap.js';
import { isDir } from '../util/file-kind.js';
import { viewArgs } from './sandbox-view.js';

export type SandboxKind = 'bwrap' | 'view' | 'none';

export interface SandboxSpec {
  kind: 'bwrap' | 'view';
  /** Directories the hook may write (the project; the env file's directory). */
  writable: readonly string[];
}

/**
 * The sandbox a command hook runs in, from the engine's option and the run's directories; none for
 * the view when nothing is served (it only serves pins: such a hook runs as without it).
 */
export function sandboxSpec(
  kind: SandboxKind | undefined,
  run: { projectDir: string; envFile?: string; served?: ReadonlyMap<string, ServedPin> },
): SandboxSpec | undefined {
  if (kind !== 'bwrap' && (kind !== 'view' || !run.served?.size)) return undefined;
  const { projectDir, envFile } = run;
  return { kind, writable: [projectDir, ...(envFile !== undefined ? [dirname(envFile)] : [])] };
}

/**
 * `file args` run inside the sandbox, or why it cannot be. With `served` (the verified bytes of a
 * reviewed hook's pinned files), the hook sees those bytes at their paths (sandbox-view.ts); the
 * returned `inputs` are the data bwrap reads from descriptors 3, 4, ….
 */
export function sandboxed(
  target: { file: string; args: string[] },
  sandbox: SandboxSpec,
  cwd: string,
  served?: ReadonlyMap<string, ServedPin>,
): { file: string; args: string[]; inputs?: Buffer[] } | { error: string } {
  const isolated = sandbox.kind === 'bwrap';
  const bwrap = findBwrap();
  if (bwrap === undefined) {
    return { error: `the hook sandbox "${sandbox.kind}" is configured but bwrap is not installed (looked in ${BWRAP_DIRS.join(', ')})` };
  }
  const writable = sandbox.writable.filter(isDir);
  const run = ['--chdir', cwd, '--', target.file, ...target.args];
  // No view when it would be too large (sandbox-view.ts MAX_MOUNTS): the files are read in place.
  const view = served !== undefined && served.size > 0 ? viewArgs({ writable, served, isolated }) : undefined;
  if (view !== undefined && 'error' in view) return view;
  if (!isolated)
    return view === undefined ? target : { file: bwrap, args: ['--die-with-parent', ...view.args, ...run], inputs: view.inputs };
  if (view !== undefined) return { file: bwrap, args: ['--unshare-all', '--die-with-parent', ...view.args, ...run], inputs: view.inputs };
  const args = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // After the private /tmp, so a workspace under /tmp is bound over it.
  for (const dir of writable) args.push('--bind', dir, dir);
  return { file: bwrap, args: [...args, ...run] };
}

/**
 * bwrap reports its own set-up failures as exit 1 with `bwrap: …` on stderr, which would read as
 * the hook's non-blocking error. Such a run is the engine's failure. A hook that prints the same
 * to make itself count as a fault only turns its answer into a deny, never into an allow.
 */
export function sandboxFault(result: ExecutionResult): ExecutionResult {
  if (result.exitCode !== 1 || !result.stderr.startsWith('bwrap: ')) return result;
  const why = result.stderr.split('\n', 1)[0]!;
  return { ...result, status: 'error', error: `the hook sandbox could not start: ${why}`, engineFault: true };
}
