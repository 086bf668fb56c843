/** What a command hook spawns (shell or exec form, the shell's own flags), and why a spawn failed. */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface CommandSpec {
  /** Shell form: the command line. Exec form (args present): the executable. */
  command: string;
  /** Present (even empty) = exec form: spawn `command` directly, no shell. */
  args?: string[];
  /** Shell for shell form; default 'sh'. Ignored in exec form. */
  shell?: 'bash' | 'sh' | 'powershell';
  cwd: string;
  /** The complete environment (see buildHookEnv); nothing from process.env is added. */
  env: Record<string, string>;
  stdin: string | Buffer;
  /** Data for descriptors 3, 4, … of the program (the sandbox's verified files); such a run never uses the spawner. */
  inputs?: readonly Buffer[];
  /** Non-finite or above 2^31-1 ms means no timeout. */
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL of the tree; default 250 ms. */
  killGraceMs?: number;
  /** Per stream; default 1 MiB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /**
   * After the leader exits, how long a descendant may keep stdout/stderr open before the
   * tree is terminated; default 250 ms, never past the timeout.
   */
  exitDrainMs?: number;
  /** Called with the leader's pid (= its process group id) right after it started. */
  onSpawn?: (pid: number) => void;
  /** Called with each chunk of stdout as it arrives (the hook's async declaration is read from it). */
  onStdout?: (chunk: Buffer) => void;
  /**
   * Fork the hook from the spawner helper (src/backends/spawner.ts) rather than from this
   * process, once the helper is ready; direct spawn until then and whenever it cannot run.
   * Default false; the engine turns it on (HookEngineOptions.spawner). The environment
   * variable AGENT_HOOKS_SPAWNER=1 or 0 overrides both (tests run this file both ways).
   */
  spawner?: boolean;
}

export type Target = { file: string; args: string[] } | { error: string };

export function resolveTarget(spec: CommandSpec): Target {
  // Config is validated upstream; these guards keep the never-throws promise for SDK callers.
  if (typeof spec.command !== 'string') return { error: 'command must be a string' };
  if (spec.args !== undefined && !(Array.isArray(spec.args) && spec.args.every((a) => typeof a === 'string'))) {
    return { error: 'args must be an array of strings' };
  }
  if (spec.args !== undefined) {
    if (spec.command.length === 0) return { error: 'exec form: command is empty' };
    return { file: spec.command, args: spec.args };
  }
  switch (spec.shell ?? 'sh') {
    case 'sh':
      return { file: 'sh', args: ['-c', spec.command] };
    case 'bash':
      // No rc files: a non-interactive bash whose stdin is a socket (Node's pipes are) and whose
      // SHLVL is unset reads ~/.bashrc, and anything it prints would spoil the hook's JSON.
      return { file: 'bash', args: ['--norc', '--noprofile', '-c', spec.command] };
    case 'powershell': {
      const names = process.platform === 'win32' ? ['pwsh.exe', 'powershell.exe'] : ['pwsh'];
      const file = findOnPath(names, spec.env.PATH ?? process.env.PATH ?? '');
      if (file === undefined) {
        return { error: `shell "powershell" requested but ${names.join(' / ')} was not found on PATH` };
      }
      // No profile: a user's profile script would slow down and change every hook run.
      return { file, args: ['-NoProfile', '-NonInteractive', '-Command', spec.command] };
    }
    default:
      return { error: `unknown shell: ${String(spec.shell)}` };
  }
}

/** The first of `names` executable in a directory of `pathValue` (a PATH-style list). */
export function findOnPath(names: readonly string[], pathValue: string): string | undefined {
  for (const dir of pathValue.split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, fsConstants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** libuv reports a missing cwd as ENOENT of the executable; tell the two apart. */
export function describeSpawnError(err: NodeJS.ErrnoException, spec: CommandSpec, file: string): string {
  let cwdOk = false;
  try {
    cwdOk = statSync(spec.cwd).isDirectory();
  } catch {
    cwdOk = false;
  }
  if (!cwdOk) return `working directory does not exist or is not a directory: ${spec.cwd}`;
  const what = spec.args !== undefined ? 'command' : 'shell';
  switch (err.code) {
    case 'ENOENT':
      return `${what} not found: ${file}`;
    case 'EACCES':
      return `permission denied: cannot execute ${file} (not executable, or working directory ${spec.cwd} not accessible)`;
    default:
      return `failed to start ${file}: ${err.message}`;
  }
}
