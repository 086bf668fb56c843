/**
 * `agent-hooks check`: validate settings files, plugin hooks.json files and directories of
 * them. Errors are path-qualified (`file: hooks.PreToolUse[0].hooks[1].tipe: unknown key`).
 */
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { walkFiles } from '../util/walk.js';
import { lintRunnable } from '../lint/hooks.js';
import type { Diagnostic, NormalizedHook } from '../types.js';

export interface CheckResult {
  files: Array<{ file: string; kind: 'settings' | 'plugin'; ok: boolean }>;
  hooks: number;
  diagnostics: Diagnostic[];
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist']);
const MAX_DEPTH = 8;

/** A file is a plugin's hooks.json when it sits in a `hooks/` directory (Copilot CLI's .github/hooks/ is not a plugin). */
function isPluginHooksFile(file: string): boolean {
  return (
    basename(file) === 'hooks.json' && basename(dirname(file)) === 'hooks' && !/(^|[\\/])(\.github|\.copilot)$/.test(dirname(dirname(file)))
  );
}

/** TOML configs with hooks: Kimi's `[[hooks]]`, Codex's `[hooks]` tables (src/agents/). */
async function looksLikeHooksToml(file: string): Promise<boolean> {
  try {
    return /^\s*\[\[?hooks[.\]]/m.test(await readFile(file, 'utf8'));
  } catch {
    return false;
  }
}

/** A plugin manifest (`.claude-plugin/plugin.json`): checked as its whole plugin, never as settings. */
function isPluginManifest(file: string): boolean {
  return basename(file) === 'plugin.json' && basename(dirname(file)) === '.claude-plugin';
}

async function looksLikeSettings(file: string): Promise<boolean> {
  const name = basename(file);
  if (isPluginManifest(file)) return false;
  if (/^settings(\.local)?\.json$|^managed-settings\.json$|\.settings\.json$/.test(name)) return true;
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'hooks' in value;
  } catch {
    return false; // unparsable files found while walking are not claimed as settings
  }
}

/** Settings, plugin hooks.json and hook TOML files under a directory. */
function walk(dir: string, out: string[]): Promise<string[]> {
  return walkFiles(
    dir,
    {
      maxDepth: MAX_DEPTH,
      skipDirs: SKIP_DIRS,
      accept: async (full, name) => {
        if (name.endsWith('.json')) return isPluginHooksFile(full) || isPluginManifest(full) || (await looksLikeSettings(full));
        if (name.endsWith('.toml')) return looksLikeHooksToml(full);
        return false;
      },
    },
    0,
    out,
  );
}

export async function checkPaths(paths: readonly string[], executableTypes: readonly string[], agent?: string): Promise<CheckResult> {
  const loaded: NormalizedHook[] = [];
  const result = await checkPathsFor(paths, executableTypes, loaded);
  if (agent === undefined) return result;
  // --agent D: what that agent will never run (src/agents/shared/undeliverable.ts).
  const { getDialect } = await import('../agents/all.js');
  const dialect = getDialect(agent);
  if (!dialect) {
    result.diagnostics.push({ level: 'error', path: '(root)', message: `unknown agent ${JSON.stringify(agent)}` });
    return result;
  }
  if (dialect.undeliverable?.length) {
    const { undeliverableWarnings } = await import('../agents/shared/undeliverable.js');
    result.diagnostics.push(...undeliverableWarnings(dialect.title, dialect.undeliverable, loaded));
  }
  return result;
}

async function checkPathsFor(paths: readonly string[], executableTypes: readonly string[], loaded: NormalizedHook[]): Promise<CheckResult> {
  const result: CheckResult = { files: [], hooks: 0, diagnostics: [] };
  if (paths.length === 0) {
    const cwd = process.cwd();
    // check lints config without running it: it sees every hook, trusted or not.
    const config = await loadConfig({ cwd, projectDir: cwd, discover: true, unsafeSkipTrustGate: true });
    result.files.push(...config.files.map((f) => ({ file: f.file, kind: 'settings' as const, ok: f.ok })));
    result.hooks = config.hooks.length;
    loaded.push(...config.hooks);
    result.diagnostics.push(...config.diagnostics, ...lintRunnable(config.hooks, executableTypes));
    return result;
  }

  const files: string[] = [];
  for (const p of paths) {
    const full = resolve(p);
    let info: Stats;
    try {
      info = await stat(full);
    } catch {
      result.diagnostics.push({ level: 'error', file: full, path: '(root)', message: 'no such file or directory' });
      continue;
    }
    if (info.isDirectory()) {
      const before = files.length;
      await walk(full, files);
      if (files.length === before) {
        result.diagnostics.push({ level: 'warning', file: full, path: '(root)', message: 'no settings or hooks.json files found here' });
      }
    } else files.push(full);
  }

  // A plugin is checked once, through its hooks.json (the loader reads its manifest and every
  // hooks file the manifest names); a manifest with no hooks/hooks.json stands in for it.
  for (const f of [...files]) {
    if (!isPluginManifest(f)) continue;
    const hooksFile = join(dirname(dirname(f)), 'hooks', 'hooks.json');
    files.splice(files.indexOf(f), 1, ...(files.includes(hooksFile) ? [] : [hooksFile]));
  }
  for (const file of files) {
    const plugin = isPluginHooksFile(file);
    const root = plugin ? dirname(dirname(file)) : dirname(file);
    const config = await loadConfig(
      plugin
        ? { cwd: root, projectDir: root, discover: false, plugins: [root] }
        : { cwd: root, projectDir: root, discover: false, settingsFiles: [file] },
    );
    const errors = config.diagnostics.filter((d) => d.level === 'error').length;
    result.files.push({ file, kind: plugin ? 'plugin' : 'settings', ok: errors === 0 });
    result.hooks += config.hooks.length;
    loaded.push(...config.hooks);
    result.diagnostics.push(...config.diagnostics, ...lintRunnable(config.hooks, executableTypes));
  }
  return result;
}
