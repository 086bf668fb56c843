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
 * - A cache holds the size and modification time of the source it was made from and the build's
 *   digest (dist/cli/build-id, written by scripts/bundle-dispatch.mjs), and is used only while
 *   all three still match: an edited file, or a file of another build that happens to keep its
 *   size and mtime (package managers give every file one fixed mtime), is compiled from source.
 *   V8's own check is only the source's length. Without a build id there is no cache.
 * - A cache runs as code, so it lives where the code lives: whoever can write it can replace the
 *   file it caches. Where the package's folder is not writable nothing is written, silently.
 * - AGENT_HOOKS_CODE_CACHE=0 turns it off (no cache read, none written).
 */
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');

/**
 * Node's CommonJS loader class, the one `require('node:module')` exports. Taken from this file's
 * own module object because that require would load `node:module`'s public face and the ES
 * loader modules it brings (~0.5 ms of every dispatch), none of which this file uses.
 */
const Module = module.constructor as unknown as ModuleClass;

interface ModuleClass {
  new (id: string, parent?: unknown): NodeModule;
  createRequire(filename: string): NodeJS.Require;
  /** How a file of each extension is read and run, as Node's loader keeps them. */
  _extensions: Record<string, (mod: NodeModule, filename: string) => unknown>;
}

/** Source size and mtime (two float64) and the build's digest (32 bytes) ahead of V8's data. */
const HEADER_BYTES = 48;

interface Pending {
  script: vm.Script;
  cacheFile: string;
  header: Buffer;
}

/** The CommonJS wrapper, as Node's own. */
const WRAPPER_HEAD = Buffer.from('(function (exports, require, module, __filename, __dirname) { ');
const WRAPPER_TAIL = Buffer.from('\n});');

/**
 * Compile the CommonJS files under `dist` (the package's build output) that dispatch and `run`
 * load with a code cache, from now on in this process.
 */
export function useCodeCache(dist: string): void {
  if (process.env.AGENT_HOOKS_CODE_CACHE === '0') return;
  const build = buildId(dist);
  if (!build) return;
  const dirs = ['cli/bundle/', 'cli/bundle-check/', 'cli/bundle-run/', 'validators/'].map((d) => path.join(dist, d));
  const pending: Pending[] = [];
  // The files are read here rather than by Node's loader: Node would read each into a string, and
  // the wrapper around it would make a second copy (~400 KB of young-generation garbage for a
  // one-hook dispatch, most of one scavenge); read into one buffer with the wrapper around it,
  // each file becomes one string. Two things of Node's loader are skipped for these files only:
  // the "type": "module" check (they are CommonJS by construction: .cjs, or under the package.json
  // scripts/bundle-dispatch.mjs writes), and `_compile` hooks other tools install.
  // Node 20 registers no loader for `.cjs`: such a file goes through the `.js` one.
  for (const ext of ['.js', '.cjs']) {
    const load = Module._extensions[ext];
    if (!load) continue;
    Module._extensions[ext] = function loadWithCache(mod, filename) {
      if (!dirs.some((d) => filename.startsWith(d))) return load.call(this, mod, filename);
      const read = readWrapped(filename, build);
      // Gone or unreadable since Node resolved it: Node's own loader reports it as it would.
      if (!read) return load.call(this, mod, filename);
      return runCached(mod, read.source, filename, read.header, pending);
    };
  }
  process.once('exit', () => writeCaches(pending));
}

/** The digest the build wrote (64 hex digits), or undefined when it is missing or malformed. */
function buildId(dist: string): Buffer | undefined {
  try {
    const hex = fs.readFileSync(path.join(dist, 'cli', 'build-id'), 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file inside the CommonJS wrapper, as one string, and the cache header for what was read
 * (size and mtime from the descriptor the bytes came from); undefined when it cannot be read.
 */
function readWrapped(filename: string, build: Buffer): { source: string; header: Buffer } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(filename, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const start = WRAPPER_HEAD.length;
    const bytes = Buffer.allocUnsafe(start + stat.size + WRAPPER_TAIL.length);
    WRAPPER_HEAD.copy(bytes, 0);
    let got = 0;
    while (got < stat.size) {
      const n = fs.readSync(fd, bytes, start + got, stat.size - got, null);
      if (n === 0) return undefined; // shorter than its size a moment ago: being rewritten
      got += n;
    }
    // A `#!` line is legal only at the very start of a script; the wrapper comes first here.
    if (bytes[start] === 0x23 && bytes[start + 1] === 0x21) bytes.fill(0x2f, start, start + 2);
    WRAPPER_TAIL.copy(bytes, start + stat.size);
    return { source: bytes.toString('utf8'), header: headerOf(stat, build) };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** What Node's own loader does for a CommonJS file, with V8's cached data when there is some. */
function runCached(mod: NodeModule, source: string, filename: string, header: Buffer, pending: Pending[]): unknown {
  const cacheFile = `${filename}.v8cache`;
  const cachedData = readCache(cacheFile, header);
  const script = new vm.Script(source, {
    filename,
    cachedData,
    // Columns on the first line as in the file (the bundles are long lines): stack traces stay exact.
    columnOffset: -WRAPPER_HEAD.length,
  });
  if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, cacheFile, header });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
  return wrapper.call(mod.exports, mod.exports, Module.createRequire(filename), mod, filename, path.dirname(filename));
}

function headerOf(stat: fs.Stats, build: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeDoubleLE(stat.mtimeMs, 0);
  header.writeDoubleLE(stat.size, 8);
  build.copy(header, 16);
  return header;
}

function readCache(cacheFile: string, header: Buffer): Buffer | undefined {
  let blob: Buffer;
  try {
    blob = fs.readFileSync(cacheFile);
  } catch {
    return undefined; // none yet (or unreadable): compiled from source, and written at exit
  }
  if (blob.length <= HEADER_BYTES || !blob.subarray(0, HEADER_BYTES).equals(header)) return undefined;
  return blob.subarray(HEADER_BYTES);
}

/** At exit, after the run: the cache then holds the functions this run compiled, not only the top level. */
function writeCaches(pending: Pending[]): void {
  for (const p of pending) {
    const tmp = `${p.cacheFile}.${process.pid}.tmp`;
    let created = false;
    try {
      const data = Buffer.concat([p.header, p.script.createCachedData()]);
      // `wx`: never write through a file someone left at the temporary name.
      const fd = fs.openSync(tmp, 'wx');
      created = true;
      try {
        fs.writeFileSync(fd, data);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, p.cacheFile);
    } catch {
      // Not writable here (a package installed read-only, a full disk), or a race with another
      // process: the cache is only an optimisation, and the next process tries again.
      if (created) fs.rmSync(tmp, { force: true });
    }
  }
}
