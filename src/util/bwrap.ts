/**
 * bubblewrap, looked up in fixed system directories only, never through a `PATH` a project could
 * prepend (the sandboxes of src/backends/sandbox.ts; the default view of src/config/confinement.ts).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

export const BWRAP_DIRS = ['/usr/bin', '/usr/local/bin', '/bin'];

let found: string | null | undefined;

export function findBwrap(): string | undefined {
  found ??= BWRAP_DIRS.map((d) => join(d, 'bwrap')).find(executable) ?? null;
  return found ?? undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
