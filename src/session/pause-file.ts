/**
 * The pause file: which sessions are paused, for hosts that run one process per hook call
 * (`agent-hooks dispatch`). A HookManager keeps pause state in memory; a dispatch process lives
 * for one event, so `agent-hooks serve` records the pause here and dispatch reads it before it
 * loads any config: a paused session gets its agent's no-op answer and no hook runs.
 *
 * Location (first that applies): the `file` option; `$AGENT_HOOKS_PAUSE_FILE`; next to the trust
 * store (`paused-sessions.json` in the directory of `$AGENT_HOOKS_TRUST_STORE`, else
 * `$XDG_CONFIG_HOME/agent-hooks/`, else `~/.config/agent-hooks/`).
 *
 * Content: `{ "version": 1, "sessions": { "<session id>": { "pausedAt": ISO, "projectDir"? } } }`;
 * only paused sessions are listed, resuming removes the entry, entries older than 30 days are
 * dropped on every write.
 *
 * Safety: pausing switches guards off, so a file someone else could write must not pause
 * anything. A pause file that is a symlink, not owned by the current user, group- or
 * world-writable, or malformed pauses nothing (hooks run) and yields an error message instead.
 * Writes hold a lock, write a temp file and rename it (mode 0600; a missing directory is created
 * 0700). Reading is synchronous and imports nothing heavy: dispatch reads it on every call.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userHome } from '../util/os-dirs.js';
import path from 'node:path';

export const PAUSE_FILE_ENV = 'AGENT_HOOKS_PAUSE_FILE';
const TRUST_STORE_ENV = 'AGENT_HOOKS_TRUST_STORE';
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

export interface PausedSession {
  pausedAt: string;
  projectDir?: string;
}

export interface PauseFileData {
  version: 1;
  sessions: Record<string, PausedSession>;
}

export interface PauseFileRead {
  data: PauseFileData;
  /** Why the file was ignored (nothing is paused then). */
  error?: string;
}

/** Where the pause file lives (see the module comment). */
export function defaultPauseFilePath(env: NodeJS.ProcessEnv = process.env, homeDir: string = userHome()): string {
  const override = env[PAUSE_FILE_ENV];
  if (override) return path.resolve(override);
  const store = env[TRUST_STORE_ENV];
  if (store) return path.join(path.dirname(path.resolve(store)), 'paused-sessions.json');
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.config');
  return path.join(base, 'agent-hooks', 'paused-sessions.json');
}

// Null prototype: a session id such as `__proto__` is an ordinary key.
const empty = (): PauseFileData => ({ version: 1, sessions: Object.create(null) as Record<string, PausedSession> });

function validate(raw: unknown, file: string): PauseFileData {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`pause file ${file} is not a JSON object`);
  const o = raw as Record<string, unknown>;
  if (o.version !== 1) throw new Error(`pause file ${file} has version ${JSON.stringify(o.version)}; this agent-hooks reads version 1`);
  const sessions = o.sessions;
  if (sessions === null || typeof sessions !== 'object' || Array.isArray(sessions))
    throw new Error(`pause file ${file}: sessions must be an object`);
  const out: PauseFileData = empty();
  for (const [id, v] of Object.entries(sessions as Record<string, unknown>)) {
    const rec = v as Record<string, unknown> | null;
    if (rec === null || typeof rec !== 'object' || typeof rec.pausedAt !== 'string')
      throw new Error(`pause file ${file}: sessions.${id}.pausedAt must be a string`);
    out.sessions[id] = { pausedAt: rec.pausedAt, ...(typeof rec.projectDir === 'string' ? { projectDir: rec.projectDir } : {}) };
  }
  return out;
}

/** Read the pause file; never throws. A missing file is empty; an unsafe or malformed one is empty with `error`. */
export function readPauseFile(file: string = defaultPauseFilePath()): PauseFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { data: empty() };
    if (code === 'ELOOP') return { data: empty(), error: `pause file ${file} is a symlink; ignoring it` };
    return { data: empty(), error: `cannot read pause file ${file}: ${code ?? (e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { data: empty(), error: `pause file ${file} is not a regular file; ignoring it` };
    const uid = process.getuid?.();
    if (process.platform !== 'win32' && uid !== undefined && st.uid !== uid) {
      return { data: empty(), error: `pause file ${file} is owned by uid ${st.uid}, not by you (uid ${uid}); ignoring it` };
    }
    if (process.platform !== 'win32' && (st.mode & 0o022) !== 0) {
      return { data: empty(), error: `pause file ${file} is group- or world-writable; ignoring it. Fix: chmod go-w ${file}` };
    }
    const text = readFileSync(fd, 'utf8');
    if (text.trim() === '') return { data: empty() };
    return { data: validate(JSON.parse(text), file) };
  } catch (e) {
    return { data: empty(), error: `pause file ${file} is unusable (${(e as Error).message}); ignoring it` };
  } finally {
    closeSync(fd);
  }
}

/** Is this session paused? Cheap and synchronous (one open of a small file). */
export function isSessionPaused(sessionId: string, file: string = defaultPauseFilePath()): { paused: boolean; error?: string } {
  const { data, error } = readPauseFile(file);
  return { paused: Object.hasOwn(data.sessions, sessionId), ...(error ? { error } : {}) };
}

/**
 * Pause (`paused: true`) or resume a session in the pause file, under its lock. Throws when the
 * file is unsafe or unusable (a write must not silently replace a file we refused to read).
 * Returns the sessions paused afterwards.
 */
export async function setSessionPaused(
  sessionId: string,
  paused: boolean,
  opts: { file?: string; projectDir?: string; now?: Date } = {},
): Promise<PauseFileData> {
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 512)
    throw new TypeError('sessionId must be a non-empty string of at most 512 characters');
  const file = opts.file ?? defaultPauseFilePath();
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { default: lockfile } = await import('proper-lockfile');
  const { default: writeFileAtomic } = await import('write-file-atomic');
  const release = await lockfile.lock(file, {
    realpath: false,
    lockfilePath: `${file}.lock`,
    retries: { retries: 100, minTimeout: 10, maxTimeout: 100 },
    stale: 10_000,
  });
  try {
    const { data, error } = readPauseFile(file);
    if (error) throw new Error(error);
    const now = opts.now ?? new Date();
    for (const [id, rec] of Object.entries(data.sessions)) {
      const at = Date.parse(rec.pausedAt);
      if (!Number.isFinite(at) || now.getTime() - at > MAX_AGE_MS) delete data.sessions[id];
    }
    if (paused) {
      data.sessions[sessionId] = { pausedAt: now.toISOString(), ...(opts.projectDir !== undefined ? { projectDir: opts.projectDir } : {}) };
    } else {
      delete data.sessions[sessionId];
    }
    await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    return data;
  } finally {
    await release().catch(() => undefined);
  }
}
