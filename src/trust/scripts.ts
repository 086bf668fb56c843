/**
 * Which files a command hook runs, and what they contain.
 *
 * A hook's config is only half of what it does; the files it executes are the other half.
 * pins.ts models the command as a shell would run it and says which paths to pin (or why the
 * hook is unpinned); this module turns those paths into canonical digest records (hash.ts):
 * the directory part of every path is a real path, a symbolic link is recorded as a link and
 * its target gets its own record, a missing path is recorded as `missing` so creating it later
 * is a change.
 */
import type { Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { hashFile, hashTree, type HashCache } from './hash.js';
import { pinsOf, type Pins } from './pins.js';
import type { CommandHandler } from '../types.js';

export interface ScriptContext {
  /** Working directory of the hook (the workspace directory). */
  cwd: string;
  projectDir: string;
  pluginRoot?: string;
  pluginData?: string;
  homeDir: string;
  /** `$(git rev-parse --show-toplevel)`: the work tree's top level. */
  gitTopLevel?: string;
}

/** What a referenced path held when it was hashed. */
export type ScriptState =
  | { kind: 'file'; sha256: string; size: number }
  | { kind: 'missing' }
  | { kind: 'directory' }
  /** A FIFO, socket or device: never read. */
  | { kind: 'special' }
  | { kind: 'error'; message: string };

/**
 * Absolute paths of the files a command hook pins (pins.ts: what it executes, plus every
 * path-like word), in order, without duplicates.
 */
export async function referencedScripts(handler: CommandHandler, ctx: ScriptContext): Promise<string[]> {
  return pinsOf(handler, {
    cwd: ctx.cwd,
    projectDir: ctx.projectDir,
    homeDir: ctx.homeDir,
    ...(ctx.gitTopLevel !== undefined ? { gitTopLevel: ctx.gitTopLevel } : {}),
    ...(ctx.pluginRoot !== undefined ? { pluginRoot: ctx.pluginRoot } : {}),
    ...(ctx.pluginData !== undefined ? { pluginData: ctx.pluginData } : {}),
  }).files;
}

/** One record of a hook's pins: a canonical path (or a `glob:` key) and what it holds. */
export interface PinRecord {
  key: string;
  /** The digest record (hash.ts); absent when unreadable (then `error`). */
  record?: string;
  error?: string;
  /** Set when the path is a symbolic link: the real path of its target. */
  target?: string;
}

async function canonicalLinkPath(p: string): Promise<string> {
  const dir = path.dirname(p);
  try {
    return path.join(await fs.realpath(dir), path.basename(p));
  } catch {
    return p;
  }
}

/**
 * The records of a hook's pins. Every path is canonical: the directory part is a real path; a
 * symbolic link is recorded as a link (`symlink:<real target>`) and its target gets its own record.
 */
export async function pinRecords(pins: Pins, cache?: HashCache): Promise<{ records: PinRecord[]; unpinned: string[] }> {
  const records: PinRecord[] = [];
  const unpinned = [...pins.unpinned];
  const seen = new Set<string>();
  const add = (r: PinRecord) => {
    if (!seen.has(r.key)) {
      seen.add(r.key);
      records.push(r);
    }
  };
  const visit = async (p: string, tree: boolean, hops: number): Promise<void> => {
    const c = await canonicalLinkPath(p);
    if (seen.has(c)) return;
    let lst: Stats;
    try {
      lst = await fs.lstat(c);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') add({ key: c, record: 'missing' });
      else add({ key: c, error: `cannot read ${c}: ${code ?? (e as Error).message}` });
      return;
    }
    if (lst.isSymbolicLink()) {
      let target: string;
      try {
        target = await fs.realpath(c);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if ((code !== 'ENOENT' && code !== 'ENOTDIR') || hops > 40) {
          add({ key: c, error: `cannot read ${c}: ${code ?? (e as Error).message}` });
          return;
        }
        // Dangling: record the link text resolved once; creating the target is a change.
        const text = await fs.readlink(c).catch(() => '');
        target = path.resolve(path.dirname(c), text);
      }
      add({ key: c, record: `symlink:${target}`, target });
      await visit(target, tree, hops + 1);
      return;
    }
    if (lst.isDirectory()) {
      if (!tree) {
        add({ key: c, record: 'directory' });
        return;
      }
      const t = await hashTree(c, cache);
      if (t.ok) add({ key: c, record: t.record });
      else if (t.tooLarge) {
        add({ key: c, record: 'directory' });
        unpinned.push(`${t.message}: too large to pin`);
      } else add({ key: c, error: t.message });
      return;
    }
    if (!lst.isFile()) {
      add({ key: c, record: 'special' });
      return;
    }
    const h = await hashFile(c, cache);
    if (h.ok) add({ key: c, record: `sha256:${h.sha256}` });
    else if (h.code === 'ENOENT') add({ key: c, record: 'missing' });
    else add({ key: c, error: `cannot read ${c}: ${h.code}` });
  };
  for (const f of pins.files) await visit(f, false, 0);
  for (const t of pins.trees) await visit(t, true, 0);
  for (const [k, v] of Object.entries(pins.records)) add({ key: k, record: v });
  return { records, unpinned };
}

/** Hash a referenced path. Never throws. */
export async function hashScript(file: string): Promise<ScriptState> {
  let stat: Stats;
  try {
    stat = await fs.stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: `cannot read ${file}: ${code ?? (e as Error).message}` };
  }
  if (stat.isDirectory()) return { kind: 'directory' };
  if (!stat.isFile()) return { kind: 'special' };
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { kind: 'file', sha256: hash.digest('hex'), size };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { kind: 'error', message: `cannot read ${file}: ${code ?? (e as Error).message}` };
  }
}
