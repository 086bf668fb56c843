/**
 * The trust store: one JSON file in the user's config directory.
 *
 * Location (first that applies): the `storePath` option; `$AGENT_HOOKS_TRUST_STORE`;
 * `$XDG_CONFIG_HOME/agent-hooks/trust.json`; `~/.config/agent-hooks/trust.json`.
 *
 * Safety: the store and its directory must not be symlinks, must be owned by the current user
 * and must not be group- or world-writable — otherwise every read and write is refused with a
 * TrustStoreError that says what to fix (a store someone else can write is a store that can
 * grant trust). The file is opened with O_NOFOLLOW and checked on the open descriptor. Writes go
 * through a lock (`trust.json.lock`), a temp file and an atomic rename; the file is mode 0600
 * and a missing directory is created mode 0700.
 */
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { compiledCheck } from '../events/compiled.js';
import { hasOwnProtoKey } from '../util/proto-key.js';
import type { CanonicalConfig } from './digest.js';

// Where the store lives is decided without loading this module (dispatch looks for it on its fast path).
export { defaultTrustStorePath } from '../util/trust-store-path.js';
const VERSION = 1;

export interface TrustRecord {
  /** Workspace directory the record was last written from (informational). */
  path: string;
  /** Workspace trust: the workspace may contribute config at all. */
  workspaceTrustedAt: string;
  /** Hook trust: the digest (and the canonical config it was computed from) that may run. */
  hooks?: { digest: string; trustedAt: string; config: CanonicalConfig };
}

export interface TrustStoreData {
  version: 1;
  /** Keyed by canonical workspace identity (workspace.ts). */
  workspaces: Record<string, TrustRecord>;
}

export class TrustStoreError extends Error {
  override name = 'TrustStoreError';
}

const CHECK_MODES = process.platform !== 'win32';

function checkOwnerAndMode(what: string, p: string, st: { mode: number; uid: number }): void {
  if (!CHECK_MODES) return;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new TrustStoreError(`trust store ${what} ${p} is owned by uid ${st.uid}, not by you (uid ${uid}); refusing to use it`);
  }
  if ((st.mode & 0o022) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new TrustStoreError(
      `trust store ${what} ${p} is group- or world-writable (mode ${mode}); refusing to use it. Fix: chmod go-w ${p}`,
    );
  }
}

/** Check the store's directory; false when it does not exist. */
async function checkDirectory(dir: string): Promise<boolean> {
  let st: Stats;
  try {
    st = await fs.lstat(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    throw new TrustStoreError(`cannot access trust store directory ${dir}: ${code ?? (e as Error).message}`);
  }
  if (st.isSymbolicLink()) throw new TrustStoreError(`trust store directory ${dir} is a symlink; refusing to use it`);
  if (!st.isDirectory()) throw new TrustStoreError(`trust store directory ${dir} is not a directory`);
  checkOwnerAndMode('directory', dir, st);
  return true;
}

function emptyStore(): TrustStoreData {
  return { version: VERSION, workspaces: {} };
}

/** Read and validate the store; a missing store is empty. Throws TrustStoreError. */
export async function readTrustStore(file: string): Promise<TrustStoreData> {
  if (!(await checkDirectory(path.dirname(file)))) return emptyStore();
  let handle: FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return emptyStore();
    if (code === 'ELOOP') throw new TrustStoreError(`trust store ${file} is a symlink; refusing to use it`);
    throw new TrustStoreError(`cannot read trust store ${file}: ${code ?? (e as Error).message}`);
  }
  let text: string;
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new TrustStoreError(`trust store ${file} is not a regular file`);
    checkOwnerAndMode('file', file, st);
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  if (text.trim() === '') return emptyStore();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new TrustStoreError(`trust store ${file} is not valid JSON (${(e as Error).message}); fix or remove it`);
  }
  // Accepted by the compiled validator: zod would return the same data (it accepts only what zod
  // accepts and would return unchanged), so zod is not loaded. A document with an own `__proto__`
  // key, however the text spells it, goes to zod, whose copy does not keep it as a key.
  if (compiledCheck('trustStore')?.(raw) && !hasOwnProtoKey(raw)) return checkVersion(file, raw as TrustStoreData);
  const { trustStoreSchema } = await import('./store-schema.js');
  const parsed = trustStoreSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TrustStoreError(
      `trust store ${file} is malformed at ${issue.path.join('.') || '(root)'}: ${issue.message}; fix or remove it`,
    );
  }
  return checkVersion(file, parsed.data as TrustStoreData);
}

function checkVersion(file: string, data: TrustStoreData): TrustStoreData {
  if (data.version !== VERSION) {
    throw new TrustStoreError(`trust store ${file} has version ${data.version}; this agent-hooks reads version ${VERSION}`);
  }
  return data;
}

/**
 * Read-modify-write under the store's lock. `mutate` changes the data in place and returns a
 * value; the store is written (atomically, mode 0600) when it returns. Throws TrustStoreError.
 */
export async function updateTrustStore<T>(file: string, mutate: (data: TrustStoreData) => T): Promise<T> {
  const dir = path.dirname(file);
  if (!(await checkDirectory(dir))) {
    try {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      throw new TrustStoreError(`cannot create trust store directory ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    await checkDirectory(dir);
  }
  // Loaded here, not with the module: a read (every dispatch in a trusted project) needs neither.
  const [{ default: lockfile }, { default: writeFileAtomic }] = await Promise.all([import('proper-lockfile'), import('write-file-atomic')]);
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      lockfilePath: `${file}.lock`,
      retries: { retries: 100, minTimeout: 10, maxTimeout: 100 },
      stale: 10_000,
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (e) {
    throw new TrustStoreError(`cannot lock trust store ${file}: ${(e as Error).message}`);
  }
  try {
    const data = await readTrustStore(file);
    const result = mutate(data);
    if (compromised) throw new TrustStoreError(`lost the lock on trust store ${file}: ${compromised.message}`);
    // readTrustStore refused a symlinked file; the directory is ours and not writable by others.
    try {
      await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    } catch (e) {
      throw new TrustStoreError(`cannot write trust store ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}
