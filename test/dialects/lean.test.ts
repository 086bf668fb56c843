/**
 * dispatch's no-hooks path must stay lean: the static import graph of the standalone entry
 * (dist/cli/dispatch.js) reaches no zod, TOML, HTTP client or engine; those load lazily.
 * (Cold-start figures: docs/dialects.md "Dispatch cold start".)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const DIST = resolve(__dirname, '../../dist');

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const src = readFileSync(file, 'utf8');
    // Static imports and re-exports only; `import(...)` is lazy by design.
    for (const m of src.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) todo.push(join(dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  }
  return { files, packages };
}

test('the standalone dispatch entry loads no zod, TOML, undici or engine before a hook may run', () => {
  const entry = join(DIST, 'cli/dispatch.js');
  expect(existsSync(entry)).toBe(true);
  const { files, packages } = staticGraph(entry);
  expect([...packages]).toEqual([]);
  const rel = [...files].map((f) => f.slice(DIST.length + 1)).sort();
  for (const heavy of ['engine/', 'events/catalog.js', 'events/schemas.js', 'config/', 'backends/', 'dispatch/run.js']) {
    expect(
      rel.filter((f) => f.startsWith(heavy) || f === heavy),
      heavy,
    ).toEqual([]);
  }
  // The agents' readers (zod) and the eager table of every agent load lazily too.
  expect(rel.filter((f) => /^agents\/[a-z]+\/reader\.js$/.test(f) || f === 'agents/all.js')).toEqual([]);
  expect(rel).toContain('agents/registry.js');
});

test('the dispatch command module adds nothing heavy to the CLI', () => {
  const { packages } = staticGraph(join(DIST, 'cli/commands/dispatch.js'));
  expect([...packages]).toEqual([]);
});
