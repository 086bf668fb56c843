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
import { type Copies, newCopies, releaseCopies } from './sandbox-copies.js';
import { type ViewSpec, viewArgs } from './sandbox-view.js';

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
): { file: string; args: string[]; inputs?: Buffer[]; copies?: Copies; note?: string } | { error: string } {
  const isolated = sandbox.kind === 'bwrap';
  const bwrap = findBwrap();
  if (bwrap === undefined) {
    return { error: `the hook sandbox "${sandbox.kind}" is configured but bwrap is not installed (looked in ${BWRAP_DIRS.join(', ')})` };
  }
  const writable = sandbox.writable.filter(isDir);
  const run = ['--chdir', cwd, '--', target.file, ...target.args];
  // No view when it would be too large (sandbox-view.ts MAX_MOUNTS): the files are read in place.
  let note: { note?: string } = {};
  if (served !== undefined && served.size > 0) {
    const copies = newCopies(writable);
    if ('error' in copies) return copies;
    const view = viewOrWhy({ writable, served, isolated, copies });
    if (view !== undefined && !('error' in view)) {
      const unshare = isolated ? ['--unshare-all'] : [];
      return { file: bwrap, args: [...unshare, '--die-with-parent', ...view.args, ...run], inputs: view.inputs, copies };
    }
    releaseCopies(copies);
    if (view !== undefined) return view;
    note = { note: TOO_LARGE };
  }
  if (!isolated) return { ...target, ...note };
  const args = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // After the private /tmp, so a workspace under /tmp is bound over it.
  for (const dir of writable) args.push('--bind', dir, dir);
  return { file: bwrap, args: [...args, ...run], ...note };
}

/** The view, or why it cannot be built (a file it could not make is the engine's failure, never a throw). */
function viewOrWhy(spec: ViewSpec): ReturnType<typeof viewArgs> {
  try {
    return viewArgs(spec);
  } catch (e) {
    return { error: `cannot build the sandbox's view: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
}

const TOO_LARGE =
  'the sandbox did not serve the checked bytes (the directories on the way to them hold too many entries to bind): the hook ran on the files in place, and its answer counts only if they did not change';

/** What each sandbox takes from a hook: the reason a failure under it may not be the hook's own. */
const TAKES: Record<SandboxSpec['kind'], string> = {
  bwrap: 'no network, nothing writable outside the project',
  view: 'its pinned files read-only, the directories on the way to them private copies',
};

/**
 * A hook's failure under a sandbox is the engine's. bwrap reports its own set-up failures as exit 1
 * with `bwrap: …` on stderr; and any exit but 0 and 2, or a timeout, may be what the sandbox took
 * from the hook (a write refused, the network, time): read as Claude's "non-blocking error,
 * proceed", it would let the sandbox turn a guard's deny into an allow (a `set -e` guard whose log
 * write is refused). So it fails closed where the event can block, with the hook's first stderr line.
 * A hook that prints `bwrap: …` itself only turns its answer into a deny, never into an allow.
 */
export function sandboxFault(result: ExecutionResult, kind: SandboxSpec['kind']): ExecutionResult {
  // Its set-up time counts toward the timeout, and the agent can make it longer (entries to bind).
  if (result.status === 'timeout')
    return {
      ...result,
      status: 'error',
      error: `the hook timed out under the sandbox "${kind}", whose set-up counts toward its timeout`,
      engineFault: true,
    };
  if (result.exitCode === 0 || result.exitCode === 2 || result.status !== 'completed') return result;
  const first = result.stderr.trim().split('\n', 1)[0] ?? '';
  const error =
    result.exitCode === 1 && result.stderr.startsWith('bwrap: ')
      ? `the hook sandbox could not start: ${first}`
      : `the hook exited ${result.exitCode ?? result.signal} under the sandbox "${kind}" (${TAKES[kind]}), which may be why; its answer is unknown${first ? `: ${first}` : ''}`;
  return { ...result, status: 'error', error, engineFault: true };
}
