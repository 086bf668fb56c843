/**
 * The spawner: a small long-lived Node process that forks command hooks for the host.
 *
 * `spawn()` forks the calling process, and a fork costs in proportion to the caller's memory
 * (page tables): ~2 ms from a 50 MiB process, ~40 ms from 1 GiB, blocking the event loop. An
 * embedding agent is a big process; the spawner is ~40 MiB whatever the host holds, so a hook
 * costs the same from any host (docs/performance.md "Spawning from a helper").
 *
 * Only the fork moves: the helper starts the hook exactly as runCommand would (own session and
 * process group, pipes, the given environment) and relays its pid, output and exit over IPC.
 * Everything else stays in the host's runCommand: timeouts, the drain after exit, the output
 * cap, and killing the tree (by process group and /proc, which work from any process of the
 * same user). The helper forwards at most the cap (plus one chunk) of each stream and hands the
 * rest to the drainer, as runCommand does for a hook it forks (src/backends/capture.ts), so
 * a flood costs the host nothing and the helper stays small (its size is what every later fork
 * costs: reading a 500 MiB flood itself took the helper from ~41 to ~78 MiB for good).
 *
 * Lifecycle: started on first use, without waiting for it (hooks fork directly until it says
 * it is ready); exits when the host goes (its IPC channel closes); restarted after it dies
 * (at most MAX_RESTARTS times a minute, then direct spawn for good); a helper that cannot
 * start means direct spawn. It never keeps the host alive: the channel is referenced only
 * while hooks run through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { HAND_OFF_PAST_CAP_BYTES, drainerCandidate } from './capture.js';

/** What supervise() in command.ts uses of a child: a ChildProcess, or a hook run by the spawner. */
export interface HookChild extends EventEmitter {
  readonly pid: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdin: { end(data: string | Buffer): void; destroy(): void; on(event: 'error', fn: () => void): unknown } | null;
  readonly stdout: EventEmitter & { destroy(): void };
  readonly stderr: EventEmitter & { destroy(): void };
  kill(signal?: NodeJS.Signals): boolean;
  /** Deliver events held back until the caller's listeners are attached (spawner children). */
  flush?(): void;
}

export interface SpawnRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string | Buffer;
  /** Per stream: the helper forwards this much (plus one chunk) and drops the rest. */
  maxOutputBytes: number;
}

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * The helper, run with `node -e` (no file to find, whether the engine runs from dist, a bundle
 * or the sources). Messages: in `spawn`/`release`; out `ready`, `spawned`, `error`, `out`,
 * `exit`, `close`. It loads nothing but node:child_process.
 */
const HELPER_SOURCE = `
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const kids = new Map();
const send = (m) => { try { process.send(m); } catch {} };
// Signals sent to the host's process group are for the host, which may catch them and live on (a
// Ctrl-C cancelling a turn, a SIGTERM starting a graceful stop); the helper ends with its channel.
for (const s of ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP']) process.on(s, () => {});
// A hook's output has ended when its own close and each drainer's (status 0: cat saw the end) are in.
const end = (k) => { if (--k.ends === 0) { kids.delete(k.id); send({ t: 'close', id: k.id }); } };
const readOn = (stream) => { if (stream._handle && stream._handle.setBlocking) stream._handle.setBlocking(false); stream.resume(); };
// Past the cap, the drainer the host names reads the rest (drainToCat in src/backends/capture.ts),
// once it was seen to work here (worksOnEmptyInput there), tried on the first flood.
const drainerWorks = new Map();
const drain = (k, stream, argv) => {
  const key = argv.join('\\0');
  if (!drainerWorks.has(key)) {
    let r;
    try { r = spawnSync(argv[0], argv.slice(1), { stdio: 'ignore', cwd: '/', env: {}, timeout: 2000, killSignal: 'SIGKILL' }); } catch { return false; }
    const code = r.error && r.error.code;
    if (r.error && code !== 'ETIMEDOUT' && code !== 'ENOENT' && code !== 'EACCES') return false; // not started this time: ask again
    drainerWorks.set(key, !r.error && r.status === 0);
  }
  if (!drainerWorks.get(key)) return false;
  let d;
  try { d = spawn(argv[0], argv.slice(1), { stdio: [stream, 'ignore', 'ignore'], cwd: '/', env: {} }); } catch { readOn(stream); return false; }
  d.on('error', () => {});
  if (d.pid === undefined) { readOn(stream); return false; }
  stream.destroy();
  k.ends++;
  k.drainers.push(d);
  d.on('close', (code) => { if (code === 0) end(k); });
  return true;
};
process.on('exit', () => { for (const k of kids.values()) for (const d of k.drainers) d.kill('SIGKILL'); });
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m.t === 'release') {
    const k = kids.get(m.id);
    if (k) {
      kids.delete(m.id); k.stdin.destroy(); k.stdout.destroy(); k.stderr.destroy();
      for (const d of k.drainers) if (d.exitCode === null && d.signalCode === null) d.kill('SIGKILL');
    }
    return;
  }
  if (m.t !== 'spawn') return;
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    send({ t: 'error', id: m.id, sync: true, message: String(err && err.message) });
    return;
  }
  child.on('error', (err) => { if (child.pid === undefined) send({ t: 'error', id: m.id, code: err.code, message: err.message }); });
  if (child.pid === undefined) return;
  child.id = m.id; child.ends = 1; child.drainers = [];
  kids.set(m.id, child);
  send({ t: 'spawned', id: m.id, pid: child.pid });
  for (const fd of [1, 2]) {
    const stream = fd === 1 ? child.stdout : child.stderr;
    let sent = 0;
    let dropped = 0;
    let tried = !m.drain;
    const onData = (chunk) => {
      if (sent <= m.max) { sent += chunk.length; send({ t: 'out', id: m.id, fd, data: chunk }); return; }
      dropped += chunk.length;
      if (tried || dropped <= ${HAND_OFF_PAST_CAP_BYTES}) return;
      tried = true;
      if (drain(child, stream, m.drain)) stream.off('data', onData);
    };
    stream.on('data', onData);
    stream.on('error', () => {});
  }
  child.stdin.on('error', () => {});
  child.stdin.end(m.stdin);
  child.on('exit', (code, signal) => send({ t: 'exit', id: m.id, code, signal }));
  child.on('close', () => end(child));
});
send({ t: 'ready' });
`;

type Message =
  | { t: 'ready' }
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'error'; id: number; sync?: boolean; code?: string; message: string }
  | { t: 'out'; id: number; fd: 1 | 2; data: Uint8Array }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'close'; id: number };

class RemoteStream extends EventEmitter {
  constructor(private readonly onDestroy: () => void) {
    super();
  }
  destroy(): void {
    this.onDestroy();
  }
}

/** A hook started by the helper, seen as a ChildProcess. */
class RemoteChild extends EventEmitter implements HookChild {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdin = { end: () => {}, destroy: () => {}, on: () => this };
  readonly stdout: RemoteStream;
  readonly stderr: RemoteStream;

  constructor(release: () => void) {
    super();
    this.stdout = new RemoteStream(release);
    this.stderr = new RemoteStream(release);
  }

  kill(): boolean {
    return false; // only used on Windows, where there is no spawner
  }

  /** Several IPC messages can arrive in one tick, before runCommand has attached its listeners. */
  private held: Array<() => void> | null = [];

  deliver(event: () => void): void {
    if (this.held) this.held.push(event);
    else event();
  }

  flush(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) event();
  }
}

interface Helper {
  proc: ChildProcess;
  ready: boolean;
  /** Stopped on purpose (resetSpawner): its exit is no death. */
  retired?: boolean;
  kids: Map<number, RemoteChild>;
  /** Requests sent, not yet answered with `spawned` or `error`. */
  pending: Map<number, (r: HookChild | SpawnFailure) => void>;
}

/** The hook could not start: `sync` errors are bad options, the others errno failures (ENOENT, EACCES). */
export interface SpawnFailure {
  error: NodeJS.ErrnoException;
  sync: boolean;
}

let helper: Helper | undefined;
let disabled = false;
let nextId = 1;
const deaths: number[] = [];
let helperCommand: { execPath: string; args: string[] } = { execPath: process.execPath, args: ['-e', HELPER_SOURCE] };

function start(): void {
  let proc: ChildProcess;
  try {
    proc = spawn(helperCommand.execPath, helperCommand.args, {
      // No NODE_OPTIONS, loaders or inspector of the host: a bare Node runs the helper.
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      windowsHide: true,
    });
  } catch {
    disabled = true;
    return;
  }
  const h: Helper = { proc, ready: false, kids: new Map(), pending: new Map() };
  helper = h;
  proc.unref();
  proc.channel?.unref();
  proc.on('error', () => {
    // Could not start (or signal) it: the exit handler below, or never started at all.
    if (proc.pid === undefined) gone(h, false);
  });
  proc.on('exit', () => gone(h, h.ready));
  proc.on('message', (m: Message) => onMessage(h, m));
}

function gone(h: Helper, wasReady: boolean): void {
  if (helper === h) helper = undefined;
  if (h.retired) {
    // stopped on purpose: neither a failure to start nor a death
  } else if (!wasReady)
    disabled = true; // it never started: direct spawn from now on
  else {
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! < now - RESTART_WINDOW_MS) deaths.shift();
    if (deaths.length > MAX_RESTARTS) disabled = true;
  }
  for (const [id, answer] of h.pending) {
    h.pending.delete(id);
    answer({ error: Object.assign(new Error('the spawner exited before the hook started'), { code: 'ESPAWNER' }), sync: true });
  }
  // Hooks in flight lost their relay: their trees are killed and they end as killed.
  for (const [id, child] of h.kids) {
    h.kids.delete(id);
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    child.deliver(() => child.emit('exit', null, 'SIGKILL'));
    child.deliver(() => child.emit('close'));
  }
}

function onMessage(h: Helper, m: Message): void {
  if (m.t === 'ready') {
    h.ready = true;
    return;
  }
  if (m.t === 'spawned' || m.t === 'error') {
    const answer = h.pending.get(m.id);
    h.pending.delete(m.id);
    const child = h.kids.get(m.id);
    if (m.t === 'spawned' && child) {
      child.pid = m.pid;
      answer?.(child);
    } else {
      done(h, m.id);
      const error = Object.assign(new Error(m.t === 'error' ? m.message : 'lost'), m.t === 'error' && m.code ? { code: m.code } : {});
      answer?.({ error, sync: m.t === 'error' && m.sync === true });
    }
    return;
  }
  const child = h.kids.get(m.id);
  if (!child) return;
  switch (m.t) {
    case 'out': {
      const data = Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
      child.deliver(() => (m.fd === 1 ? child.stdout : child.stderr).emit('data', data));
      break;
    }
    case 'exit':
      child.deliver(() => {
        child.exitCode = m.code;
        child.signalCode = m.signal;
        child.emit('exit', m.code, m.signal);
      });
      break;
    case 'close':
      done(h, m.id);
      child.deliver(() => child.emit('close'));
      break;
  }
}

function done(h: Helper, id: number): void {
  if (!h.kids.delete(id)) return;
  if (h.kids.size === 0) h.proc.channel?.unref();
}

/**
 * Start a hook through the spawner. undefined: no spawner ready (not started yet, failed,
 * disabled); the caller spawns directly. Resolves once the helper answered: the child (pid
 * set; call flush() after attaching listeners) or why it could not start.
 */
export function spawnViaHelper(req: SpawnRequest): Promise<HookChild | SpawnFailure> | undefined {
  if (disabled || process.platform === 'win32') return undefined;
  if (!helper) start();
  const h = helper;
  if (!h?.ready || !h.proc.connected) return undefined;
  const id = nextId++;
  const child = new RemoteChild(() => {
    if (h.kids.has(id) && h.proc.connected) h.proc.send({ t: 'release', id }, () => {});
  });
  h.kids.set(id, child);
  if (h.kids.size === 1) h.proc.channel?.ref();
  const stdin = typeof req.stdin === 'string' ? Buffer.from(req.stdin) : req.stdin;
  return new Promise((resolve) => {
    h.pending.set(id, resolve);
    const drain = drainerCandidate();
    h.proc.send(
      { t: 'spawn', id, file: req.file, args: req.args, cwd: req.cwd, env: req.env, stdin, max: req.maxOutputBytes, drain },
      (err) => {
        if (err) h.proc.kill('SIGKILL'); // its exit answers every pending request
      },
    );
  });
}

/** Start the helper ahead of the first hook (the engine calls this when it has command hooks). */
function warmSpawner(): void {
  if (!disabled && !helper && process.platform !== 'win32') start();
}

/** The helper's pid when one is running and ready (tests, benchmarks). */
export function spawnerPid(): number | undefined {
  return helper?.ready ? helper.proc.pid : undefined;
}

/** Resolves when the helper is ready, or false when it cannot start (tests, benchmarks). */
export async function spawnerReady(timeoutMs = 10_000): Promise<boolean> {
  warmSpawner();
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (spawnerPid() !== undefined) return true;
    if (disabled) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

/** Stop the helper and forget failures (tests); `command` replaces how it is started. */
export function resetSpawner(command?: { execPath: string; args: string[] }): void {
  if (helper) {
    const h = helper;
    h.retired = true;
    h.proc.kill('SIGKILL');
    helper = undefined;
  }
  disabled = false;
  deaths.length = 0;
  helperCommand = command ?? { execPath: process.execPath, args: ['-e', HELPER_SOURCE] };
}
