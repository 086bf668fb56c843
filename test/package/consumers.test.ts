/**
 * The package as a consumer gets it: `npm pack` (without scripts: dist/ comes from `npm run
 * build`, which npm test runs first) unpacked into a temp project's node_modules, with the
 * dependencies linked from this checkout's node_modules (no network). A CommonJS consumer
 * require()s every subpath of the exports map and an ESM consumer imports every one; both fire
 * an event through the engine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
/** Every code subpath of the exports map ('.', './sdk', …), so a new one is tested without an edit here. */
const SUBPATHS = Object.keys(pkg.exports)
  .filter((k) => typeof pkg.exports[k] === 'object')
  .map((k) => (k === '.' ? 'agent-hooks' : `agent-hooks/${k.slice(2)}`));

/**
 * The subpaths with a `require` condition: the framework adapters (agent-hooks/langchain, …) are
 * ESM only, as they load their framework with a top-level await that says what to install when it is missing.
 */
const CJS_SUBPATHS = SUBPATHS.filter((s) => {
  const entry = pkg.exports[s === 'agent-hooks' ? '.' : `./${s.slice('agent-hooks/'.length)}`] as Record<string, unknown>;
  return 'require' in entry;
});

/** require(esm) is on by default from Node 20.19 (and 22.12). */
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const requireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);

let dir: TempDir;
let files: string[] = [];

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  dir = tempDir('agent-hooks-consumer-');
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.root], { cwd: ROOT, encoding: 'utf8' });
  const packed = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = packed[0]!.files.map((f) => f.path);
  const modules = dir.path('app/node_modules');
  dir.write('app/node_modules/.keep', '');
  dir.write('app/package.json', JSON.stringify({ name: 'consumer', private: true }));
  execFileSync('tar', ['-xzf', join(dir.root, packed[0]!.filename), '-C', modules]);
  execFileSync('mv', [join(modules, 'package'), join(modules, 'agent-hooks')]);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name.startsWith('.') || name === 'agent-hooks') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
}, 120_000);

afterAll(() => dir?.cleanup());

function node(file: string) {
  return spawnSync(process.execPath, [file], { cwd: dir.path('app'), encoding: 'utf8', timeout: 60_000 });
}

const FIRE = `
  const engine = api.createHookEngine({ projectDir: process.cwd(), spawner: false });
  engine.register({ event: 'PreToolUse', fn: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } }) });
  const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  await engine.close();
  console.log(JSON.stringify({ decision: d.decision, reason: d.reason }));`;

describe('the packed package', () => {
  it('ships dist, schema, LICENSE and the docs, and no source maps or sources', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'CHANGELOG.md',
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'schema/settings.schema.json',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it('an ESM consumer imports every subpath and fires an event', () => {
    const imports = SUBPATHS.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
    const checks = SUBPATHS.map((s, i) => `if (Object.keys(m${i}).length === 0) throw new Error('${s}: no exports');`).join('\n');
    dir.write('app/esm.mjs', `${imports}\n${checks}\nconst api = m0;\n${FIRE}\n`);
    const r = node(dir.path('app/esm.mjs'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'deny', reason: 'no' });
  });

  it.runIf(requireEsm)('a CommonJS consumer requires every subpath and fires an event', () => {
    const requires = CJS_SUBPATHS.map((s) => `  if (Object.keys(require('${s}')).length === 0) throw new Error('${s}: no exports');`).join(
      '\n',
    );
    dir.write(
      'app/cjs.cjs',
      `${requires}\nconst api = require('agent-hooks');\n(async () => {${FIRE}\n})().catch((e) => { console.error(e); process.exit(1); });\n`,
    );
    const r = spawnSync(process.execPath, ['--no-warnings', dir.path('app/cjs.cjs')], {
      cwd: dir.path('app'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'deny', reason: 'no' });
  });
});
