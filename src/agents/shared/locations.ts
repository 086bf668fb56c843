/**
 * What discovery needs without the dialects' tables: which dialects to read (`discoverDialects`)
 * and the files of dialects already loaded. Dispatch's no-hooks check loads only the dialects it
 * discovers (src/agents/registry.ts); `discoveryFilesOf` (src/agents/all.ts) is the same over every agent.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DIALECT_NAMES, isDialectName, type Dialect, type DialectName } from '../types.js';

export type DiscoverDialects = readonly DialectName[] | 'all';

export interface DiscoveredFile {
  dialect: DialectName;
  kind: 'user' | 'project' | 'local';
  file: string;
}

/** `'all'`, or a list; unknown names are reported, never guessed. */
export function parseDiscoverDialects(value: string): { ok: true; value: DiscoverDialects } | { ok: false; message: string } {
  const v = value.trim();
  if (v === 'all') return { ok: true, value: 'all' };
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = names.filter((n) => !isDialectName(n));
  if (bad.length > 0)
    return {
      ok: false,
      message: `unknown dialect ${bad.map((b) => JSON.stringify(b)).join(', ')} in --discover-dialects (one of ${DIALECT_NAMES.join(', ')}, or all)`,
    };
  return { ok: true, value: names as DialectName[] };
}

/** The dialects other than Claude to discover, in registry order. */
export function foreignDialects(which: DiscoverDialects | undefined): DialectName[] {
  if (which === undefined) return [];
  const wanted = which === 'all' ? new Set<string>(DIALECT_NAMES) : new Set<string>(which);
  return DIALECT_NAMES.filter((n) => n !== 'claude' && wanted.has(n));
}

/**
 * The files to read for `dialects`, in order: per dialect, user files then project files.
 * A directory location lists its `*.json` files (sorted). A path listed twice (running in the
 * home directory: the project file is the user file) is read once, as the user's.
 */
export function dialectFiles(
  dialects: readonly Dialect[],
  ctx: { projectDir: string; homeDir: string; env?: Readonly<Record<string, string | undefined>> },
): DiscoveredFile[] {
  const out: DiscoveredFile[] = [];
  const seen = new Set<string>();
  const lctx = { projectDir: resolve(ctx.projectDir), homeDir: resolve(ctx.homeDir), env: ctx.env ?? process.env };
  for (const dialect of dialects) {
    for (const loc of dialect.configLocations(lctx)) {
      const files = 'file' in loc ? [loc.file] : jsonFilesIn(loc.dir);
      for (const file of files) {
        if (seen.has(file)) continue;
        seen.add(file);
        out.push({ dialect: dialect.name, kind: loc.kind, file });
      }
    }
  }
  return out;
}

function jsonFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && /\.json$/i.test(e.name))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return []; // no such directory (or unreadable): nothing to discover there
  }
}
