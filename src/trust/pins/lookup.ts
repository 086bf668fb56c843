/** Where a bare command name is found (PATH), and what `bun run X` runs: the shell model's lookups (shell.ts). */
import path from 'node:path';
import { isPathInside } from '../../util/path-inside.js';
import { isFile, isKnown, realOr, unpin, type Arg, type Run } from './model.js';

/** `bun run X`: a file when X names one (a path or a script's extension), else a package.json script. */
export function scriptFileName(a: Arg | undefined): boolean {
  return isKnown(a) && (a.includes('/') || /\.(m|c)?[jt]sx?$/.test(a));
}

/**
 * A bare command name is found through PATH: an entry inside the workspace (or a relative one,
 * which is wherever the hook runs) that comes before the command's directory may hold, or later
 * get, a file of that name.
 */
export function pathLookup(run: Run, name: string): void {
  if (run.includes) return; // a script's own text: only what it sources is kept
  const value = run.ctx.path ?? process.env.PATH ?? '';
  const roots = [run.ctx.projectDir, ...(run.ctx.gitTopLevel !== undefined ? [run.ctx.gitTopLevel] : [])];
  for (const dir of value.split(':')) {
    if (dir === '' || !path.isAbsolute(dir)) {
      unpin(run, `${name} is looked up through the relative PATH entry ${JSON.stringify(dir)}; that is not modelled`);
      return;
    }
    if (roots.some((r) => isPathInside(dir, r) || isPathInside(realOr(dir), r))) {
      unpin(run, `${name} is looked up through the PATH entry ${dir}, inside the workspace; that is not modelled`);
      return;
    }
    if (isFile(path.join(dir, name))) return;
  }
}
