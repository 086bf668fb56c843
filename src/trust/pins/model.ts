/**
 * The state of the shell model behind pins.ts: what is known while a command line is walked
 * (directory, variables, functions), the pins recorded so far, and the helpers that record them.
 */
import type { SyntaxNode } from 'unbash';
import { isDir, isFile, lstatSync, realpathSync } from './observed-fs.js';
import path from 'node:path';

export interface PinContext {
  /** Working directory of the hook (the workspace directory, real path). */
  cwd: string;
  projectDir: string;
  /** Top level of the git work tree, when the workspace is in one: `$(git rev-parse --show-toplevel)`. */
  gitTopLevel?: string;
  pluginRoot?: string;
  pluginData?: string;
  homeDir: string;
  /** The PATH commands are looked up in; default process.env.PATH. */
  path?: string;
}

export interface Pins {
  /** Absolute paths whose content (or absence) is pinned, in order, without duplicates. */
  files: string[];
  /** Directories pinned recursively (an interpreter given a directory). */
  trees: string[];
  /** Further records: glob match lists, keyed `glob:<cwd>:<pattern>`. */
  records: Record<string, string>;
  /** Directories a glob listed: an entry created there (or removed) changes what the glob runs. */
  listed: string[];
  /** Why what runs cannot be determined; empty when the hook is pinned. */
  unpinned: string[];
  /** Pinned files the hook executes by their path (no interpreter named): their x bit matters. */
  executed?: string[];
}

/** Bounds, so a hostile command cannot make the model run away. */
export const MAX_DEPTH = 8;
export const MAX_COMMANDS = 2000;
export const MAX_GLOB_MATCHES = 256;

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
export const PYTHON = /^python(\d+(\.\d+)?)?$/;
export const NODE_LIKE = new Set(['node', 'nodejs', 'tsx', 'ts-node', 'bun']);
export const SCRIPTED = new Set(['ruby', 'perl', 'php', 'lua', 'Rscript', 'awk', 'gawk']);
export const PACKAGE_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'deno']);
export const RECIPE_RUNNERS = new Set(['make', 'gmake', 'just', 'task', 'rake']);
/** Toolchains that build and run what their project files (Cargo.toml, go.mod, pyproject.toml, …) name: a directory or a package. */
export const TOOLCHAINS = new Set([
  'cargo',
  'go',
  'poetry',
  'uv',
  'uvx',
  'pipx',
  'pipenv',
  'pdm',
  'hatch',
  'rye',
  'pixi',
  'conda',
  'mamba',
  'tox',
  'nox',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'dotnet',
  'swift',
  'mix',
  'stack',
  'cabal',
  'sbt',
  'lein',
  'composer',
  'bundle',
  'nix',
  'bazel',
  'cmake',
  'ninja',
  'dune',
  'zig',
]);
/** Shell builtins (POSIX and bash): found without a PATH lookup. */
export const BUILTINS = new Set(
  ': . [ [[ alias bg break builtin caller cd command compgen complete continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait'.split(
    ' ',
  ),
);
/** Programs that run a command from their arguments in a way not modelled (a lock, a scheduler, another user). */
export const COMMAND_RUNNERS = new Set([
  'sudo',
  'doas',
  'su',
  'runuser',
  'sg',
  'flock',
  'chrt',
  'taskset',
  'numactl',
  'cpulimit',
  'prlimit',
  'setpriv',
  'nsenter',
  'unshare',
  'chroot',
  'firejail',
  'bwrap',
  'systemd-run',
  'watch',
  'caffeinate',
  'script',
  'parallel',
  'strace',
  'ltrace',
  'valgrind',
  'gdb',
  'busybox',
  'unbuffer',
  'faketime',
  'proxychains',
  'torsocks',
  'xvfb-run',
]);

/** One argv element: a string, or unknown (with why). */
export type Arg = string | { unknown: string };
export const isKnown = (a: Arg | undefined): a is string => typeof a === 'string';

/** The variable an argument assigns when its value is unknown (`export X=$(…)`, `env X=$(…)`; shell.ts). */
export const assignedName = (a: Arg | undefined): string | undefined =>
  a === undefined || isKnown(a) ? undefined : (a as { assign?: string }).assign;

/** Whether a path has a `..` name in it. */
export const hasDotDot = (p: string): boolean => /(^|\/)\.\.(\/|$)/.test(p);

/** The directory is no longer known (nor `$PWD` with it). */
export function forgetDirectory(st: State): void {
  st.cwd = undefined;
  delete st.pwd;
}

export interface State {
  /** Current directory, undefined when unknown: the real path, where the kernel resolves relative paths. */
  cwd: string | undefined;
  /**
   * The shell's `$PWD` where it differs from `cwd`: the directory as `cd` named it, through a
   * symbolic link (`cd lnk`). `cd ..` goes up from it, as the shells' default `cd -L` does.
   */
  pwd?: string;
  /** Shell variables with a known value. */
  vars: Map<string, string>;
  /** Names exported to child processes (nested `sh -c`). */
  exported: Set<string>;
  /** Functions defined so far (their bodies are modelled where defined). */
  functions: Set<string>;
  /**
   * Which grammar the shell running these commands reads: `posix` for sh (dash on Debian), where
   * `&>`, `$'…'` and `$"…"` mean something else than in bash (the parser reads bash).
   */
  dialect: 'posix' | 'bash';
  /**
   * Standard input comes from a redirection made around these commands (`{ sh; } < f`,
   * `exec < f`): a shell or interpreter reading its script from stdin reads that, not the payload.
   */
  stdinRedirected?: true;
}

/** Whether a redirection gives standard input (`< f`, `<> f`, `<&3`, a here-document) to what it is on. */
export function redirectsStdin(r: { type: string; operator?: string; descriptor?: { type: string; value?: unknown } }): boolean {
  if (r.type === 'HereDoc' || r.type === 'HereString') return true;
  if (r.type !== 'Redirect' || !['<', '<>', '<&'].includes(r.operator ?? '')) return false;
  return r.descriptor === undefined || (r.descriptor.type === 'FileDescriptor' && r.descriptor.value === 0);
}

export interface Run {
  ctx: PinContext;
  pins: Pins;
  seenFiles: Set<string>;
  seenTrees: Set<string>;
  commands: number;
  /** The pinned files a shell or interpreter runs, and the state each starts in (includes.ts models what they load). */
  scripts?: ScriptRun[];
  /** Set while a script's own text is walked for what it sources (shell-includes.ts). */
  includes?: IncludeHooks;
  /** PATH was assigned: `$(dirname …)` and the like may run another program than the system's. */
  pathAssigned?: true;
}

export interface ScriptRun {
  file: string;
  /** The script's path as the interpreter was given it (`$0`); undefined when read from stdin. */
  given: string | undefined;
  /** The interpreter named on the command line; undefined for a program executed directly (its shebang says). */
  interpreter: string | undefined;
  st: State;
  /** Loaded by `source`/`.` into the hook's own shell. */
  sourced?: true;
  /** Python's sys.path[0] where it is not the script's directory (`-m`: the current directory). */
  searchDir?: string;
}

/** What the walk of a script's text reports to shell-includes.ts. */
export interface IncludeHooks {
  /** Position of the command being modelled, for the line in a reason. */
  at: number;
  source(st: State, file: Arg | undefined, depth: number): void;
  /** A function definition; false when the walker should model it itself. */
  define(st: State, name: string, body: SyntaxNode): boolean;
  /** A call of a function the script defined; false when it is not one. */
  call(st: State, name: string, depth: number): boolean;
  /** Files a command reads (`written`: writes) as data (data-reads.ts). */
  data(st: State, files: readonly string[], written: boolean): void;
}

/** The state a child process starts in: exported variables plus the command's own assignments. */
export function childState(st: State, env: Map<string, Arg>): State {
  const vars = new Map<string, string>();
  for (const k of st.exported) {
    const v = st.vars.get(k);
    if (v !== undefined) vars.set(k, v);
  }
  const exported = new Set(st.exported);
  for (const [k, v] of env) {
    exported.add(k);
    if (isKnown(v)) vars.set(k, v);
    else vars.delete(k);
  }
  // The directory, grammar and stdin carry over; functions do not reach a child process.
  return { ...clone(st), vars, exported, functions: new Set() };
}

export const clone = (s: State): State => ({
  cwd: s.cwd,
  ...(s.pwd !== undefined ? { pwd: s.pwd } : {}),
  vars: new Map(s.vars),
  exported: new Set(s.exported),
  functions: new Set(s.functions),
  dialect: s.dialect,
  ...(s.stdinRedirected ? { stdinRedirected: true as const } : {}),
});

/**
 * Variables that change which files a shell or an interpreter runs, or where it finds them: a
 * startup file (BASH_ENV, ENV, HOME's dotfiles), the command search path, the directory words
 * resolve in, an interpreter's own options or module path, a preloaded library. The model does
 * not follow them: setting one in the command or the hook's `env` unpins the hook.
 */
export const STEERING_VARIABLES = new Set([
  'BASH_ENV',
  'ENV',
  'PS4',
  'HOME',
  'ZDOTDIR',
  'PATH',
  'CDPATH',
  'PWD',
  'OLDPWD',
  'IFS',
  'SHELLOPTS',
  'BASHOPTS',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONUSERBASE',
  'PYTHONHOME',
  'PYTHONSAFEPATH',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  'LUA_INIT',
  'LUA_PATH',
  'LUA_CPATH',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
]);

/** Unpin when `name` steers what runs (STEERING_VARIABLES); `where` says how it was set. */
export function steeringAssignment(run: Run, name: string, where: string): void {
  if (name === 'PATH') run.pathAssigned = true;
  // bash imports `BASH_FUNC_name%%=() { …; }` from its environment as a function named name.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    unpin(run, `${where} sets ${JSON.stringify(name)}, not a variable name (bash reads BASH_FUNC_…%% as a function); that is not modelled`);
  else if (STEERING_VARIABLES.has(name))
    unpin(run, `${where} sets ${name}, which changes what runs or where it is found; that is not modelled`);
}

export function unpin(run: Run, why: string): void {
  if (!run.pins.unpinned.includes(why)) run.pins.unpinned.push(why);
}

export function pinFile(run: Run, p: string): void {
  if (p.includes('\0')) return;
  if (!run.seenFiles.has(p)) {
    run.seenFiles.add(p);
    run.pins.files.push(p);
  }
}

export function pinTree(run: Run, p: string): void {
  if (!run.seenTrees.has(p)) {
    run.seenTrees.add(p);
    run.pins.trees.push(p);
  }
}

export { isDir, isFile };

/** Resolve a path the shell would use; undefined when relative and the directory is unknown. */
export function resolveIn(st: State, p: string): string | undefined {
  if (!path.isAbsolute(p) && st.cwd === undefined) return undefined;
  const joined = path.isAbsolute(p) ? p : `${st.cwd}/${p}`;
  // The kernel follows a symbolic link before a `..` (`lnk/../x` is the link target's parent's x);
  // `path.resolve` would drop `lnk/..` as text.
  return hasDotDot(p) ? physicalPath(joined) : path.normalize(joined);
}

/** An absolute path resolved name by name as the kernel does: each symbolic link before a `..` is followed. */
function physicalPath(abs: string): string {
  let cur = '/';
  for (const name of abs.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      cur = path.dirname(cur);
      continue;
    }
    cur = path.join(cur, name);
    try {
      if (lstatSync(cur).isSymbolicLink()) cur = realpathSync(cur);
    } catch {
      // Missing from here on: the rest is joined as text, as it will be when it is created.
    }
  }
  return cur;
}

/** Record an executed path (script, program, sourced file); `runs`: a script, and the state it starts in. */
export function pinExecuted(run: Run, st: State, p: string, what: string, runs?: Omit<ScriptRun, 'file' | 'given'>): void {
  const abs = resolveIn(st, p);
  if (abs === undefined) {
    unpin(run, `${what} ${p} is relative to a directory that cannot be determined`);
    return;
  }
  pinFile(run, abs);
  if (runs) run.scripts?.push({ file: abs, given: p, ...runs, st: clone(runs.st) });
}

/** Record a script given to an interpreter (`named`: as an operand, so it is `$0`): a directory is pinned whole. */
export function pinScript(run: Run, st: State, p: string, interpreter: string, named = true): void {
  const abs = resolveIn(st, p);
  if (abs === undefined) {
    unpin(run, `${interpreter} script ${p} is relative to a directory that cannot be determined`);
    return;
  }
  if (/^\/(dev\/stdin|dev\/fd\/\d+|proc\/self\/fd\/\d+)$/.test(abs)) {
    unpin(run, `${interpreter} reads its script from ${abs}; that is not modelled`);
    return;
  }
  if (isDir(abs)) pinTree(run, abs);
  else {
    pinFile(run, abs);
    run.scripts?.push({ file: abs, given: named ? p : undefined, interpreter, st: clone(st) });
  }
}

export function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Path-like arguments of any command are pinned too (config files, data the hook reads). */
export function referencedArgs(run: Run, st: State, args: Arg[]): void {
  if (run.includes) return; // a script's own text: only what it sources is kept
  for (const a of args) {
    if (!isKnown(a) || a === '' || a.startsWith('-') || /\s|:\/\/|[*?]/.test(a)) continue;
    const eq = a.indexOf('=');
    const w = eq > 0 && /^[A-Za-z_][A-Za-z0-9_-]*=/.test(a) && a.slice(eq + 1).includes('/') ? a.slice(eq + 1) : a;
    if (path.isAbsolute(w) || w.includes('/')) {
      const abs = resolveIn(st, w);
      if (abs !== undefined) pinFile(run, abs);
    } else if (st.cwd !== undefined) {
      const candidate = path.resolve(st.cwd, w);
      if (isFile(candidate)) pinFile(run, candidate);
    }
  }
}
