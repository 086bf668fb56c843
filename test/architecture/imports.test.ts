/**
 * Stages only look down: no import cycle in src/ and nothing outside src/cli/ imports src/cli/
 * (docs/architecture.md). madge reads the imports, with type-only and dynamic imports counted:
 * a cycle through `import type` is still a cycle for the reader, and a lazy import still ties
 * the two modules together.
 */
import madge from 'madge';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

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
