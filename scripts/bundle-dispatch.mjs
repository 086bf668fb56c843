// Build step after tsc: bundles what `dispatch` and `run` load. `dispatch` runs once per agent
// event in a fresh process, where most of the start-up was resolving, reading and compiling
// small modules (docs/performance.md, "Start-up with hooks to run"): its no-hooks check becomes
// one CommonJS file (dist/cli/bundle-check/), what it loads lazily a bundle with split lazy
// chunks (dist/cli/bundle/); the lean `run` entry (dist/cli/run-entry.js) is bundled on its own
// into dist/cli/bundle-run/. Both are split as ES modules and then turned into CommonJS files, so
// no dispatch or `run` with hooks starts Node's ES loader for our code. dist/cli/bin.cjs falls
// back to the plain modules when a bundle is missing.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * zod's `z.locales` namespace re-exports all of its ~60 translations of the error messages
 * (340 KB of source, ~40 % of zod) and defeats tree shaking, so every bundle compiled them on each
 * start. Nothing here reads `z.locales` or calls `z.config()`: the messages are zod's default
 * English, which zod sets from `locales/en.js` itself. In the bundles the namespace holds `en` only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: resolve(args.resolveDir, args.path), namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};

/** A CommonJS file's first statement, so that it runs in strict mode as its ES sources did. */
const STRICT = '"use strict";\n';
const withoutStrict = (code) => code.replace(/^"use strict";\n?/, '');

/** The one import.meta our sources read in a CommonJS file: the file's URL. */
const MODULE_URL_BANNER = "const __agentHooksModuleUrl = require('node:url').pathToFileURL(__filename).href;";

/** Options both formats share. */
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20.10',
  // Names stay (stack traces in "internal error" notes stay readable); whitespace and syntax shrink.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Optional peers (PostgreSQL sink, OTLP exporter, MCP SDK) stay outside: they load from
  // node_modules when configured, with the clear "install X" error when absent, and one
  // OpenTelemetry API instance is shared with the SDK.
  external: ['pg', '@opentelemetry/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  logLevel: 'warning',
  metafile: true,
};

/** Which sources each output file holds, so a test can name what a run loaded (test/cli/lazy-load.test.ts). */
const inputsOf = {};
const record = (result) => {
  for (const [out, o] of Object.entries(result.metafile.outputs)) inputsOf[out.slice('dist/'.length)] = Object.keys(o.inputs);
};

// 1. dispatch's no-hooks check: dist/cli/dispatch-main.js and its static imports, one CommonJS file.
//    Node loads a CommonJS file without the ES loader's resolve, link and evaluate steps for each
//    of a dozen chunks, which was most of what a dispatch with nothing to run cost over `node -e 0`.
//    Every lazy import() stays lazy: of our own modules it becomes a require() of the lazy bundle
//    built in step 2, with the same path under dist/cli/bundle/ as the module has under dist/.
const CHECK_DIR = 'dist/cli/bundle-check';
const LAZY_DIR = 'dist/cli/bundle';
const lazyTargets = new Set();
const lazyToBundle = {
  name: 'lazy-to-bundle',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      // A package (the TOML parser) is imported from node_modules as it is, when it is needed.
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      const target = resolve(args.resolveDir, args.path);
      const rel = relative(resolve('dist'), target);
      if (rel.startsWith('..')) throw new Error(`${args.importer}: lazy import outside dist: ${args.path}`);
      lazyTargets.add(rel);
      return { path: `../bundle/${rel.split(sep).join('/')}`, external: true };
    });
  },
};
rmSync(CHECK_DIR, { recursive: true, force: true });
record(
  await build({
    ...COMMON,
    entryPoints: { dispatch: 'dist/cli/dispatch-main.js' },
    outdir: CHECK_DIR,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // The sources are ES modules; the one import.meta they may read is the URL (banner below).
    define: { 'import.meta.url': '__agentHooksModuleUrl' },
    plugins: [lazyToBundle, zodEnglishOnly],
  }),
);

// 2. The lazy bundles: what the check imports lazily (the hook-running path, other dialects' tables
//    and wire adapters), and the lean `run` entry. Code-split by esbuild as ES modules, so every
//    lazy import() inside stays a lazy chunk (no engine before a hook may run), then each file is
//    turned into CommonJS (below). Two builds, not one with shared chunks: a process runs one of
//    the two, and sharing splits the hot path into more, smaller files.
const LAZY_BUNDLES = [
  { entryPoints: [...lazyTargets].map((rel) => `dist/${rel}`), outdir: LAZY_DIR, outbase: 'dist' },
  // `run`'s hook path (dist/cli/run.js, imported lazily by the entry) is an entry of its own, to
  // have a file name to take its chunks in (mergeStaticChunks below).
  { entryPoints: { 'run-entry': 'dist/cli/run-entry.js', run: 'dist/cli/run.js' }, outdir: 'dist/cli/bundle-run' },
];
for (const b of LAZY_BUNDLES) {
  rmSync(b.outdir, { recursive: true, force: true });
  const result = await build({ ...COMMON, ...b, splitting: true, format: 'esm', chunkNames: 'chunk-[hash]', plugins: [zodEnglishOnly] });
  record(result);
  await toCommonJs(b.outdir, Object.keys(result.metafile.outputs));
}
// The check's lazy imports of those files become require()s too.
const checkFile = `${CHECK_DIR}/dispatch.cjs`;
writeFileSync(checkFile, requireOwnChunks(withHead(readFileSync(checkFile, 'utf8')), checkFile));
// The two files every process with a hook to run loads take their static chunks in.
for (const entry of ['dist/cli/bundle/dispatch/run.js', 'dist/cli/bundle-run/run.js']) mergeStaticChunks(entry);

/**
 * Each file of a split ES bundle as a CommonJS file, in place. A process that runs a hook loads
 * some thirty of them: as CommonJS they load without the ES loader's resolve, link and evaluate
 * steps per file (12 ms of a one-hook dispatch here; docs/performance.md, item 9). The split
 * chunks import each other without cycles (esbuild groups modules by the set of entries that
 * reach them, and a module's imports are reached from at least those entries), so require()'s
 * order is the ES order; exports stay live through esbuild's getters.
 */
async function toCommonJs(dir, outputs) {
  for (const file of outputs.filter((f) => f.endsWith('.js'))) {
    const { code } = await transform(readFileSync(file, 'utf8'), {
      format: 'cjs',
      platform: 'node',
      target: COMMON.target,
      minifyWhitespace: true,
      minifySyntax: true,
      define: { 'import.meta.url': '__agentHooksModuleUrl' },
    });
    writeFileSync(file, requireOwnChunks(withHead(code), file));
  }
  // The files keep their names (chunks refer to each other by them); this makes them CommonJS.
  writeFileSync(`${dir}/package.json`, '{ "type": "commonjs" }\n');
}

/**
 * A converted file's head: strict mode first, as its ES sources ran (a CommonJS file is sloppy
 * unless it says so, and esbuild's transform does not), then the URL banner, made only in the
 * files that still read it after lighterRequires (pathToFileURL costs ~40 µs a file, ~0.4 ms the
 * first time).
 */
function withHead(code) {
  if (code.startsWith('#!')) throw new Error('a converted file starts with #!: its head would not come first');
  const body = leanInterop(lighterRequires(withoutStrict(code)));
  return `${STRICT}${body.includes('__agentHooksModuleUrl') ? `${MODULE_URL_BANNER}\n` : ''}${body}`;
}

/**
 * esbuild's CommonJS interop, without its copies. A converted file's exports object already has a
 * live getter per export (`__export`), and `__toCommonJS` copied each onto a second object through
 * a second getter; a default import of a Node module (`import path from 'node:path'`) copied all of
 * the module's properties the same way. Those copies were ~40 KB of the young generation a
 * one-hook dispatch allocates, enough for one more collection (docs/performance.md, item 21).
 * The exports object itself is marked and exported instead (the chunks require each other without
 * cycles, so no file reads it before its body ran), and the Node module becomes the prototype of
 * the object that holds it as `default`, which reads every name the same.
 */
function leanInterop(code) {
  const out = code
    .replace(/\bmodule\.exports=__toCommonJS\((\w+)\)/g, '__defProp($1,"__esModule",{value:!0}),module.exports=$1')
    .replace(/\b__toESM\((require\("node:[\w/]+"\))(,1)?\)/g, '((m)=>({__proto__:m,default:m}))($1)');
  const left = /\b__toCommonJS\(\w|\b__toESM\(require/.exec(out);
  if (left) throw new Error(`interop left after leanInterop: ${out.slice(left.index, left.index + 60)}`);
  return out;
}

/**
 * The two requires our sources make to find their own files, made without loading more of Node:
 * - `createRequire(import.meta.url)` becomes `createRequire(__filename)`: it takes a file's path
 *   as well as its URL, and no URL has to be made for it.
 * - `require("node:module")`, where only its `createRequire` is used, becomes the loader class
 *   the file's own `module` is an instance of. `node:module` exports that class with three extras
 *   (findSourceMap, register, SourceMap), and loading it loads the ES loader's modules (~0.5 ms).
 * A binding that is used for anything else keeps the real require.
 */
function lighterRequires(code) {
  let out = code.replace(/\bcreateRequire\)?\(__agentHooksModuleUrl\)/g, (m) => m.replace('__agentHooksModuleUrl', '__filename'));
  for (const [, name] of code.matchAll(/\b(import_node_module\d*)=require\("node:module"\)/g)) {
    const uses = [...out.matchAll(new RegExp(`\\b${name}\\b(?!=require)(\\.\\w+)?`, 'g'))];
    if (uses.every((u) => u[1] === '.createRequire'))
      out = out.replace(new RegExp(`\\b${name}=require\\("node:module"\\)`), `${name}=module.constructor`);
  }
  return out;
}

/**
 * A lazy import() of one of our own files, in CommonJS output, as a require() on the next tick
 * (what the ES form did, without the ES loader). Packages stay import() (some of them are ES
 * only), made by dist/cli/import-package.cjs: code compiled with a V8 code cache
 * (src/cli/code-cache.cts) runs through node:vm, where Node 20 has no import() of its own.
 */
function requireOwnChunks(code, file) {
  const importer = relative(dirname(file), 'dist/cli/import-package.cjs').split(sep).join('/');
  const out = code
    .replace(/\bimport\("(\.\.?\/[^"]+\.js)"\)/g, 'Promise.resolve().then(()=>require("$1"))')
    .replace(/\bimport\(("[^".][^"]*")\)/g, `require(${JSON.stringify(importer)}).importPackage($1)`);
  const left = /\bimport\(|\bimport\.meta\b/.exec(out);
  if (left) throw new Error(`${file}: cannot turn into CommonJS: ${out.slice(left.index, left.index + 60)}`);
  return out;
}

/**
 * `entry` with the chunks it requires statically, transitively, inside it: one file to resolve,
 * read and compile where there were two dozen (docs/performance.md, item 11). Each chunk stays a
 * function that runs on its first require, as its own module registered in require.cache under
 * its own file's name, so a file that requires that chunk from disk later (another dialect's
 * module) gets the same instance, and a chunk loaded before the entry is not run twice. Lazy
 * requires (behind a promise) stay files of their own.
 */
function mergeStaticChunks(entry) {
  const STATIC = /(?<!\(\)=>)\brequire\("(\.\.?\/[^"]+\.js)"\)/g;
  const base = dirname(entry);
  const order = [];
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) visit(resolve(dirname(file), m[1]));
    order.push(file);
  };
  visit(resolve(entry));
  const key = (file) => relative(base, file).split(sep).join('/');
  const inline = (code, file) =>
    code.replace(STATIC, (_, spec) => `__agentHooksChunk(${JSON.stringify(key(resolve(dirname(file), spec)))})`);
  const chunks = order
    .slice(0, -1)
    .map(
      (file) =>
        `${JSON.stringify(key(file))}:function(exports,require,module,__filename,__dirname){${inline(readFileSync(file, 'utf8'), file)}\n}`,
    );
  // A chunk is asked for once per file that imports it (some fifty times for twenty chunks): its
  // file name and its folder's module paths are worked out once, not on every ask. The loader
  // class is the file's own module's (lighterRequires says why not node:module).
  const loader =
    'const __agentHooksChunk=((chunks)=>{const Module=module.constructor,{dirname,join}=require("node:path"),files={},paths={};' +
    'return(name)=>{const filename=files[name]??=join(__dirname,name),hit=require.cache[filename];if(hit)return hit.exports;' +
    'const dir=dirname(filename),m=new Module(filename,module);m.filename=filename;m.paths=(paths[dir]??=Module._nodeModulePaths(dir)).slice();require.cache[filename]=m;' +
    'try{chunks[name].call(m.exports,m.exports,(id)=>m.require(id),m,filename,dir)}catch(e){delete require.cache[filename];throw e}' +
    `m.loaded=!0;return m.exports}})({${chunks.join(',\n')}});\n`;
  // Strict mode stays the first statement of the file; each chunk's own directive opens its function.
  const merged = STRICT + loader + inline(withoutStrict(readFileSync(entry, 'utf8')), resolve(entry));
  if (new RegExp(STATIC.source).test(merged)) throw new Error(`${entry}: a static require of a chunk was left after merging`);
  writeFileSync(entry, merged);
  const rel = entry.slice('dist/'.length);
  inputsOf[rel] = [...new Set(order.flatMap((file) => inputsOf[relative(resolve('dist'), file).split(sep).join('/')] ?? []))];
}
writeFileSync('dist/cli/bundle-inputs.json', `${JSON.stringify(inputsOf)}\n`);

// The digest of what this build made for the code cache's files (src/cli/code-cache.cts): a cache
// is used only under the build it was made for, so a new version or a rebuild that keeps a file's
// size and mtime (package managers set one fixed mtime) never runs another build's code. It
// covers all of dist/cli and dist/validators, a superset of the folders the cache compiles, so the
// two lists cannot drift apart into a cache the digest does not vouch for.
const cached = ['dist/cli', 'dist/validators'].flatMap((d) =>
  readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.c?js$/.test(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name)),
);
const digest = createHash('sha256');
for (const file of cached.sort()) digest.update(`${file}\0`).update(readFileSync(file)).update('\0');
writeFileSync('dist/cli/build-id', `${digest.digest('hex')}\n`);

// Node reads the package scope (the nearest package.json) at a process's first require() from
// bin.cjs, to look for a self-reference; the package's own, with its exports map and scripts, took
// ~1 M instructions to parse on every dispatch (docs/performance.md, item 22). This one ends the
// walk first and says what the package's says of dist/cli: its .js files are ES modules.
if (JSON.parse(readFileSync('package.json', 'utf8')).type !== 'module') throw new Error('dist/cli/package.json says "type": "module"');
writeFileSync('dist/cli/package.json', '{ "type": "module" }\n');

// tsc writes its output 0644; the `bin` must be executable for `npx agent-hooks` in this checkout
// (an installed package gets its mode from npm's bin linking).
chmodSync('dist/cli/bin.cjs', 0o755);
