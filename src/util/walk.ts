import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface WalkOptions {
  /** Directories deeper than this are not entered. */
  maxDepth: number;
  /** Directory names never entered (node_modules, .git, …). */
  skipDirs: ReadonlySet<string>;
  /** Whether a regular file belongs in the result. */
  accept: (file: string, name: string) => boolean | Promise<boolean>;
}

/**
 * Regular files under `dir`, in a stable order (names sorted at every level). Unreadable
 * directories are skipped; symbolic links are not followed.
 */
export async function walkFiles(dir: string, opts: WalkOptions, depth = 0, out: string[] = []): Promise<string[]> {
  if (depth > opts.maxDepth) return out;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!opts.skipDirs.has(e.name)) await walkFiles(full, opts, depth + 1, out);
    } else if (e.isFile() && (await opts.accept(full, e.name))) out.push(full);
  }
  return out;
}
