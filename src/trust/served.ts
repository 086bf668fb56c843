/**
 * What the sandbox serves of a reviewed hook's verified pins (src/backends/sandbox-view.ts runs
 * them): the checked bytes of each file, read again through one descriptor and hashed again, so
 * what runs is what was checked (docs/security.md "What runs is what was reviewed").
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { PinRecord } from './scripts.js';
import type { ServedPin } from '../types.js';
import { isPathInside } from '../util/path-inside.js';

/** Served files, together: a pipe each into the sandbox (bwrap copies them into memory). */
const MAX_SERVED_BYTES = 64 * 1024 * 1024;
/** Written only by root (or a package manager): not served, read where they are. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/nix/store'];
const isSystem = (p: string) => SYSTEM_DIRS.some((d) => isPathInside(p, d));

/**
 * What the sandbox serves of the verified pins: each file's bytes read once and checked against
 * its record again (the very bytes that will run), links with their recorded target, and absent
 * paths kept absent. Directories an interpreter runs (`tree:`) are read in place, so the answer
 * of a hook whose tree changed while it ran is voided by `recheck` (docs/security.md).
 */
export async function servedPins(
  records: readonly PinRecord[],
  links: ReadonlyMap<string, string>,
): Promise<Map<string, ServedPin> | string> {
  const served = new Map<string, ServedPin>();
  let total = 0;
  for (const r of records) {
    if (!path.isAbsolute(r.key) || isSystem(r.key)) continue;
    if (r.record === 'missing') served.set(r.key, { kind: 'missing' });
    else if (r.target !== undefined) served.set(r.key, { kind: 'link', target: r.target });
    else if (r.record?.startsWith('sha256:')) {
      const read = await readThrough(r.key, MAX_SERVED_BYTES - total);
      if (read === 'too large' || (read !== undefined && total + read.bytes.length > MAX_SERVED_BYTES))
        return `its pinned files exceed ${MAX_SERVED_BYTES / 1024 / 1024} MiB, more than the sandbox serves`;
      if (read === undefined || `sha256:${createHash('sha256').update(read.bytes).digest('hex')}` !== r.record)
        return `${r.key} changed while it was being verified`;
      total += read.bytes.length;
      served.set(r.key, { kind: 'file', ...read });
    }
  }
  for (const [link, target] of links) if (!isSystem(link)) served.set(link, { kind: 'link', target });
  return served;
}

/**
 * A regular file's bytes and mode, both through one descriptor, at most `limit` bytes. Opened
 * without following a link and without blocking: a file swapped for a FIFO after the hash must
 * not hold the check until the host gives up (which may let the call through).
 */
async function readThrough(file: string, limit: number): Promise<{ bytes: Buffer; mode: number } | 'too large' | undefined> {
  const fd = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW).catch(() => undefined);
  if (fd === undefined) return undefined;
  try {
    const st = await fd.stat();
    if (!st.isFile()) return undefined;
    if (st.size > limit) return 'too large';
    return { mode: st.mode, bytes: await fd.readFile() };
  } catch {
    return undefined;
  } finally {
    await fd.close();
  }
}
