/**
 * One agent run inside a fresh network namespace with only loopback: `unshare -n` starts
 * ns-run.mjs, which brings `lo` up, starts the scripted fake model server on FAKE_PORT and
 * spawns the agent. Every namespace has its own loopback, so one fixed port serves all runs.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HARNESS_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(HARNESS_DIR, '..', '..', '..');
/** The worktree's built CLI, as the dispatch line of every agent config names it. */
export const CLI = join(REPO_ROOT, 'dist', 'cli', 'bin.cjs');
export const HOOK = join(HARNESS_DIR, 'hook.mjs');
export const FAKE_PORT = 18_080;
export const FAKE_URL = `http://127.0.0.1:${FAKE_PORT}`;

export type WireApi = 'anthropic' | 'gemini' | 'responses' | 'chat' | 'augment';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Responses API custom (freeform) tool: `input.input` is sent as the raw input string. */
  custom?: boolean;
}

export interface ModelScript {
  /** Answered in order, one per tool result already in the request's history. */
  toolCalls: ToolCall[];
  finalText?: string;
}

export interface RunDirs {
  /** Holds everything of one run; removed by the caller's temp cleanup. */
  root: string;
  /** The agent's HOME. */
  home: string;
  /** The agent's working directory (marker files land here). */
  work: string;
  /** The `agent-hooks` executable the dispatch line names, when not the worktree's (`brokenInstall`). */
  cli?: string;
}

export interface NamespaceRun {
  command: string;
  args: string[];
  /** The complete environment (nothing of the test process leaks in). */
  env: Record<string, string>;
  api: WireApi;
  script: ModelScript;
  stdin?: string;
  timeoutMs?: number;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The request's JSON body as the agent sent it (each agent's own API shape). */
  body: unknown;
}

export interface RunOutcome {
  code: number | null;
  signal: string | null;
  spawnError: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
  /** `ip -o link show` inside the namespace: proves only `lo` existed. */
  interfaces: string[];
  /** Every request the fake model got, in order. */
  requests: RequestLogEntry[];
  /** Every payload the suite's hook program got (raw stdin), in order. */
  hookPayloads: { mode: string; dialect: string; raw: string }[];
  /** How often a `tracedDispatchCommand` ran. */
  dispatchCalls: number;
}

export function makeRunDirs(label: string): RunDirs {
  const root = mkdtempSync(join(tmpdir(), `agent-hooks-agents-${label}-`));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  return { root, home, work };
}

function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/** Runs `run` in a fresh loopback-only namespace against the fake model; never throws for the agent's failures. */
export async function runInNamespace(dirs: RunDirs, run: NamespaceRun): Promise<RunOutcome> {
  const specFile = join(dirs.root, 'ns-spec.json');
  const resultFile = join(dirs.root, 'ns-result.json');
  const logFile = join(dirs.root, 'model-requests.jsonl');
  const timeoutMs = run.timeoutMs ?? 120_000;
  writeFileSync(
    specFile,
    JSON.stringify({
      command: run.command,
      args: run.args,
      env: run.env,
      cwd: dirs.work,
      stdin: run.stdin ?? '',
      timeoutMs,
      resultFile,
      server: { api: run.api, script: run.script, logFile, port: FAKE_PORT },
    }),
  );
  const wrapperErr = await new Promise<string>((resolve) => {
    const child = spawn('unshare', ['-n', process.execPath, join(HARNESS_DIR, 'ns-run.mjs'), specFile], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 30_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve(code === 0 ? '' : `namespace wrapper exited ${code}: ${err.slice(-2000)}`);
    });
  });
  if (!existsSync(resultFile)) throw new Error(wrapperErr || 'namespace wrapper wrote no result');
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  return {
    ...result,
    requests: readJsonl<RequestLogEntry>(logFile),
    hookPayloads: readJsonl(join(dirs.root, 'hook-payloads.jsonl')),
    dispatchCalls: existsSync(join(dirs.root, 'dispatch-calls'))
      ? readFileSync(join(dirs.root, 'dispatch-calls'), 'utf8').split('\n').filter(Boolean).length
      : 0,
  };
}

/** Whether this machine can run agents at all (root, unshare, ip); the reason when not. */
export function namespaceUnavailable(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'needs root for unshare -n';
  return null;
}

/** The base environment of every agent run: a temp HOME, this Node on PATH, no proxies. */
export function baseEnv(dirs: RunDirs, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: dirs.home,
    USER: 'root',
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    TMPDIR: join(dirs.root, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

/** A shell-quoted `node hook.mjs <runDir> <dialect> <mode> <token>` command line. */
export function hookCommand(dirs: RunDirs, dialect: string, mode: string, token: string): string {
  return [process.execPath, HOOK, dirs.root, dialect, mode, token].map(shq).join(' ');
}

/** `node <worktree>/dist/cli/bin.cjs dispatch --agent D --settings <engine.json>` */
export function dispatchCommand(agent: string, engineFile: string, extra: string[] = [], cli = CLI): string {
  return [process.execPath, cli, 'dispatch', '--agent', agent, ...extra, '--settings', engineFile].map(shq).join(' ');
}

/**
 * `dispatchCommand` that first appends a line to `<root>/dispatch-calls`, so a run can tell an
 * agent that never ran its hook from a dispatch that ran and let the call through.
 */
export function tracedDispatchCommand(dirs: RunDirs, agent: string, engineFile: string, extra: string[] = []): string {
  return `echo x >> ${shq(join(dirs.root, 'dispatch-calls'))}; exec ${dispatchCommand(agent, engineFile, extra, dirs.cli)}`;
}

/**
 * A copy of the worktree's package inside `root` with the hook-running bundle file removed, as a
 * half-updated install would be: dispatch starts, finds the hooks, and cannot load what runs them.
 * Returns its executable.
 */
export function brokenInstall(root: string): string {
  const pkg = join(root, 'broken-agent-hooks');
  cpSync(join(REPO_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  rmSync(join(pkg, 'dist', 'cli', 'bundle', 'dispatch', 'run.js'));
  return join(pkg, 'dist', 'cli', 'bin.cjs');
}

export function shq(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
