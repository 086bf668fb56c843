/**
 * bubblewrap, looked up in fixed system directories only, never through a `PATH` a project could
 * prepend (the sandboxes of src/backends/sandbox.ts; the default view of src/config/confinement.ts).
 */
import { join } from 'node:path';
import { isExecutableFile } from './file-kind.js';

export const BWRAP_DIRS = ['/usr/bin', '/usr/local/bin', '/bin'];

let found: string | null | undefined;

export function findBwrap(): string | undefined {
  found ??= BWRAP_DIRS.map((d) => join(d, 'bwrap')).find(isExecutableFile) ?? null;
  return found ?? undefined;
}
