/**
 * Stages only look down: no import cycle in src/ and nothing outside src/cli/ imports src/cli/
 * (docs/architecture.md). madge reads the imports, with type-only and dynamic imports counted:
 * a cycle through `import type` is still a cycle for the reader, and a lazy import still ties
 * the two modules together.
 */
import madge from 'madge';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { allows, importsOf, parseImportTable, sourceFiles, unitOf, type ImportTable } from './import-table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MADGE_OPTIONS = { fileExtensions: ['ts'], detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false } } };

/**
 * Import cycles accepted for now, each with the reason (none today). A cycle not listed here fails
 * the test, and so does a listed one that is gone.
 */
const KNOWN_CYCLES: Record<string, string> = {};

/** A cycle as one string, started at its smallest file so the same cycle always reads the same. */
function canonical(cycle: readonly string[]): string {
  let start = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[start]!) start = i;
  return [...cycle.slice(start), ...cycle.slice(0, start)].join(' > ');
}

describe('imports in src/', () => {
  let graph: Awaited<ReturnType<typeof madge>>;
  beforeAll(async () => {
    graph = await madge(`${ROOT}src`, { ...MADGE_OPTIONS, tsConfig: `${ROOT}tsconfig.json` });
  }, 120_000);

  test('no import cycle beyond the known ones of other owners', () => {
    const found = graph.circular().map(canonical);
    const unknown = found.filter((c) => !(c in KNOWN_CYCLES));
    expect(unknown, 'new import cycle(s) in src/').toEqual([]);
    const gone = Object.keys(KNOWN_CYCLES).filter((c) => !found.includes(c));
    expect(gone, 'cycles no longer present: remove them from KNOWN_CYCLES').toEqual([]);
  });

  test('the CLI is a leaf: nothing outside src/cli/ imports it', () => {
    const offenders: string[] = [];
    for (const [file, deps] of Object.entries(graph.obj())) {
      if (file.startsWith('cli/')) continue;
      for (const d of deps) if (d.startsWith('cli/')) offenders.push(`${file} -> ${d}`);
    }
    expect(offenders).toEqual([]);
    // The graph is real: the CLI's entry and its imports were read.
    expect(graph.obj()['cli/main.ts']?.length).toBeGreaterThan(0);
  });
});

test('the check counts type-only and dynamic imports', async () => {
  const dir = tempDir();
  try {
    dir.write('a.ts', "import type { B } from './b.js';\nexport type A = { b?: B };\n");
    dir.write('b.ts', "import type { A } from './a.js';\nexport type B = { a?: A };\n");
    dir.write('c.ts', "export async function load() {\n  return import('./d.js');\n}\n");
    dir.write('d.ts', "import { load } from './c.js';\nexport const again = load;\n");
    const tsConfig = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } };
    const cycles = (await madge(dir.root, { ...MADGE_OPTIONS, tsConfig })).circular().map(canonical);
    expect(cycles.sort()).toEqual(['a.ts > b.ts', 'c.ts > d.ts']);
  } finally {
    dir.cleanup();
  }
}, 60_000);

/**
 * Imports the table forbids that stay for now, each with the reason and what would remove it. A
 * forbidden import not listed here fails the test, and so does a listed one that is gone.
 */
const KNOWN_FORBIDDEN: Record<string, string> = {
  'config/load.ts -> trust/gate.ts':
    'loadConfig applies the trust gate to discovered workspace hooks by default (a library caller that passes no gate stays safe); inverting it means every caller passes the gate',
  'config/load.ts -> trust/verify.ts':
    'the same gate: the hooks loadConfig keeps from a reviewed workspace carry their verification (a changed guard fails closed)',
  'config/load.ts -> trust/types.ts': 'the gate returns its TrustReport through loadConfig (types only)',
  'config/schema.ts -> audit/sinks.ts': "the settings schema validates agentHooks.auditSinks with the audit sinks' own schema",
  'engine/plan.ts -> config/registry.ts': "firingKeyFor is built from the config stage's dedup helpers (keyOfItsOwn, handler payloads)",
  'trust/pins.ts -> backends/env.ts': 'a pin substitutes placeholders exactly as the command backend will',
  'trust/pins.ts -> backends/shell-placeholders.ts': 'a pin substitutes placeholders exactly as the command backend will',
};

describe('the "may import" column of docs/architecture.md', () => {
  const table = parseImportTable(readFileSync(`${ROOT}docs/architecture.md`, 'utf8'));
  const edges = sourceFiles(`${ROOT}src`).flatMap((f) => importsOf(`${ROOT}src/`, f));

  test('every entry of the column is one the check reads', () => {
    expect(table.errors).toEqual([]);
  });

  test('every folder and top-level file of src/ has a row', () => {
    const units = new Set(sourceFiles(`${ROOT}src`).map(unitOf));
    expect([...units].filter((u) => !table.allowed.has(u))).toEqual([]);
  });

  test('every import in src/ is one its row allows', () => {
    const forbidden = [...new Set(edges.filter((e) => !allows(table, e)).map((e) => `${e.from} -> ${e.to}`))];
    expect(
      forbidden.filter((f) => !(f in KNOWN_FORBIDDEN)),
      'imports the table does not allow (docs/architecture.md, "may import")',
    ).toEqual([]);
    expect(
      Object.keys(KNOWN_FORBIDDEN).filter((k) => !forbidden.includes(k)),
      'no longer imported: remove them from KNOWN_FORBIDDEN',
    ).toEqual([]);
    // The edges are real: the CLI imports the config stage, and a type-only import is seen as one.
    expect(edges.some((e) => e.from.startsWith('cli/') && e.to.startsWith('config/'))).toBe(true);
    expect(edges.some((e) => e.typeOnly)).toBe(true);
  });
});

test('the table check reads rows, qualifiers and every import form', () => {
  const doc = [
    '| folder | owns | may import |',
    '| --- | --- | --- |',
    '| `src/top/` | x | everything below |',
    '| `src/a/`, `src/b/` | x | each other; c (types), d (`one.ts` only) |',
    '| `src/c/` | x | node only |',
    '| `src/d/` | x | c |',
  ].join('\n');
  const t: ImportTable = parseImportTable(doc);
  expect(t.errors).toEqual([]);
  const e = (from: string, to: string, typeOnly = false) => allows(t, { from, to, typeOnly });
  expect([e('top/x.ts', 'd/two.ts'), e('a/x.ts', 'b/y.ts'), e('a/x.ts', 'c/y.ts', true), e('b/x.ts', 'd/one.ts')]).toEqual([
    true,
    true,
    true,
    true,
  ]);
  expect([e('a/x.ts', 'c/y.ts'), e('a/x.ts', 'd/two.ts'), e('c/x.ts', 'd/one.ts'), e('d/x.ts', 'top/y.ts')]).toEqual([
    false,
    false,
    false,
    false,
  ]);
  expect(parseImportTable(doc.replace('node only', 'd (facts)')).errors).toEqual(['c: unknown qualifier "facts" in "d (facts)"']);
  const dir = tempDir();
  try {
    dir.write(
      'src/a/x.ts',
      [
        "import type { T } from '../c/t.js';",
        "import { type U, v } from '../c/u.js';",
        "import { type W } from '../c/w.js';",
        "export type { Y } from '../c/y.js';",
        "import '../d/side.js';",
        "export async function f(): Promise<import('../c/z.js').Z> { return import('../d/lazy.js'); }",
      ].join('\n'),
    );
    expect(importsOf(dir.path('src/'), 'a/x.ts')).toEqual([
      { from: 'a/x.ts', to: 'c/t.ts', typeOnly: true },
      { from: 'a/x.ts', to: 'c/u.ts', typeOnly: false },
      { from: 'a/x.ts', to: 'c/w.ts', typeOnly: true },
      { from: 'a/x.ts', to: 'c/y.ts', typeOnly: true },
      { from: 'a/x.ts', to: 'd/side.ts', typeOnly: false },
      { from: 'a/x.ts', to: 'c/z.ts', typeOnly: true },
      { from: 'a/x.ts', to: 'd/lazy.ts', typeOnly: false },
    ]);
  } finally {
    dir.cleanup();
  }
});
