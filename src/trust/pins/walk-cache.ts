/**
 * The pins of a walk kept for the process (issue 39): a reviewed hook is modelled at load and again
 * before it runs, and each walk reads and parses its script and all it sources or imports. A kept
 * walk is reused only when every question it asked the file system (observed-fs.ts: each file read,
 * by its content's sha256; each existence, kind, link, listing and resolution) gets the same answer
 * now; given the same inputs (the key) the walk would then take the same path to the same pins.
 */
import { recorded, unchanged, type Observation } from './observed-fs.js';
import type { Pins } from './model.js';

const MAX_WALKS = 64;
// A walk that asks more is not kept: its answers would outweigh the parse they save.
const MAX_OBSERVATIONS = 20_000;

const walks = new Map<string, { observations: Observation[]; pins: Pins }>();

/** How the kept walks were used; for tests. */
export const walkCacheStats = { hits: 0, misses: 0 };

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
  }
  return result;
}
