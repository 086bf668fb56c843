// Build step after tsc: inlines the `hooks` terminal manager's prompt library (@clack/prompts with
// @clack/core and sisteransi) into dist/cli/tui/hooks-tui.js, so a production install does not
// carry three packages that only an interactive command, used by a person now and then, needs.
// Everything else the module imports (our own modules, picocolors, Node built-ins) stays an import.
// The bundled packages' licences ship next to it (MIT asks that their notices travel with copies).
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The packages copied into the output, with where their licence text is. */
export const INLINED = [
  { name: '@clack/prompts', license: 'LICENSE' },
  { name: '@clack/core', license: 'LICENSE' },
  { name: 'sisteransi', license: 'license' },
];
const OUT = 'dist/cli/tui/hooks-tui.js';
const LICENSES = 'dist/cli/tui/third-party-licenses.txt';

const inlined = (path) => INLINED.some((p) => path === p.name || path.startsWith(`${p.name}/`));
const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;

await build({
  entryPoints: [OUT],
  outfile: OUT,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.10',
  legalComments: 'none',
  banner: { js: `// Includes ${INLINED.map((p) => `${p.name}@${versionOf(p.name)}`).join(', ')} (MIT): see ./third-party-licenses.txt` },
  logLevel: 'warning',
  plugins: [
    {
      name: 'inline-only-the-prompt-library',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          // Imports made inside the inlined packages resolve normally (they are inlined too),
          // except their own dependency on picocolors, which we ship as a regular dependency.
          if (inlined(args.path)) return undefined;
          if (/node_modules[\\/](@clack|sisteransi)[\\/]/.test(args.importer) && args.path.startsWith('.')) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
});

writeFileSync(
  LICENSES,
  INLINED.map((p) => {
    const text = readFileSync(require.resolve(`${p.name}/package.json`).replace(/package\.json$/, p.license), 'utf8').trim();
    return `${p.name}@${versionOf(p.name)}\n\n${text}\n`;
  }).join('\n---\n\n'),
);
