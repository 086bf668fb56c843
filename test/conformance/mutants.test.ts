/**
 * Each conformance case fails when its rule is removed from the engine, proved mechanically: per
 * case, src/ is copied (under test/.mutants/, git-ignored, so the copy resolves the repository's
 * node_modules) with the case's mutant (a textual edit that removes the rule, cases.ts) applied,
 * and the case's library door run on it: its expectation must not hold. The edit's text must be
 * found once in the real source, so a refactor that moves a rule breaks this test loudly instead
 * of leaving a mutant that no longer mutates.
 *
 * The copy is compiled file by file with esbuild and imported by Node itself, not through
 * vitest's transform: thirteen copies of the engine's module graph through vitest cost about a
 * minute of CPU on this 2-core machine, esbuild a second or two.
 */
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transform } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { CASES } from './cases.js';
import { compareAll, libraryDoor, prepareCase, type Library } from './doors.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MUTANTS = fileURLToPath(new URL('../.mutants/', import.meta.url));
let work: TempDir;

beforeAll(() => {
  work = tempDir('agent-hooks-mutants-');
  mkdirSync(MUTANTS, { recursive: true });
});
afterAll(() => {
  work?.cleanup();
  rmSync(MUTANTS, { recursive: true, force: true });
});

/** How often `find` occurs in `text`. */
const occurrences = (text: string, find: string) => text.split(find).length - 1;

/**
 * Node's own import(), which vitest does not route through its transform: a CommonJS file loaded
 * by Node's require (written beside the copies), whose import() Node compiles itself.
 */
function nativeImport(url: string): Promise<unknown> {
  const helper = join(MUTANTS, 'native-import.cjs');
  writeFileSync(helper, 'module.exports = (url) => import(url);\n');
  return (createRequire(import.meta.url)(helper) as (u: string) => Promise<unknown>)(url);
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** src/ with one edit, compiled to JavaScript under test/.mutants/ID/src, and the library door's functions imported from it. */
async function mutatedLibrary(id: string, file: string, find: string, replace: string): Promise<Library> {
  const root = join(MUTANTS, id, 'src');
  await Promise.all(
    tsFiles(SRC).map(async (source) => {
      const rel = relative(SRC, source);
      const text = readFileSync(source, 'utf8');
      const { code } = await transform(rel === file ? text.replace(find, replace) : text, {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
      });
      const out = join(root, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
  const load = (path: string) => nativeImport(pathToFileURL(join(root, path)).href);
  const [config, engine, options, frontmatter] = (await Promise.all([
    load('config/index.js'),
    load('engine/engine.js'),
    load('load/engine-options.js'),
    load('config/frontmatter.js'),
  ])) as [
    Pick<Library, 'loadConfig'>,
    Pick<Library, 'createHookEngine'>,
    Pick<Library, 'engineOptionsFromConfig'>,
    Pick<Library, 'loadFrontmatterHooks'>,
  ];
  return {
    loadConfig: config.loadConfig,
    createHookEngine: engine.createHookEngine,
    engineOptionsFromConfig: options.engineOptionsFromConfig,
    loadFrontmatterHooks: frontmatter.loadFrontmatterHooks,
  };
}

/** The library door's failures for a case on a compiled copy. */
async function failuresOn(lib: Library, c: (typeof CASES)[number]): Promise<string[]> {
  try {
    return compareAll(
      c.steps.map((s) => s.expect),
      await libraryDoor(lib, c, prepareCase(c, work.root)),
    );
  } catch (err) {
    return [`threw: ${(err as Error).message}`];
  }
}

test('control: on the copy without an edit every case holds (the copy and its compilation change nothing)', async () => {
  const lib = await mutatedLibrary('control', 'index.ts', '', '');
  for (const c of CASES) expect(await failuresOn(lib, c), c.id).toEqual([]);
}, 120_000);

describe.concurrent.each(CASES)('$id without its rule', (c) => {
  test(`${c.mutant.removes} (${c.mutant.file}): the library door's expectation fails`, async () => {
    const real = readFileSync(join(SRC, c.mutant.file), 'utf8');
    expect(occurrences(real, c.mutant.find), `the mutant's text in src/${c.mutant.file}`).toBe(1);
    const lib = await mutatedLibrary(c.id, c.mutant.file, c.mutant.find, c.mutant.replace);
    expect(await failuresOn(lib, c), 'the case still holds without its rule').not.toEqual([]);
  }, 120_000);
});
