/**
 * The evidence of an assessment: the workspace's record in the trust store, and what every gated
 * command hook executes (pins.ts) as canonical records (scripts.ts). With `TrustOptions.events`,
 * hooks of other events that are unchanged from the trusted config are not read: their trusted
 * records stand in.
 */
import { canonicalHook, hookShape, type CanonicalHook } from './digest.js';
import { hashCacheFor } from './hash.js';
import path from 'node:path';
import { pinsOf } from './pins.js';
import { flushWalks, loadWalks } from './pins/walk-cache.js';
import { pinRecords, type PinRecord } from './scripts.js';
import { readTrustStore, TrustStoreError, type TrustRecord } from './store.js';
import type { TrustOptions } from './types.js';
import type { NormalizedHook } from '../types.js';
import type { Workspace } from './workspace.js';

export interface StoreEvidence {
  record?: TrustRecord;
  /** Why the store could not be read (the assessment is then in state error). */
  error?: string;
}

/** The workspace's record in the trust store; a store problem is reported, never thrown. */
export async function readStoreRecord(storePath: string, workspace: Workspace): Promise<StoreEvidence> {
  try {
    const record = (await readTrustStore(storePath)).workspaces[workspace.identity];
    return record ? { record } : {};
  } catch (e) {
    return { error: e instanceof TrustStoreError ? e.message : `cannot read trust store ${storePath}: ${(e as Error).message}` };
  }
}

/** Per hook of the input (in order): the scripts it pins, its read errors, why it is unpinned. */
export interface ScriptEvidence {
  hookScripts: string[][];
  hookErrors: string[][];
  hookUnpinned: string[][];
  /** Every record by absolute key (`glob:…` for match lists). */
  allRecords: Map<string, PinRecord>;
  /** Keys whose trusted record stood in (not read now). */
  deferred: Set<string>;
  /** The readable records, by encoded key, as the digest records them. */
  scripts: Record<string, string>;
  /** Unreadable records. */
  errors: string[];
}

export interface EvidenceContext {
  workspace: Workspace;
  opts: TrustOptions;
  storePath: string;
  homeDir: string;
  gated: readonly boolean[];
  trusted: TrustRecord['hooks'] | undefined;
  encode: (p: string) => string;
  decode: (p: string) => string;
  real: (p: string) => string;
}

/** The trusted hook that stands in for `h` (not of a fired event, unchanged since trusted), if any. */
function standInFinder(c: EvidenceContext): (h: NormalizedHook) => CanonicalHook | undefined {
  const events = c.opts.events ? new Set(c.opts.events) : undefined;
  const trusted = c.trusted;
  const trustedShapes = new Map<string, CanonicalHook>();
  if (events && trusted) for (const t of trusted.config.hooks) trustedShapes.set(hookShape(t), t);
  return (h) => {
    if (!events || events.has(h.event) || trustedShapes.size === 0) return undefined;
    const t = trustedShapes.get(hookShape(canonicalHook(h, c.encode, [], c.real)));
    // Every record it needs must be in the trusted config, or there is nothing to stand in.
    return t?.scripts.every((k) => trusted!.config.scripts[k] !== undefined) ? t : undefined;
  };
}

/** Pin and read what each gated command hook executes. */
export async function gatherScripts(hooks: readonly NormalizedHook[], c: EvidenceContext): Promise<ScriptEvidence> {
  const { workspace, trusted } = c;
  const deferredOf = standInFinder(c);
  const cache = c.opts.hashCache === false ? undefined : (c.opts.hashCache ?? hashCacheFor(c.storePath));
  const allRecords = new Map<string, PinRecord>();
  const deferredRecords = new Map<string, PinRecord>();
  const hookScripts: string[][] = [];
  const hookErrors: string[][] = [];
  const hookUnpinned: string[][] = [];
  for (let i = 0; i < hooks.length; i++) {
    const h = hooks[i]!;
    hookScripts.push([]);
    hookErrors.push([]);
    hookUnpinned.push([]);
    if (!c.gated[i] || h.handler.type !== 'command') continue;
    const stand = deferredOf(h);
    if (stand) {
      hookScripts[i] = stand.scripts.map(c.decode);
      hookUnpinned[i] = (stand.unpinned ?? []).map(c.decode);
      stand.scripts.forEach((k, j) => {
        deferredRecords.set(hookScripts[i]![j]!, { key: hookScripts[i]![j]!, record: trusted!.config.scripts[k]! });
      });
      continue;
    }
    const pluginRoot = h.source.pluginRoot ?? h.source.skillRoot;
    // Walks kept by earlier processes, next to the hash cache (pins/walk-cache.ts).
    if (cache?.file !== undefined) await loadWalks(path.dirname(cache.file));
    const pins = pinsOf(h.handler, {
      cwd: workspace.dir,
      projectDir: workspace.dir,
      ...(workspace.git ? { gitTopLevel: workspace.git.worktree } : {}),
      ...(pluginRoot !== undefined ? { pluginRoot: c.real(pluginRoot) } : {}),
      ...(h.source.pluginData !== undefined ? { pluginData: c.real(h.source.pluginData) } : {}),
      homeDir: c.homeDir,
    });
    // Read the on-disk cache only when something is to be hashed.
    if (pins.files.length > 0 || pins.trees.length > 0) await cache?.load();
    const { records, unpinned } = await pinRecords(pins, cache);
    hookUnpinned[i] = unpinned;
    for (const r of records) {
      if (!allRecords.has(r.key)) allRecords.set(r.key, r);
      hookScripts[i]!.push(r.key);
      if (r.error) hookErrors[i]!.push(r.error);
    }
  }
  await cache?.flush();
  await flushWalks();
  // A file that a hook of the fired event also runs was read above: that record wins.
  const deferred = new Set<string>();
  for (const [key, r] of deferredRecords) {
    if (allRecords.has(key)) continue;
    allRecords.set(key, r);
    deferred.add(key);
  }
  const scripts: Record<string, string> = {};
  const errors: string[] = [];
  for (const [key, r] of allRecords) {
    if (r.record === undefined) errors.push(r.error ?? `cannot read ${key}`);
    else scripts[c.encode(key)] = r.record;
  }
  return { hookScripts, hookErrors, hookUnpinned, allRecords, deferred, scripts, errors };
}
