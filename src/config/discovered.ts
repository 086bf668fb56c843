/** Other agents' hook files read by loadConfig (`discoverDialects`): which dialects, and their layers. */
import type { Diagnostic, SourceKind } from '../types.js';
import type { DialectName } from '../agents/types.js';
import { ROOT_PATH } from './diagnostics.js';
import type { LoadConfigOptions, LoadedFile } from './options.js';
import { readText, type SettingsLayer } from './settings.js';

/** Kinds whose `agentHooks.discoverDialects` is honoured: the user's and admin's own, not the workspace's. */
export const DISCOVER_SETTING_KINDS: readonly SourceKind[] = ['managed', 'cli', 'user'];

/**
 * Which dialects to discover: the option, else the setting (managed > --settings, last first >
 * user). A workspace file cannot widen discovery (it is not trusted yet when discovery runs).
 */
function discoverDialectsOf(
  opts: LoadConfigOptions,
  layers: readonly SettingsLayer[],
  diagnostics: Diagnostic[],
): readonly DialectName[] | 'all' | undefined {
  for (const l of layers) {
    if (l.data?.agentHooks?.discoverDialects !== undefined && !DISCOVER_SETTING_KINDS.includes(l.kind)) {
      diagnostics.push({
        level: 'warning',
        file: l.file,
        path: 'agentHooks.discoverDialects',
        message: `only honoured in user, managed and --settings files; ignored in ${l.kind} settings`,
      });
    }
  }
  if (opts.discoverDialects !== undefined) return opts.discoverDialects;
  const rank = (k: SourceKind) => DISCOVER_SETTING_KINDS.indexOf(k);
  const ordered = layers
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => rank(l.kind) >= 0 && l.data?.agentHooks?.discoverDialects !== undefined)
    .sort((a, b) => rank(a.l.kind) - rank(b.l.kind) || b.i - a.i);
  return ordered[0]?.l.data?.agentHooks?.discoverDialects;
}

/**
 * Read the standard hook files of the other dialects chosen (src/agents/all.ts), each
 * forced to its location's dialect. Their layers go after Claude's discovered files and before
 * the --settings files, so hook order stays: managed, user, project, local, other agents, cli, ….
 */
export async function loadDiscoveredDialects(
  opts: LoadConfigOptions,
  ctx: { projectDir: string; homeDir: string },
  layers: SettingsLayer[],
  files: LoadedFile[],
  diagnostics: Diagnostic[],
): Promise<void> {
  const which = discoverDialectsOf(opts, layers, diagnostics);
  // Most loads discover nothing: then neither the dialect list (locations.js, a chunk and its
  // imports under dispatch) nor the registry of every dialect (all.js) is loaded.
  if (which === undefined) return;
  const { foreignDialects } = await import('../agents/shared/locations.js');
  const dialects = foreignDialects(which);
  if (dialects.length === 0) return;
  const { discoveryFilesOf } = await import('../agents/all.js');
  const { loadForeignSettings } = await import('../agents/shared/foreign-settings.js');
  const found: SettingsLayer[] = [];
  for (const d of discoveryFilesOf(dialects, ctx)) {
    const read = await readText(d.file, opts.readFilesSync);
    if (read.status === 'missing') continue;
    if (read.status === 'error') {
      diagnostics.push({ level: 'error', file: d.file, path: ROOT_PATH, message: read.message });
      files.push({ file: d.file, kind: d.kind, ok: false });
      continue;
    }
    const foreign = await loadForeignSettings(d.file, read.text, d.kind, d.dialect);
    if (!foreign) continue; // unreachable: a forced non-Claude dialect always answers
    diagnostics.push(...foreign.diagnostics);
    found.push({ kind: d.kind, file: d.file, hooks: foreign.hooks, ...(foreign.ok ? { data: {} } : {}) });
    files.push({ file: d.file, kind: d.kind, ok: foreign.ok });
  }
  const firstCli = layers.findIndex((l) => l.kind === 'cli');
  layers.splice(firstCli < 0 ? layers.length : firstCli, 0, ...found);
}
