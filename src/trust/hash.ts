/**
 * Content records of pinned paths, and a cache so a fresh `dispatch` per event does not re-hash
 * megabytes of scripts.
 *
 * Records (what the digest stores per canonical path):
 * - `sha256:<hex>` a regular file; `missing`; `directory` (a path-like argument that is a
 *   directory: not hashed); `special` (FIFO, socket, device: never read);
 * - `symlink:<real target>` for a link (the target gets its own record);
 * - `tree:sha256:<hex>` for a directory an interpreter runs, hashed recursively (names, kinds,
 *   contents, link texts) within MAX_TREE_FILES / MAX_TREE_BYTES.
 *
 * The cache maps a real path to its sha256 together with the file's (device, inode, size,
 * mtime, ctime) in nanoseconds; a hit needs all five to be equal. Any write changes ctime, and
 * ctime cannot be set back by a user, so a stale hit needs the clock to be turned back. Files whose
 * ctime is less than RACY_MS old are not cached: a write in the same timestamp tick as the hash
 * would otherwise go unseen. The cache lives in memory per process and on disk in
 * `hash-cache.json` next to the trust store (same directory, same owner and mode checks: a file
 * someone else can write is ignored and never written).
 */
import type { FileHandle } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { createHash } from 'node:crypto';
import { constants, createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';

export const MAX_TREE_FILES = 2000;
const MAX_TREE_BYTES = 32 * 1024 * 1024;
const RACY_MS = 1000;
const MAX_CACHE_ENTRIES = 20000;

export type HashResult = { ok: true; sha256: string; size: number } | { ok: false; code: string };

interface CacheEntry {
  /** dev:ino:size:mtimeNs:ctimeNs */
  k: string;
  h: string;
}

export class HashCache {
  private entries = new Map<string, CacheEntry>();
  private dirty = false;
  private loaded = false;
  /** undefined: memory only. */
  constructor(
    readonly file?: string,
    private readonly racyMs = RACY_MS,
  ) {}

  async load(): Promise<void> {
    if (this.loaded || !this.file) return;
    this.loaded = true;
    let fh: FileHandle | undefined;
    try {
      fh = await fs.open(this.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      const st = await fh.stat();
      if (!trustworthy(st) || !st.isFile() || st.size > 16 * 1024 * 1024) return;
      const data = JSON.parse(await fh.readFile('utf8')) as { version?: number; entries?: Record<string, CacheEntry> };
      if (data.version !== 1 || !data.entries || typeof data.entries !== 'object') return;
      for (const [p, e] of Object.entries(data.entries))
        if (typeof e?.k === 'string' && typeof e?.h === 'string' && /^[0-9a-f]{64}$/.test(e.h)) this.entries.set(p, e);
    } catch {
      // no cache, or unusable: hash everything
    } finally {
      await fh?.close();
    }
  }

  get(file: string, key: string): string | undefined {
    const e = this.entries.get(file);
    return e && e.k === key ? e.h : undefined;
  }

  set(file: string, key: string, sha256: string): void {
    this.entries.delete(file);
    this.entries.set(file, { k: key, h: sha256 });
    this.dirty = true;
  }

  isRacy(ctimeNs: bigint): boolean {
    return BigInt(Date.now()) * 1_000_000n - ctimeNs < BigInt(this.racyMs) * 1_000_000n;
  }

  /** Write the cache back when it changed. Best effort; never throws. */
  async flush(): Promise<void> {
    if (!this.dirty || !this.file) return;
    this.dirty = false;
    try {
      const dir = path.dirname(this.file);
      const dst = await fs.lstat(dir).catch(() => undefined);
      if (!dst?.isDirectory() || !trustworthy(dst)) return;
      const existing = await fs.lstat(this.file).catch(() => undefined);
      if (existing && (!existing.isFile() || !trustworthy(existing))) return;
      const all = [...this.entries];
      const kept = all.slice(Math.max(0, all.length - MAX_CACHE_ENTRIES));
      // Loaded only when the cache changed: a dispatch whose scripts are all cached needs none.
      const { default: writeFileAtomic } = await import('write-file-atomic');
      await writeFileAtomic(this.file, JSON.stringify({ version: 1, entries: Object.fromEntries(kept) }), { mode: 0o600 });
    } catch {
      // best effort
    }
  }
}

/** Owned by this user and writable by no one else (the store's directory, the caches). */
export function trustworthy(st: { uid: number; mode: number }): boolean {
  if (process.platform === 'win32') return true;
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/** The hash cache's file name, beside the trust store. */
export const HASH_CACHE_FILE = 'hash-cache.json';

/** The default on-disk cache for a trust store. */
export function hashCacheFor(storePath: string): HashCache {
  return new HashCache(path.join(path.dirname(storePath), HASH_CACHE_FILE));
}

const statKey = (st: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }) =>
  `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

/** sha256 of a regular file, through the cache. */
export async function hashFile(file: string, cache?: HashCache): Promise<HashResult> {
  let before: BigIntStats;
  try {
    before = await fs.stat(file, { bigint: true });
  } catch (e) {
    return { ok: false, code: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
  const key = statKey(before);
  const hit = cache?.get(file, key);
  if (hit) return { ok: true, sha256: hit, size: Number(before.size) };
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const sha256 = hash.digest('hex');
    const after = await fs.stat(file, { bigint: true });
    if (cache && statKey(after) === key && !cache.isRacy(after.ctimeNs)) cache.set(file, key, sha256);
    return { ok: true, sha256, size };
  } catch (e) {
    return { ok: false, code: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

export type TreeResult = { ok: true; record: string } | { ok: false; tooLarge?: boolean; message: string };

/** Hash a directory recursively: every entry's relative name, kind and content (links by their text). */
export async function hashTree(dir: string, cache?: HashCache): Promise<TreeResult> {
  const lines: string[] = [];
  let files = 0;
  let bytes = 0;
  const walk = async (rel: string): Promise<TreeResult | undefined> => {
    const abs = rel ? path.join(dir, rel) : dir;
    let names: string[];
    try {
      names = (await fs.readdir(abs)).sort();
    } catch (e) {
      return { ok: false, message: `cannot read ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    for (const name of names) {
      if (++files > MAX_TREE_FILES)
        return { ok: false, tooLarge: true, message: `directory ${dir} has more than ${MAX_TREE_FILES} entries` };
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(dir, r);
      const st = await fs.lstat(p).catch(() => undefined);
      if (!st) {
        lines.push(`${r}\0missing`);
      } else if (st.isSymbolicLink()) {
        lines.push(`${r}\0symlink\0${await fs.readlink(p).catch(() => '')}`);
      } else if (st.isDirectory()) {
        lines.push(`${r}\0dir`);
        const sub = await walk(r);
        if (sub) return sub;
      } else if (st.isFile()) {
        bytes += st.size;
        if (bytes > MAX_TREE_BYTES)
          return { ok: false, tooLarge: true, message: `directory ${dir} holds more than ${MAX_TREE_BYTES / 1024 / 1024} MiB` };
        const h = await hashFile(p, cache);
        if (!h.ok) return { ok: false, message: `cannot read ${p}: ${h.code}` };
        lines.push(`${r}\0file\0${(st.mode & 0o111) !== 0 ? 'x' : '-'}\0${h.sha256}`);
      } else {
        lines.push(`${r}\0special`);
      }
    }
    return undefined;
  };
  const failed = await walk('');
  if (failed) return failed;
  return { ok: true, record: `tree:sha256:${createHash('sha256').update(lines.join('\n')).digest('hex')}` };
}
