// Build step after tsc: bundles the `dispatch` and `run` entries (dist/cli/dispatch.js,
// dist/cli/run-entry.js and what they import, dependencies included) into dist/cli/bundle/,
// sharing chunks. `dispatch` runs once per agent event in a fresh
// process, where most of the start-up is resolving, reading and compiling ~180 small modules;
// one bundle with split lazy chunks keeps the lazy paths lazy and cuts that cost
// (docs/performance.md, "Dispatch and run start-up"). dist/cli/bin.js falls back to the
// unbundled entry when the bundle is missing.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const outdir = 'dist/cli/bundle';
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { dispatch: 'dist/cli/dispatch.js', 'run-entry': 'dist/cli/run-entry.js' },
  outdir,
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
  banner: { js: "import { createRequire as __agentHooksRequire } from 'node:module'; const require = __agentHooksRequire(import.meta.url);" },
  // Optional peers (PostgreSQL sink, OTLP exporter) stay outside: they load from node_modules
  // when configured, with the clear "install X" error when absent, and one OpenTelemetry API
  // instance is shared with the SDK.
  external: ['pg', '@opentelemetry/*'],
  logLevel: 'warning',
});
