// Build step after tsc: bundles the `dispatch` entry (dist/cli/dispatch.js and what it imports,
// dependencies included) into dist/cli/bundle/, and the lean `run` entry (dist/cli/run-entry.js)
// into dist/cli/bundle-run/. `dispatch` runs once per agent event in a fresh process, where most
// of the start-up is resolving, reading and compiling ~180 small modules; one bundle with split
// lazy chunks keeps the lazy paths lazy and cuts that cost (docs/performance.md, "Dispatch and run
// start-up"). Two builds, not one with shared chunks: a process runs one of the two, and sharing
// splits dispatch's hot path into more, smaller files. dist/cli/bin.js falls back to the
// unbundled entry when a bundle is missing.
import { build } from 'esbuild';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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

const BUNDLES = [
  { name: 'dispatch', entry: 'dist/cli/dispatch.js', outdir: 'dist/cli/bundle' },
  { name: 'run-entry', entry: 'dist/cli/run-entry.js', outdir: 'dist/cli/bundle-run' },
];

/** Which sources each output file holds, so a test can name what a run loaded (test/cli/lazy-load.test.ts). */
const inputsOf = {};
for (const b of BUNDLES) {
  rmSync(b.outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { [b.name]: b.entry },
    outdir: b.outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.10',
    // Names stay (stack traces in "internal error" notes stay readable); whitespace and syntax shrink.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    chunkNames: 'chunk-[hash]',
    // CommonJS dependencies (picomatch, proper-lockfile) require Node built-ins.
    banner: {
      js: "import { createRequire as __agentHooksRequire } from 'node:module'; const require = __agentHooksRequire(import.meta.url);",
    },
    // Optional peers (PostgreSQL sink, OTLP exporter, MCP SDK) stay outside: they load from
    // node_modules when configured, with the clear "install X" error when absent, and one
    // OpenTelemetry API instance is shared with the SDK.
    external: ['pg', '@opentelemetry/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    logLevel: 'warning',
    metafile: true,
    plugins: [zodEnglishOnly],
  });
  for (const [out, o] of Object.entries(result.metafile.outputs)) inputsOf[out.slice('dist/'.length)] = Object.keys(o.inputs);
}
writeFileSync('dist/cli/bundle-inputs.json', `${JSON.stringify(inputsOf)}\n`);

// tsc writes its output 0644; the `bin` must be executable for `npx agent-hooks` in this checkout
// (an installed package gets its mode from npm's bin linking).
chmodSync('dist/cli/bin.js', 0o755);
