// Build step after tsc: bundles what `dispatch` and `run` load. `dispatch` runs once per agent
// event in a fresh process, where most of the start-up was resolving, reading and compiling
// small modules (docs/performance.md, "Start-up with hooks to run"): its no-hooks check becomes
// one CommonJS file (dist/cli/bundle-check/), what it loads lazily an ES bundle with split lazy
// chunks (dist/cli/bundle/); the lean `run` entry (dist/cli/run-entry.js) is bundled on its own
// into dist/cli/bundle-run/. dist/cli/bin.cjs falls back to the plain modules when a bundle is
// missing.
import { build } from 'esbuild';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

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

// 1. dispatch's no-hooks check: dist/cli/dispatch.js and its static imports, one CommonJS file.
//    Node loads a CommonJS file without the ES loader's resolve, link and evaluate steps for each
//    of a dozen chunks, which was most of what a dispatch with nothing to run cost over `node -e 0`.
//    Every lazy import() stays lazy: of our own modules it becomes an import() of the ES bundle
//    built in step 2, with the same path under dist/cli/bundle/ as the module has under dist/.
const CHECK_DIR = 'dist/cli/bundle-check';
const ES_DIR = 'dist/cli/bundle';
const lazyTargets = new Set();
const lazyToEsBundle = {
  name: 'lazy-to-es-bundle',
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
    entryPoints: { dispatch: 'dist/cli/dispatch.js' },
    outdir: CHECK_DIR,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // The sources are ES modules; the one import.meta they read in this file is the URL.
    define: { 'import.meta.url': '__agentHooksModuleUrl' },
    banner: { js: "const __agentHooksModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [lazyToEsBundle, zodEnglishOnly],
  }),
);

// 2. The ES bundles: what the check imports lazily (the hook-running path, other dialects' tables
//    and wire adapters), and the lean `run` entry. ESM with code splitting, so every lazy import()
//    inside stays a lazy chunk (no engine before a hook may run). Two builds, not one with shared
//    chunks: a process runs one of the two, and sharing splits the hot path into more, smaller files.
const ES_BUNDLES = [
  { entryPoints: [...lazyTargets].map((rel) => `dist/${rel}`), outdir: ES_DIR, outbase: 'dist' },
  { entryPoints: { 'run-entry': 'dist/cli/run-entry.js' }, outdir: 'dist/cli/bundle-run' },
];
for (const b of ES_BUNDLES) {
  rmSync(b.outdir, { recursive: true, force: true });
  record(
    await build({
      ...COMMON,
      ...b,
      splitting: true,
      format: 'esm',
      chunkNames: 'chunk-[hash]',
      // CommonJS dependencies (picomatch, proper-lockfile) require Node built-ins.
      banner: {
        js: "import { createRequire as __agentHooksRequire } from 'node:module'; const require = __agentHooksRequire(import.meta.url);",
      },
      plugins: [zodEnglishOnly],
    }),
  );
}
writeFileSync('dist/cli/bundle-inputs.json', `${JSON.stringify(inputsOf)}\n`);

// tsc writes its output 0644; the `bin` must be executable for `npx agent-hooks` in this checkout
// (an installed package gets its mode from npm's bin linking).
chmodSync('dist/cli/bin.cjs', 0o755);
