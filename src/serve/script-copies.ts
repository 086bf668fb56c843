/**
 * Copies of trusted script contents, so the panel can show a line diff of a script that changed
 * since it was trusted. The trust store records only each script's sha256; the content is kept
 * here, content-addressed: `<dir>/<sha256 hex>`.
 *
 * A copy is written when serve records trust, and whenever serve sees a workspace in state
 * `trusted` (then every referenced script still has its trusted hash). Each copy is hashed again
 * before it is written and after it is read, so a copy is exactly the trusted content or is not
 * used. Copies no trusted config refers to any more are removed after each trust or revoke.
 *
 * Default directory: `trusted-scripts/` next to the trust store. It is created 0700 and refused
 * (no copies kept or read) when it is a symlink or not owned by the current user.
 */
import type { FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { TrustReport } from '../trust/index.js';
import { readTrustStore } from '../trust/index.js';

/** Scripts larger than this are not copied (their diff is not shown). */
const MAX_SCRIPT_COPY = 512 * 1024;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const HEX = /^[0-9a-f]{64}$/;

export function defaultScriptCopiesDir(storePath: string): string {
  return path.join(path.dirname(storePath), 'trusted-scripts');
}

async function usableDir(dir: string, create: boolean): Promise<boolean> {
  try {
    if (create) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const st = await fs.lstat(dir);
    if (!st.isDirectory()) return false;
    const uid = process.getuid?.();
    if (process.platform !== 'win32' && uid !== undefined && st.uid !== uid) return false;
    if (process.platform !== 'win32' && (st.mode & 0o022) !== 0) return false;
    return true;
  } catch {
    return false;
  }
}

/** Read a regular file up to `max` bytes; undefined when missing, special, larger or unreadable. */
export async function readSmallFile(file: string, max = MAX_SCRIPT_COPY): Promise<Buffer | undefined> {
  // O_NOFOLLOW: a path that became a symlink since it was judged showable is not read through.
  let fh: FileHandle | undefined;
  try {
    fh = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = await fh.stat();
    if (!st.isFile() || st.size > max) return undefined;
    const buf = await fh.readFile();
    return buf.length > max ? undefined : buf;
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** Keep a copy of every referenced script (that `keep` accepts) whose current content is what the report records. Best effort; never throws. */
export async function keepScriptCopies(
  report: Pick<TrustReport, 'scripts'>,
  dir: string,
  keep: (file: string) => boolean | Promise<boolean> = () => true,
): Promise<number> {
  const wanted: TrustReport['scripts'] = [];
  for (const s of report.scripts) if (s.current.startsWith('sha256:') && (await keep(s.path))) wanted.push(s);
  if (wanted.length === 0 || !(await usableDir(dir, true))) return 0;
  let kept = 0;
  for (const s of wanted) {
    const hex = s.current.slice('sha256:'.length);
    if (!HEX.test(hex)) continue;
    const target = path.join(dir, hex);
    try {
      await fs.access(target);
      kept++;
      continue;
    } catch {
      // not kept yet
    }
    const buf = await readSmallFile(s.path);
    if (!buf || sha256(buf) !== hex) continue; // changed since assessed, or too large
    try {
      await writeFileAtomic(target, buf, { mode: 0o600 });
      kept++;
    } catch {
      // best effort: the diff then says the trusted content was not kept
    }
  }
  return kept;
}

/** The kept content for a `sha256:<hex>` record, verified; undefined when not kept. */
export async function readScriptCopy(record: string | undefined, dir: string): Promise<Buffer | undefined> {
  if (!record?.startsWith('sha256:')) return undefined;
  const hex = record.slice('sha256:'.length);
  if (!HEX.test(hex) || !(await usableDir(dir, false))) return undefined;
  const buf = await readSmallFile(path.join(dir, hex));
  return buf && sha256(buf) === hex ? buf : undefined;
}

/** Remove copies that no trusted config in the store refers to. Best effort; never throws. */
export async function pruneScriptCopies(storePath: string, dir: string): Promise<void> {
  try {
    if (!(await usableDir(dir, false))) return;
    const store = await readTrustStore(storePath);
    const live = new Set<string>();
    for (const rec of Object.values(store.workspaces)) {
      for (const v of Object.values(rec.hooks?.config.scripts ?? {})) if (v.startsWith('sha256:')) live.add(v.slice(7));
    }
    for (const name of await fs.readdir(dir)) {
      if (HEX.test(name) && !live.has(name)) await fs.rm(path.join(dir, name), { force: true });
    }
  } catch {
    // best effort
  }
}
