/** Python in the shell model (shell.ts): the script, or the module `-m` runs from the current directory. */
import { readdirSync } from './observed-fs.js';
import path from 'node:path';
import type { Redirection } from 'unbash';
import { modelInterpreter } from './interpreters.js';
import { clone, isDir, isFile, pinFile, pinTree, unpin, type Arg, type Run, type State } from './model.js';
import { PYTHON_OPTIONS } from './options.js';

export function modelPython(run: Run, st: State, base: string, args: Arg[], redirects: readonly Redirection[]): void {
  modelInterpreter(run, st, base, args, redirects, PYTHON_OPTIONS, {
    lookup: () => {},
    module: (mod) => {
      // sys.path[0] is the current directory for -m: a module there is the one that runs.
      if (st.cwd === undefined) {
        unpin(run, `${base} -m ${mod}: the directory it searches cannot be determined`);
        return;
      }
      const parts = mod.split('.');
      const rel = parts.join('/');
      // Importing a.b.c runs a/__init__.py and a/b/__init__.py first (recorded even when
      // missing: creating one changes what runs).
      for (let i = 1; i < parts.length; i++) {
        pinFile(run, path.resolve(st.cwd, ...parts.slice(0, i), '__init__.py'));
        compiledModules(run, path.resolve(st.cwd, ...parts.slice(0, i)), '__init__');
      }
      const asDir = path.resolve(st.cwd, rel);
      if (isDir(asDir)) pinTree(run, asDir);
      // A module file wins over a directory without __init__.py: pinned in either case.
      pinFile(run, path.resolve(st.cwd, `${rel}.py`));
      compiledModules(run, path.dirname(asDir), parts[parts.length - 1]!);
      // What the module imports is modelled like a script's (includes.ts), searched from the cwd.
      const runs = isFile(`${asDir}.py`)
        ? `${asDir}.py`
        : isFile(path.join(asDir, '__main__.py'))
          ? path.join(asDir, '__main__.py')
          : undefined;
      if (runs !== undefined) run.scripts?.push({ file: runs, given: mod, interpreter: base, st: clone(st), searchDir: st.cwd });
    },
  });
}

/**
 * Compiled forms Python finds before or instead of `name.py` in `dir`: an extension module
 * (`name.cpython-311-x86_64-linux-gnu.so`, `name.so`, `name.pyd`) and a sourceless `name.pyc`.
 * Each is pinned, and the list of them is recorded, so one that appears later is a change.
 */
function compiledModules(run: Run, dir: string, name: string): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    names = [];
  }
  const found = names.filter((n) => n.startsWith(`${name}.`) && /\.(so|pyd|pyc)$/.test(n));
  run.pins.records[`pymod:${dir}:${name}`] = JSON.stringify(found);
  for (const n of found) pinFile(run, path.join(dir, n));
}
