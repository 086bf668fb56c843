/**
 * Shared machinery of the hardening suite: tagging every hook process so the process table
 * can be searched for leftovers, building engines from real settings files, and running the
 * real CLI as a child process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadConfig, type HookEngineOptions, type LoadedConfig } from '../../src/index.js';
// The untyped engine: these tests feed it payloads the typed run() would not let compile.
import { createHookEngine, type HookEngine } from '../../src/engine/engine.js';
import { HAS_PROC, isPidLive, waitUntil } from '../backends/helpers.js';
import type { TempDir } from '../helpers/tmp.js';

export { HAS_PROC, isPidLive, waitUntil };
export { fixture, prepareFixtures } from '../backends/helpers.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Set by `npm run test:hardening:ci` (vitest --mode ci): fewer generated cases and events, CLI under one policy. */
export const CI_SUBSET = process.env.HARDENING_CI === '1';

/** Environment variable every hook of the suite carries; its children inherit it. */
export const TAG_VAR = 'AGENT_HOOKS_HARDENING_TAG';

let tagSeq = 0;
/** A tag unique to this test process and call. */
export function newTag(): string {
  return `h${process.pid}-${Date.now().toString(36)}-${tagSeq++}`;
}

function readState(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ', 1)[0];
  } catch {
    return undefined;
  }
}

/**
 * Live (not zombie) processes whose environment carries `tag`. The environment survives
 * setsid(), double forks and re-parenting to init, so this finds escapees a process-group
 * or parent-link search would miss. (Zombies count as dead: pid 1 here does not reap.)
 */
export function liveTagged(tag: string): number[] {
  if (!HAS_PROC) return [];
  const needle = Buffer.from(`${TAG_VAR}=${tag}\0`);
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone, or not ours
    }
    if (environ.indexOf(needle) < 0) continue; // every entry of /proc/<pid>/environ ends with NUL
    const state = readState(pid);
    if (state !== undefined && state !== 'Z' && state !== 'X') out.push(pid);
  }
  return out;
}

/** Process groups of the live tagged processes (each hook execution is its own group). */
export function liveTaggedGroups(tag: string): Set<number> {
  const groups = new Set<number>();
  for (const pid of liveTagged(tag)) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
      groups.add(Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[2]));
    } catch {
      // exited in between
    }
  }
  return groups;
}

/** SIGKILL every live process carrying `tag` (by pid; only processes this suite started carry it). */
export function killTagged(tag: string): void {
  for (const pid of liveTagged(tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Asserts that nothing carrying `tag` is alive (after a short settle: SIGKILL is delivered
 * asynchronously), then kills whatever is left so one failure does not cascade.
 */
export async function expectNoLeak(tag: string, settleMs = 2000): Promise<void> {
  const clean = await waitUntil(() => liveTagged(tag).length === 0, settleMs);
  const left = clean ? [] : liveTagged(tag).map((pid) => `${pid} ${describePid(pid)}`);
  killTagged(tag);
  expect(left, 'hook processes left alive').toEqual([]);
}

function describePid(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').trim();
  } catch {
    return '?';
  }
}

type Json = Record<string, unknown>;

/** Adds `env: { TAG_VAR: tag }` to every command handler of a hooks object (a copy). */
export function tagHooks(hooks: Json, tag: string): Json {
  const out: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    out[event] = (groups as Array<{ hooks: Json[] }>).map((g) => ({
      ...g,
      hooks: g.hooks.map((h) => (h.type === 'command' ? { ...h, env: { ...(h.env as Json | undefined), [TAG_VAR]: tag } } : h)),
    }));
  }
  return out;
}

/** Writes `{ hooks }` (tagged) as a settings file in `dir` and returns its path. */
export function writeSettings(dir: TempDir, hooks: Json, tag: string, name = 'settings.json', extra: Json = {}): string {
  return dir.json(name, { hooks: tagHooks(hooks, tag), ...extra });
}

/** loadConfig on one settings file, the way the CLI's --settings does; fails the test on config errors. */
export async function loadSettings(dir: TempDir, file: string): Promise<LoadedConfig> {
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return config;
}

/** An engine over tagged hooks from a real settings file. */
export async function engineFor(dir: TempDir, hooks: Json, tag: string, opts: Partial<HookEngineOptions> = {}): Promise<HookEngine> {
  const file = writeSettings(dir, hooks, tag);
  const config = await loadSettings(dir, file);
  return createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root, spillDir: dir.path('spill'), ...opts });
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs dist/cli/main.js with `args` (async, so other work and sampling go on meanwhile). */
export function runCli(
  args: string[],
  opts: { cwd: string; input?: string | Buffer; timeoutMs?: number; env?: Record<string, string> },
): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run test:hardening does)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The CLI never reports an internal error (a crash caught at the top) or dies by a signal. */
export function expectNoCrash(r: CliResult): void {
  expect(r.signal).toBeNull();
  expect(r.stderr).not.toMatch(/internal error|RangeError|TypeError|Maximum call stack/);
}

/** A shell command that prints `obj` as JSON (single-quoted for sh). */
export function emit(obj: unknown): string {
  return `printf '%s' '${JSON.stringify(obj).replace(/'/g, `'\\''`)}'`;
}

export const bash = (command: string, id = 'toolu_1'): Json => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

/** Prototype pollution check: nothing was added to Object.prototype. */
export function expectPrototypeClean(): void {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'isAdmin', 'permissionDecision', 'continue', 'x']) expect(probe[key]).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(OBJECT_PROTOTYPE_KEYS);
}
const OBJECT_PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
