/**
 * The pins of a walk kept (issue 39): a reviewed hook is modelled at load and again before it
 * runs, and each walk reads and parses its script and all it sources or imports. A kept walk is
 * reused only when every question it asked the file system (observed-fs.ts: each file read, by its
 * content's sha256; each existence, kind, link, listing and resolution) gets the same answer now;
 * given the same inputs (the key) the walk would then take the same path to the same pins.
 *
 * Kept in memory for the process, and in `walk-cache.json` next to the trust store (loadWalks,
 * flushWalks), so a dispatch, a fresh process per event, skips the first walk too. Nothing in the
 * file is believed but the pins of a walk: every answer is asked again before they are used. The
 * file is used only by a build that has an id (dist/cli/build-id, scripts/bundle-dispatch.mjs)
 * under the Node it was written with (the model's code and `isBuiltin` are not answers), and it has
 * the hash cache's checks: opened without following a link, ignored unless owned by the user and
 * not group or world writable, written with mode 0600 and renamed into place.
 */
import { constants, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustworthy } from '../hash.js';
import { recorded, unchanged, type Observation } from './observed-fs.js';
import type { Pins } from './model.js';

const MAX_WALKS = 64;
// A walk that asks more is not kept: its answers would outweigh the parse they save.
const MAX_OBSERVATIONS = 20_000;
const MAX_FILE_BYTES = 16 * 1024 * 1024;

interface Walk {
  observations: Observation[];
  pins: Pins;
}

const walks = new Map<string, Walk>();
/** The file walks are kept in, once loadWalks found a build to key them by; `dirty`: a walk was added since. */
let disk: { file: string; build: string; dirty: boolean } | undefined;

/** How the kept walks were used; for tests. */
export const walkCacheStats = { hits: 0, misses: 0 };
/** The walk cache's file name, beside the trust store. */
export const WALK_CACHE_FILE = 'walk-cache.json';

/** `walk()`, or its kept pins when nothing it asked has changed; `key`: every input of the walk. */
export function cachedWalk(key: string, walk: () => Pins): Pins {
  const kept = walks.get(key);
  if (kept !== undefined) {
    walks.delete(key);
    if (unchanged(kept.observations)) {
      walks.set(key, kept);
      walkCacheStats.hits++;
      return structuredClone(kept.pins);
    }
  }
  walkCacheStats.misses++;
  const { result, observations } = recorded(walk);
  if (observations.length <= MAX_OBSERVATIONS) {
    walks.set(key, { observations, pins: structuredClone(result) });
    if (walks.size > MAX_WALKS) walks.delete(walks.keys().next().value as string);
    if (disk) disk.dirty = true;
  }
  return result;
}

/** The id of the build this code is part of (dist/cli, whose files the id covers); undefined from the sources. */
export function buildId(): string | undefined {
  // Bundled into dist/cli/<bundle>/chunk.js or merged into dist/cli/x.js.
  let cli = path.dirname(fileURLToPath(import.meta.url));
  if (path.basename(cli) !== 'cli') cli = path.dirname(cli);
  if (path.basename(cli) !== 'cli') return undefined;
  try {
    const hex = readFileSync(path.join(cli, 'build-id'), 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
  } catch {
    return undefined;
  }
}

const fileBuild = (build: string): string => `${build} ${process.version}`;

/** Read the kept walks of `dir` (the trust store's directory), once per process; never throws. */
export async function loadWalks(dir: string, build = buildId()): Promise<void> {
  if (disk !== undefined || build === undefined) return;
  disk = { file: path.join(dir, WALK_CACHE_FILE), build: fileBuild(build), dirty: false };
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(disk.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = await fh.stat();
    if (!trustworthy(st) || !st.isFile() || st.size > MAX_FILE_BYTES) return;
    const data = JSON.parse(await fh.readFile('utf8')) as { version?: unknown; build?: unknown; walks?: unknown };
    if (data.version !== 1 || data.build !== disk.build || !Array.isArray(data.walks)) return;
    for (const w of data.walks as unknown[]) {
      const [key, walk] = Array.isArray(w) ? (w as unknown[]) : [];
      if (typeof key === 'string' && isWalk(walk) && !walks.has(key)) walks.set(key, walk);
    }
  } catch {
    // none yet, or unusable: walk
  } finally {
    await fh?.close();
  }
}

/** Write the kept walks back when one was added; best effort, never throws. */
export async function flushWalks(): Promise<void> {
  if (!disk?.dirty) return;
  disk.dirty = false;
  let tmp: string | undefined;
  try {
    const dst = await fs.lstat(path.dirname(disk.file)).catch(() => undefined);
    if (!dst?.isDirectory() || !trustworthy(dst)) return;
    const existing = await fs.lstat(disk.file).catch(() => undefined);
    if (existing && (!existing.isFile() || !trustworthy(existing))) return;
    const text = JSON.stringify({ version: 1, build: disk.build, walks: [...walks] });
    if (text.length > MAX_FILE_BYTES) return;
    // Renamed into place, so a reader never sees half of it; without write-file-atomic, which a
    // dispatch would otherwise load on its first walk of a hook (test/cli/lazy-load.test.ts).
    // `wx`: never through a link planted at the temporary name.
    tmp = `${disk.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await fs.rename(tmp, disk.file);
  } catch {
    if (tmp !== undefined) await fs.unlink(tmp).catch(() => undefined);
  }
}

/** Forget every kept walk and the file (tests). */
export function resetWalks(): void {
  walks.clear();
  disk = undefined;
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A walk as this code writes it; anything else in the file is left out. */
function isWalk(v: unknown): v is Walk {
  const w = v as Walk | undefined;
  const p = w?.pins;
  return (
    Array.isArray(w?.observations) &&
    w.observations.length <= MAX_OBSERVATIONS &&
    w.observations.every((o) => strings(o) && o.length === 3) &&
    typeof p === 'object' &&
    p !== null &&
    strings(p.files) &&
    strings(p.trees) &&
    strings(p.listed) &&
    strings(p.unpinned) &&
    typeof p.records === 'object' &&
    p.records !== null &&
    !Array.isArray(p.records) &&
    Object.values(p.records).every((r) => typeof r === 'string')
  );
}
