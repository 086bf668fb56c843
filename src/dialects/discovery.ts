/**
 * Discovery of other agents' hook files: which dialects to read (`discoverDialects`) and the
 * concrete files of each (the adapters' `configLocations`), over the whole registry. Dispatch's
 * no-hooks fast path uses locations.ts and load.ts instead, which load only the dialects named.
 *
 * Claude's locations are always read by the native loader (they also carry the engine's own
 * settings and managed policy); this module lists the other dialects' files.
 */
import { DIALECTS } from './index.js';
import { dialectFiles, type DiscoveredFile } from './locations.js';
import type { DialectName } from './types.js';

export { foreignDialects, parseDiscoverDialects, type DiscoverDialects, type DiscoveredFile } from './locations.js';

/**
 * The files to read for `dialects`, in order: per dialect, user files then project files.
 * A directory location lists its `*.json` files (sorted). A path listed twice (running in the
 * home directory: the project file is the user file) is read once, as the user's.
 */
export function discoveryFilesOf(
  dialects: readonly DialectName[],
  ctx: { projectDir: string; homeDir: string; env?: Readonly<Record<string, string | undefined>> },
): DiscoveredFile[] {
  return dialectFiles(
    dialects.map((n) => DIALECTS[n]),
    ctx,
  );
}
