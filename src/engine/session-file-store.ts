/**
 * The session counters of `agent-hooks dispatch` (src/engine/session-counters.ts): a dispatch
 * process lives for one event, so the Stop-block count and the `once` hooks already run are kept
 * in a small private file per session, read and written by every process of that session.
 *
 * Location: `$XDG_STATE_HOME/agent-hooks/sessions/` (an absolute $XDG_STATE_HOME only), else
 * `~/.local/state/agent-hooks/sessions/`; one file per session, named by the SHA-256 of the
 * session id (the id comes from the agent's payload: never a path). Content:
 * `{ "version": 1, "counters": { "<key>": n } }`; a counter set back to 0 is removed, and so is
 * a file left with none.
 *
 * Safety: the directory is created 0700 and each file 0600. A directory that is a symlink, not
 * owned by the current user, or group- or world-writable is refused with a warning: the counters
 * are then kept in this process's memory only (someone else could otherwise reset the Stop cap or
 * replay a `once` hook). A file that is corrupt, unreadable or unsafe reads as empty, with a
 * warning; nothing here throws.
 *
 * Atomicity: `update` holds a lock file (`<name>.lock`, created with O_EXCL, taken over when older
 * than `lockStaleMs`) while it reads, computes and renames a fresh file into place; readers see
 * the old file or the new one, never half of one. An update that changes nothing takes no lock
 * (the read is its linearization point), so a Stop that does not block costs one read.
 *
 * Bounds: `maxKeys` counters per file (the oldest dropped first), and, at most once per
 * `pruneIntervalMs` (a marker file's mtime says when), files older than `maxAgeMs` and the oldest
 * beyond `maxSessions` (by mtime) are deleted.
 *
 * Start-up cost: node built-ins only (no proper-lockfile: ~15 ms to load here), `node:crypto` only
 * once a counter is read or written.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { memoryCounterStore, type SessionCounterStore } from './session-counters.js';
import { userHome } from '../util/os-dirs.js';

export interface FileCounterStoreOptions {
  /** The sessions directory (default: `defaultSessionStateDir()`). */
  dir?: string;
  /** Session files kept (default 1,000); the oldest by mtime are deleted beyond it. */
  maxSessions?: number;
  /** A session file not written for this long is deleted (ms, default 30 days). */
  maxAgeMs?: number;
  /** Counters per session file (default 256); the oldest is dropped beyond it. */
  maxKeys?: number;
  /** Pruning runs at most this often (ms, default 1 hour); 0 = on every write. */
  pruneIntervalMs?: number;
  /** A lock file older than this is taken to be left by a crashed process (ms, default 10,000). */
  lockStaleMs?: number;
  onWarning?: (message: string) => void;
}

const DAY_MS = 24 * 3600 * 1000;
const DEFAULTS = { maxSessions: 1000, maxAgeMs: 30 * DAY_MS, maxKeys: 256, pruneIntervalMs: 3600 * 1000, lockStaleMs: 10_000 };
/** A session file larger than this is not ours (256 keys of any sane length fit well within). */
const MAX_FILE_BYTES = 1 << 20;
/** Written when pruning runs; its mtime says when it last did. */
const PRUNE_MARKER = '.pruned';
const POSIX = process.platform !== 'win32';

// `node:crypto` on first use (as src/util/os-dirs.ts loads `node:os`): a dispatch whose event keeps
// no counters, every tool event, must not load it (test/cli/lazy-load.test.ts; docs/performance.md item 13).
const require = createRequire(import.meta.url);
let nodeCrypto: typeof import('node:crypto') | undefined;

/** `$XDG_STATE_HOME/agent-hooks/sessions` (when absolute), else `~/.local/state/agent-hooks/sessions`. */
export function defaultSessionStateDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir ?? userHome(), '.local', 'state');
  return path.join(base, 'agent-hooks', 'sessions');
}

/** The file name of a session's counters: the SHA-256 of its id, in hex (`printf %s "$ID" | sha256sum`). */
export function sessionFileName(sessionId: string): string {
  nodeCrypto ??= require('node:crypto') as typeof import('node:crypto');
  return `${nodeCrypto.createHash('sha256').update(sessionId).digest('hex')}.json`;
}

/**
 * The store dispatch passes to its engine (`sessionCounters`): a file per session under
 * `$XDG_STATE_HOME/agent-hooks/sessions` or `~/.local/state/agent-hooks/sessions`.
 */
export function sessionCounterStoreFor(
  o: { env?: NodeJS.ProcessEnv; homeDir?: string; onWarning?: (message: string) => void } = {},
): SessionCounterStore {
  return fileCounterStore({ dir: defaultSessionStateDir(o.env, o.homeDir), onWarning: o.onWarning });
}

type Counters = Record<string, number>;

/** One store's state: its settings, whether its directory passed the checks, its fallback. */
interface FileStore {
  dir: string;
  limits: typeof DEFAULTS;
  warn: (message: string) => void;
  /** The directory passed the checks (it exists, is ours and private). */
  dirOk: boolean;
  /** Set once the directory (or a write) failed: the counters of this process from then on. */
  fallback: SessionCounterStore | undefined;
  /** Files already warned about (one warning each per process). */
  warned: Set<string>;
  pruneChecked: boolean;
}

export function fileCounterStore(o: FileCounterStoreOptions = {}): SessionCounterStore {
  const st: FileStore = {
    dir: path.resolve(o.dir ?? defaultSessionStateDir()),
    limits: {
      maxSessions: o.maxSessions ?? DEFAULTS.maxSessions,
      maxAgeMs: o.maxAgeMs ?? DEFAULTS.maxAgeMs,
      maxKeys: o.maxKeys ?? DEFAULTS.maxKeys,
      pruneIntervalMs: o.pruneIntervalMs ?? DEFAULTS.pruneIntervalMs,
      lockStaleMs: o.lockStaleMs ?? DEFAULTS.lockStaleMs,
    },
    warn: o.onWarning ?? ((m) => process.stderr.write(`agent-hooks: ${m}\n`)),
    dirOk: false,
    fallback: undefined,
    warned: new Set(),
    pruneChecked: false,
  };
  return {
    read(sessionId, key) {
      if (!usableDir(st, false)) return st.fallback?.read(sessionId, key) ?? 0;
      return readCounters(st, sessionFile(st, sessionId))[key] ?? 0;
    },
    update: (sessionId, key, next) => updateCounter(st, sessionId, key, next),
  };
}

const sessionFile = (st: FileStore, sessionId: string) => path.join(st.dir, sessionFileName(sessionId));

/**
 * Is the directory usable? Checked once per store; a missing one is created (0700) only for a
 * write. A refused directory switches the store to memory, with one warning.
 */
function usableDir(st: FileStore, create: boolean): boolean {
  if (st.dirOk) return true;
  if (st.fallback) return false;
  let problem = dirProblem(st.dir);
  if (problem === 'missing') {
    if (!create) return false;
    try {
      mkdirSync(st.dir, { recursive: true, mode: 0o700 });
      problem = dirProblem(st.dir);
    } catch (e) {
      problem = `cannot create ${st.dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
  if (problem === undefined) {
    st.dirOk = true;
    return true;
  }
  st.warn(`session state directory ${problem}; refusing it: Stop-block counts and once hooks are kept in this process only`);
  st.fallback = memoryCounterStore();
  return false;
}

/** Why the directory must not hold session state ('missing' when it does not exist yet). */
function dirProblem(dir: string): string | undefined {
  let s: ReturnType<typeof lstatSync>;
  try {
    s = lstatSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'missing' : `${dir} cannot be read (${code ?? (e as Error).message})`;
  }
  if (s.isSymbolicLink()) return `${dir} is a symlink`;
  if (!s.isDirectory()) return `${dir} is not a directory`;
  if (!POSIX) return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && s.uid !== uid) return `${dir} is owned by uid ${s.uid}, not by you (uid ${uid})`;
  if ((s.mode & 0o022) !== 0) return `${dir} is group- or world-writable (fix: chmod 700 ${dir})`;
  return undefined;
}

function warnOnce(st: FileStore, file: string, message: string): void {
  if (st.warned.has(file)) return;
  st.warned.add(file);
  st.warn(message);
}

/** A session file's counters; missing is empty, and so (with a warning) is anything unusable. */
function readCounters(st: FileStore, file: string): Counters {
  const counters = Object.create(null) as Counters;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      warnOnce(st, file, `session state file ${file} cannot be read (${code ?? (e as Error).message}); reading it as empty`);
    return counters;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile() || s.size > MAX_FILE_BYTES) throw new Error('not a small regular file');
    if (POSIX && s.uid !== process.getuid?.()) throw new Error(`owned by uid ${s.uid}, not by you`);
    if (POSIX && (s.mode & 0o022) !== 0) throw new Error('group- or world-writable');
    const data = JSON.parse(readFileSync(fd, 'utf8')) as { version?: unknown; counters?: unknown };
    if (data?.version !== 1 || data.counters === null || typeof data.counters !== 'object' || Array.isArray(data.counters))
      throw new Error('not a version 1 counters file');
    for (const [key, value] of Object.entries(data.counters)) {
      if (!Number.isSafeInteger(value) || value === 0) throw new Error(`counter ${JSON.stringify(key)} is not a non-zero integer`);
      counters[key] = value as number;
    }
    return counters;
  } catch (e) {
    warnOnce(st, file, `session state file ${file} is unusable (${(e as Error).message}); reading it as empty`);
    return Object.create(null) as Counters;
  } finally {
    closeSync(fd);
  }
}

async function updateCounter(st: FileStore, sessionId: string, key: string, next: (value: number) => number): Promise<number> {
  if (!usableDir(st, false)) {
    if (st.fallback) return st.fallback.update(sessionId, key, next);
    // No directory yet: every counter is 0, and one staying 0 needs no directory (a Stop that does not block).
    if (next(0) === 0) return 0;
    if (!usableDir(st, true)) return st.fallback!.update(sessionId, key, next);
  }
  const file = sessionFile(st, sessionId);
  // Nothing to change at the moment of this read: no lock, no write (the common Stop that does not block).
  const seen = readCounters(st, file)[key] ?? 0;
  let before = seen;
  let after = next(seen);
  if (after === seen) return seen;
  let release: (() => void) | undefined;
  try {
    release = await lock(`${file.slice(0, -'.json'.length)}.lock`, st.limits.lockStaleMs);
    const counters = readCounters(st, file);
    before = counters[key] ?? 0;
    after = next(before);
    if (after !== before) writeCounters(st, file, counters, key, after);
  } catch (e) {
    st.warn(`session state in ${st.dir} cannot be written (${(e as Error).message}); keeping session counters in this process only`);
    st.fallback = memoryCounterStore();
    st.dirOk = false;
    st.fallback.update(sessionId, key, () => after);
    return before;
  } finally {
    release?.();
  }
  pruneIfDue(st);
  return before;
}

/** Set (or, for 0, remove) one counter and replace the file atomically; a file left empty is deleted. */
function writeCounters(st: FileStore, file: string, counters: Counters, key: string, value: number): void {
  delete counters[key];
  if (value !== 0) counters[key] = value;
  const keys = Object.keys(counters);
  if (keys.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  if (keys.length > st.limits.maxKeys) {
    for (const k of keys.slice(0, keys.length - st.limits.maxKeys)) delete counters[k];
    warnOnce(st, `${file}#keys`, `session state file ${file} holds over ${st.limits.maxKeys} counters; the oldest are dropped`);
  }
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeSync(fd, JSON.stringify({ version: 1, counters }));
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Take the lock file (O_EXCL create): retried with a growing jittered wait; one older than
 * `staleMs` (its holder crashed: a holder keeps it for a read and a rename) is removed and the
 * lock taken again. Gives up after twice `staleMs`.
 */
async function lock(lockFile: string, staleMs: number): Promise<() => void> {
  const deadline = Date.now() + 2 * staleMs;
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lockFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
      return () => rmSync(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    try {
      if (Date.now() - statSync(lockFile).mtimeMs > staleMs) {
        rmSync(lockFile, { force: true });
        continue;
      }
    } catch {
      continue; // released between the two calls: try again at once
    }
    if (Date.now() > deadline) throw new Error(`lock ${lockFile} still held after ${2 * staleMs} ms`);
    await sleep(Math.min(2 ** attempt, 20) * (0.5 + Math.random()));
  }
}

/** Once per store, and at most once per interval across processes (the marker's mtime): prune. */
function pruneIfDue(st: FileStore): void {
  if (st.pruneChecked) return;
  st.pruneChecked = true;
  const marker = path.join(st.dir, PRUNE_MARKER);
  const now = Date.now();
  try {
    if (now - statSync(marker).mtimeMs < st.limits.pruneIntervalMs) return;
    utimesSync(marker, new Date(now), new Date(now));
  } catch {
    try {
      writeFileSync(marker, '', { mode: 0o600, flag: 'wx' });
    } catch {
      return; // another process made it just now, and prunes
    }
  }
  try {
    pruneSessions(st, now);
  } catch (e) {
    st.warn(`pruning ${st.dir} failed: ${(e as Error).message}`);
  }
}

/** Delete session files older than maxAgeMs, the oldest beyond maxSessions, and temp and lock files a crash left. */
function pruneSessions(st: FileStore, now: number): void {
  const { maxAgeMs, maxSessions, lockStaleMs } = st.limits;
  const kept: Array<{ file: string; mtime: number }> = [];
  for (const name of readdirSync(st.dir)) {
    const file = path.join(st.dir, name);
    const isSession = /^[0-9a-f]{64}\.json$/.test(name);
    if (!isSession && !name.endsWith('.tmp') && !name.endsWith('.lock')) continue;
    let mtime: number;
    try {
      mtime = lstatSync(file).mtimeMs;
    } catch {
      continue;
    }
    if (isSession && now - mtime <= maxAgeMs) kept.push({ file, mtime });
    else if (isSession || now - mtime > lockStaleMs) rmSync(file, { force: true });
  }
  if (kept.length <= maxSessions) return;
  kept.sort((a, b) => a.mtime - b.mtime);
  for (const { file } of kept.slice(0, kept.length - maxSessions)) rmSync(file, { force: true });
}
