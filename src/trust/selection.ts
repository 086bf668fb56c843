/**
 * Which hooks and settings files an assessment gates: the sources that need trust (by real
 * path, so a workspace reached through a symlink is the same trust), and the hook-related
 * settings of gated files as they enter the digest.
 */
import { promises as fs } from 'node:fs';
import { SETTINGS_KEYS } from '../config/keys.js';
import type { NormalizedHook } from '../types.js';
import type { CanonicalSettings } from './digest.js';
import type { GatedSource, TrustGateInput, TrustSource } from './types.js';
import type { Workspace } from './workspace.js';
import { isPathInside } from '../util/path-inside.js';

/** Keys of settings files that matter to hooks (everything agent-hooks reads except `hooks`). */
const HOOK_SETTINGS_KEYS = SETTINGS_KEYS.filter((k) => k !== 'hooks');

/**
 * Project and local settings need trust; so do plugins and skills whose root is inside the
 * workspace (its git work tree), unless force-enabled by managed policy. Everything else
 * (user, managed, cli, sdk, plugins installed elsewhere) is the user's or admin's own.
 */
export function defaultNeedsTrust(source: TrustSource, workspace: Workspace): boolean {
  if (source.managed) return false;
  if (source.kind === 'project' || source.kind === 'local') return true;
  if (source.kind === 'plugin' || source.kind === 'skill') {
    const root = source.pluginRoot ?? source.skillRoot ?? source.file;
    return root !== undefined && (isPathInside(root, workspace.root) || isPathInside(root, workspace.dir));
  }
  return false;
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return p;
  }
}

/** What is gated, per hook (in input order) and per source. */
export interface Selection {
  /** The real path of a hook's or settings file's path (itself when it cannot be resolved). */
  real: (p: string) => string;
  /** Per hook of the input: does it need trust? */
  gated: boolean[];
  gatedSources: GatedSource[];
  /** Hook-related settings of gated files, as the digest records them. */
  settings: CanonicalSettings[];
}

/** Plugin/skill roots and settings files resolved to real paths, looked up by the given path. */
async function realPaths(input: TrustGateInput): Promise<Map<string, string>> {
  const realRoots = new Map<string, string>();
  for (const h of input.hooks) {
    for (const r of [h.source.pluginRoot, h.source.skillRoot, h.source.pluginData, h.source.file]) {
      if (r !== undefined && !realRoots.has(r)) realRoots.set(r, await realOrSelf(r));
    }
  }
  for (const layer of input.settings ?? []) if (!realRoots.has(layer.file)) realRoots.set(layer.file, await realOrSelf(layer.file));
  return realRoots;
}

/** Which hooks and settings files are gated. Plugin/skill roots are compared by real path. */
export async function selectGated(
  input: TrustGateInput,
  workspace: Workspace,
  needsTrust: (source: TrustSource, workspace: Workspace) => boolean,
  encode: (p: string) => string,
): Promise<Selection> {
  const realRoots = await realPaths(input);
  // Every path in the digest is canonical: the same workspace through a symlink is the same trust.
  const real = (p: string): string => realRoots.get(p) ?? p;
  const gatedOf = (h: NormalizedHook): boolean => {
    if (h.handler.type === 'function') return false;
    const s = h.source as TrustSource;
    const src: TrustSource = {
      kind: s.kind,
      file: s.file,
      ...(s.pluginRoot !== undefined ? { pluginRoot: realRoots.get(s.pluginRoot) ?? s.pluginRoot } : {}),
      ...(s.skillRoot !== undefined ? { skillRoot: realRoots.get(s.skillRoot) ?? s.skillRoot } : {}),
      ...(s.managed ? { managed: true } : {}),
    };
    return needsTrust(src, workspace);
  };
  const gated = input.hooks.map(gatedOf);
  const gatedSources = new Map<string, GatedSource>();
  const addGated = (kind: GatedSource['kind'], file: string) => gatedSources.set(`${kind}\0${file}`, { kind, file });
  input.hooks.forEach((h, i) => {
    if (gated[i] && h.source.file !== undefined) addGated(h.source.kind, h.source.file);
  });
  const settings: CanonicalSettings[] = [];
  for (const layer of input.settings ?? []) {
    if (!needsTrust({ kind: layer.kind, file: layer.file }, workspace)) continue;
    addGated(layer.kind, layer.file);
    const picked: Record<string, unknown> = {};
    for (const k of HOOK_SETTINGS_KEYS) {
      const v = (layer.data as Record<string, unknown>)[k];
      if (v !== undefined) picked[k] = v;
    }
    if (Object.keys(picked).length > 0) settings.push({ kind: layer.kind, file: encode(real(layer.file)), settings: picked });
  }
  return { real, gated, gatedSources: [...gatedSources.values()], settings };
}
