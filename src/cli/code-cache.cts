/**
 * A V8 code cache for the CommonJS files dispatch and `run` load (the bundles under dist/cli/ and
 * the compiled validators). Every dispatch is a fresh process that compiled ~300 KB of our code
 * from source; with a cache, V8 takes the compiled functions from the cache instead (about 8 % of
 * a one-hook dispatch here, docs/performance.md item 12). Node 20 has no compile cache of its own
 * for CommonJS (module.enableCompileCache came with Node 22), so this file compiles those files
 * through node:vm with `cachedData`.
 *
 * - A file's cache is `<file>.v8cache`, next to it, written when the process exits if there was
 *   none or V8 rejected it (another Node version or V8 flags), through a temporary file renamed
 *   into place, so a reader never sees half a cache.
 * - A cache holds the size and modification time of the source it was made from, and is used
 *   only while they still match: an edited file is compiled from source (V8's own check is only
 *   the source's length).
 * - A cache runs as code, so it lives where the code lives: whoever can write it can replace the
 *   file it caches. Where the package's folder is not writable nothing is written, silently.
 * - AGENT_HOOKS_CODE_CACHE=0 turns it off (no cache read, none written).
 */
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');
import Module = require('node:module');

/** Source size and mtime (two float64) ahead of V8's data. */
const HEADER_BYTES = 16;

interface Pending {
  script: vm.Script;
  cacheFile: string;
  mtimeMs: number;
  size: number;
}

type Compile = (this: Module, content: string, filename: string) => unknown;

/**
 * Compile the CommonJS files under `dist` (the package's build output) that dispatch and `run`
 * load with a code cache, from now on in this process.
 */
export function useCodeCache(dist: string): void {
  if (process.env.AGENT_HOOKS_CODE_CACHE === '0') return;
  const dirs = ['cli/bundle/', 'cli/bundle-check/', 'cli/bundle-run/', 'validators/'].map((d) => path.join(dist, d));
  const proto = Module.prototype as unknown as { _compile: Compile };
  const compile = proto._compile;
  const pending: Pending[] = [];
  proto._compile = function compileWithCache(content, filename) {
    if (!dirs.some((d) => filename.startsWith(d))) return compile.call(this, content, filename);
    return runCached(this, content, filename, pending);
  };
  process.once('exit', () => writeCaches(pending));
}

/** What Node's own _compile does for a CommonJS file, with V8's cached data when there is some. */
function runCached(mod: Module, content: string, filename: string, pending: Pending[]): unknown {
  const cacheFile = `${filename}.v8cache`;
  const { mtimeMs, size } = fs.statSync(filename);
  const cachedData = readCache(cacheFile, mtimeMs, size);
  // A `#!` line is legal only at the very start of a script; the wrapper comes first here.
  const body = content.startsWith('#!') ? `//${content.slice(2)}` : content;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${body}\n});`, {
    filename,
    cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, cacheFile, mtimeMs, size });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
  return wrapper.call(mod.exports, mod.exports, Module.createRequire(filename), mod, filename, path.dirname(filename));
}

function readCache(cacheFile: string, mtimeMs: number, size: number): Buffer | undefined {
  let blob: Buffer;
  try {
    blob = fs.readFileSync(cacheFile);
  } catch {
    return undefined; // none yet (or unreadable): compiled from source, and written at exit
  }
  if (blob.length <= HEADER_BYTES || blob.readDoubleLE(0) !== mtimeMs || blob.readDoubleLE(8) !== size) return undefined;
  return blob.subarray(HEADER_BYTES);
}

/** At exit, after the run: the cache then holds the functions this run compiled, not only the top level. */
function writeCaches(pending: Pending[]): void {
  for (const p of pending) {
    const tmp = `${p.cacheFile}.${process.pid}.tmp`;
    let created = false;
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeDoubleLE(p.mtimeMs, 0);
      header.writeDoubleLE(p.size, 8);
      // `wx`: never write through a file someone left at the temporary name.
      fs.writeFileSync(tmp, Buffer.concat([header, p.script.createCachedData()]), { flag: 'wx' });
      created = true;
      fs.renameSync(tmp, p.cacheFile);
    } catch {
      // Not writable here (a package installed read-only), or a race with another process: the
      // cache is only an optimisation, and the next process tries again.
      if (created) fs.rmSync(tmp, { force: true });
    }
  }
}
